//===- SourcePoint.h - Clang locations to plain file/line/column ----------===//
#ifndef SEAM_BASIC_SOURCEPOINT_H
#define SEAM_BASIC_SOURCEPOINT_H

#include "Basic/Finding.h"

#include "clang/AST/Expr.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"

namespace seam {

/// The absolute path of \p FE, resolved against the translation unit's
/// working directory.
std::string absolutePath(const clang::SourceManager &SM,
                         clang::FileEntryRef FE);

/// The file position of \p Loc (macro arguments map to where they were
/// written, macro bodies to the expansion); \p End, when valid, extends the
/// range to the end of that token on the same line.
SourcePoint makePoint(const clang::SourceManager &SM,
                      const clang::LangOptions &LO, clang::SourceLocation Loc,
                      clang::SourceLocation End = {});

/// Source text of \p E on one line, shortened for messages.
std::string exprText(const clang::SourceManager &SM,
                     const clang::LangOptions &LO, const clang::Expr *E);

} // namespace seam

#endif
