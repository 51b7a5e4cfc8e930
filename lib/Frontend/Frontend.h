//===- Frontend.h - Parse translation units with Clang LibTooling ---------===//
//
// Turns the user's inputs (files, -p build dir, flags after --) into parsed
// ASTs, one at a time, and reports per file whether it parsed. Everything
// the user can get wrong here (a missing file, a broken compile database, a
// file that does not compile) comes back as an error line, never an abort.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_FRONTEND_FRONTEND_H
#define SEAM_FRONTEND_FRONTEND_H

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace seam {

struct FrontendOptions {
  std::string BuildDir;               ///< -p
  bool HasExtraArgs = false;          ///< "--" was given
  std::vector<std::string> ExtraArgs; ///< flags after "--"
};

/// Loads the compile database the options describe. \p Warning receives a
/// note for the user when Seam has to guess the flags.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
makeCompilationDatabase(const FrontendOptions &Opts, std::string &Warning);

struct ParseResult {
  std::string File;
  bool Ok = false;
  std::string Error; ///< one line, when !Ok
};

/// Parses each file and calls \p OnTU with its AST when it parsed without
/// errors. Compiler errors go to stderr as clang prints them.
std::vector<ParseResult>
parseFiles(const clang::tooling::CompilationDatabase &DB,
           const FrontendOptions &Opts, const std::vector<std::string> &Files,
           std::function<void(clang::ASTContext &, llvm::StringRef File)> OnTU);

} // namespace seam

#endif
