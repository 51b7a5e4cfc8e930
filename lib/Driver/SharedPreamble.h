//===- SharedPreamble.h - One parse of the includes files share -----------===//
//
// Files that begin with the same #include lines and compile with the same
// flags parse the same headers first: torch/torch.h, every time. As clangd
// does for one file, Seam precompiles that shared preamble once per run and
// gives each file `-include-pch`: the files are still parsed whole (their
// own includes are skipped by their guards), so the results are those of a
// parse without it. See docs/cli.md.
//
// Files whose first lines differ can still reach the same system headers
// before any code of their own: a.cpp includes "a.h", which begins with
// <vector> and <torch/torch.h>. Those files share a preamble of the system
// headers they all reach first, as CMake's target_precompile_headers puts
// one header set before every file: system headers do not depend on the
// order they are included in. Which set is worth sharing is measured: the
// preprocessed bytes each header brings.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_SHAREDPREAMBLE_H
#define SEAM_DRIVER_SHAREDPREAMBLE_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <map>
#include <string>
#include <vector>

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

/// Where a command looks for quoted and bracketed includes (-iquote, -I),
/// absolute: the directories that hold the project's own headers.
struct IncludeDirs {
  std::vector<std::string> Quote; ///< -iquote, then -I
  std::vector<std::string> User;  ///< -I
};
IncludeDirs includeDirs(const clang::tooling::CompileCommand &C);

/// Whether \p Args include something before the main file (-include,
/// -imacros, -include-pch): then no preamble can go first.
bool hasForcedIncludes(const std::vector<std::string> &Args);

/// The system headers \p MainFile reaches before any code of its own,
/// following its project headers (found beside the includer or in \p Dirs)
/// through their include guards, as the #include lines that name them
/// ("<vector>", "\"cuda.h\""), each once, in the order reached. The walk
/// stops at the first line that is not a comment, an include or a guard.
std::vector<std::string> leadingSystemHeaders(const std::string &MainFile,
                                              const IncludeDirs &Dirs);

/// Files that share one preamble of system headers.
struct SystemPreamble {
  std::vector<std::string> Headers; ///< in the first member's order
  std::vector<size_t> Members;      ///< indices into the planner's input
};

/// Chooses preambles for files with the same flags, given what each file
/// reaches first (leadingSystemHeaders) and the preprocessed bytes each
/// header brings (\p Bytes, by its #include name). Greedy: the header that
/// saves the most bytes over all files that reach it first joins them, with
/// every other header all of them reach; then the same for the rest. Only
/// headers every member reaches go in, so no member sees a header it would
/// not have included before its own code. Groups have two members or more.
std::vector<SystemPreamble>
planSystemPreambles(const std::vector<std::vector<std::string>> &Leading,
                    const std::map<std::string, uint64_t> &Bytes);

} // namespace seam

#endif
