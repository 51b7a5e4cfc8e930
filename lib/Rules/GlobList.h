//===- GlobList.h - clang-tidy's check glob lists ("-*,seam-host-sync") ---===//
//
// The syntax of clang-tidy's --checks, --warnings-as-errors and NOLINT(...)
// lists, with its meaning: items separated by commas or newlines, '*'
// matches any run of characters, a leading '-' removes what it matches, and
// the last item that matches a name decides.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_RULES_GLOBLIST_H
#define SEAM_RULES_GLOBLIST_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace seam {

class GlobList {
public:
  explicit GlobList(llvm::StringRef Text = "");
  /// True when the last item matching \p Name is positive.
  bool contains(llvm::StringRef Name) const;
  bool empty() const { return Items.empty(); }

private:
  struct Item {
    bool Positive;
    std::string Glob;
  };
  std::vector<Item> Items;
};

/// '*'-only glob match, as clang-tidy's.
bool matchesGlob(llvm::StringRef Glob, llvm::StringRef Name);

} // namespace seam

#endif
