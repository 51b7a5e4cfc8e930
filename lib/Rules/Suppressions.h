//===- Suppressions.h - NOLINT, NOLINTNEXTLINE, NOLINTBEGIN/NOLINTEND -----===//
//
// clang-tidy's suppression comments, with its semantics:
//   // NOLINT                 this line, every check
//   // NOLINT(seam-*)         this line, the checks the glob list names
//   // NOLINTNEXTLINE(...)    the next line
//   // NOLINTBEGIN(...) ... // NOLINTEND(...)   the lines between, when the
//                             END names the same list as its BEGIN
// A NOLINTBEGIN without its NOLINTEND (or the reverse) suppresses nothing
// and is itself reported, as check 'seam-nolint'.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_RULES_SUPPRESSIONS_H
#define SEAM_RULES_SUPPRESSIONS_H

#include "Basic/Finding.h"
#include "Rules/GlobList.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <vector>

namespace seam {

/// The directives of one file's text (exposed for tests).
struct NolintDirectives {
  struct Line {
    unsigned LineNo;
    bool NextLine; ///< NOLINTNEXTLINE rather than NOLINT
    GlobList Checks;
  };
  struct Block {
    unsigned Begin, End; ///< lines of the BEGIN and END comments
    GlobList Checks;
  };
  struct Unmatched {
    unsigned Line, Column; ///< 1-based, bytes
    bool IsBegin;
  };
  std::vector<Line> Lines;
  std::vector<Block> Blocks;
  std::vector<Unmatched> Problems;

  static NolintDirectives parse(llvm::StringRef Text);
  bool suppresses(unsigned LineNo, llvm::StringRef Check) const;
};

/// Suppression queries over the files of one translation unit.
class Suppressions {
public:
  explicit Suppressions(const clang::SourceManager &SM) : SM(SM) {}
  bool suppressed(clang::SourceLocation Loc, llvm::StringRef Check);
  /// Unmatched NOLINTBEGIN/NOLINTEND comments in the main file and in every
  /// file a query touched, as 'seam-nolint' findings.
  std::vector<Finding> problems();

private:
  const NolintDirectives &directives(clang::FileID F);
  const clang::SourceManager &SM;
  llvm::DenseMap<clang::FileID, std::unique_ptr<NolintDirectives>> ByFile;
};

} // namespace seam

#endif
