//===- Selection.h - Which files to analyze, and which results to keep ----===//
//
// The clang-tidy side of `seam check`: the files of a run (the whole
// compile database, filtered by positional files or regexes as
// run-clang-tidy takes them, split by --shard), and the per-TU filters on
// results (--checks, --header-filter, --exclude-header-filter,
// --line-filter, --warnings-as-errors), with clang-tidy's meaning.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_SELECTION_H
#define SEAM_DRIVER_SELECTION_H

#include "Basic/Finding.h"
#include "Rules/GlobList.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"
#include <optional>
#include <string>
#include <vector>

namespace seam {

struct Shard {
  unsigned Index = 1, Count = 1; ///< 1-based: --shard 2/4
};

/// Parses "I/N" (1 <= I <= N <= 10000).
llvm::Expected<Shard> parseShard(llvm::StringRef Text);

/// Stable across machines and checkouts: a hash of \p RelPath.
bool inShard(llvm::StringRef RelPath, const Shard &S);

/// The files to analyze, each once, in a stable order. With a database and
/// no \p Positional, every entry; otherwise each positional names a file
/// (kept as given) or, when no such file exists and a database is loaded,
/// a regex searched in the database's file names, as run-clang-tidy does.
/// \p Errors receives one line per bad positional.
std::vector<std::string>
selectFiles(const clang::tooling::CompilationDatabase *DB,
            const std::vector<std::string> &Positional,
            std::vector<std::string> &Errors);

/// clang-tidy's --line-filter: [{"name": "a.cpp", "lines": [[1, 3]]}, ...].
class LineFilter {
public:
  static llvm::Expected<LineFilter> parse(llvm::StringRef Json);
  bool empty() const { return Entries.empty(); }
  /// True when the filter lets a result at \p File:\p Line through.
  bool passes(llvm::StringRef File, unsigned Line) const;

private:
  struct Entry {
    std::string Name;
    std::vector<std::pair<unsigned, unsigned>> Lines; ///< empty = all
  };
  std::vector<Entry> Entries;
};

/// The result filters of one translation unit.
struct ResultFilter {
  std::string MainFile; ///< absolute
  GlobList Checks{"seam-*"};
  GlobList WarningsAsErrors{""};
  std::optional<llvm::Regex> HeaderFilter;        ///< nullopt = every header
  std::optional<llvm::Regex> ExcludeHeaderFilter; ///< nullopt = none
  const LineFilter *Lines = nullptr;

  /// Whether \p F is reported; may raise its severity (warnings as errors).
  /// Compiler errors and unmatched NOLINT comments are always reported.
  bool apply(Finding &F) const;
};

/// The rule ids --checks enables, in catalog order.
std::vector<std::string> enabledChecks(const GlobList &Checks);

} // namespace seam

#endif
