//===- SharedPreamble.h - One parse of the includes files share -----------===//
//
// Files that begin with the same #include lines and compile with the same
// flags parse the same headers first: torch/torch.h, every time. As clangd
// does for one file, Seam precompiles that shared preamble once per run and
// gives each file `-include-pch`: the files are still parsed whole (their
// own includes are skipped by their guards), so the results are those of a
// parse without it. See docs/cli.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_SHAREDPREAMBLE_H
#define SEAM_DRIVER_SHAREDPREAMBLE_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace seam {

/// The #include lines a main file begins with (after comments, blank lines
/// and `#pragma once`), as the text of a header that includes the same
/// files in the same order; a quoted include found beside the main file is
/// written with its absolute path, since the header lives elsewhere. ""
/// when the file begins with anything else.
std::string leadingIncludes(llvm::StringRef Text, llvm::StringRef MainDir);

/// What must be equal for two files to share a preamble: the directory and
/// the command line, without the file itself, its output and dependency
/// files.
std::string preambleFlags(const clang::tooling::CompileCommand &C);

} // namespace seam

#endif
