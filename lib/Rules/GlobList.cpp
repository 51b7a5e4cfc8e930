//===- GlobList.cpp - clang-tidy's check glob lists -----------------------===//
#include "Rules/GlobList.h"

namespace seam {

bool matchesGlob(llvm::StringRef Glob, llvm::StringRef Name) {
  // Iterative match with backtracking to the last '*'.
  size_t G = 0, N = 0, Star = llvm::StringRef::npos, Mark = 0;
  while (N < Name.size()) {
    if (G < Glob.size() && Glob[G] == '*') {
      Star = G++;
      Mark = N;
    } else if (G < Glob.size() && Glob[G] == Name[N]) {
      ++G;
      ++N;
    } else if (Star != llvm::StringRef::npos) {
      G = Star + 1;
      N = ++Mark;
    } else {
      return false;
    }
  }
  while (G < Glob.size() && Glob[G] == '*')
    ++G;
  return G == Glob.size();
}

GlobList::GlobList(llvm::StringRef Text) {
  while (!Text.empty()) {
    size_t Cut = Text.find_first_of(",\n");
    llvm::StringRef P = Text.take_front(Cut);
    Text = Cut == llvm::StringRef::npos ? "" : Text.drop_front(Cut + 1);
    P = P.trim(" \t\r\n");
    bool Positive = !P.consume_front("-");
    P = P.trim(" \t");
    if (!P.empty())
      Items.push_back({Positive, P.str()});
  }
}

bool GlobList::contains(llvm::StringRef Name) const {
  for (auto It = Items.rbegin(); It != Items.rend(); ++It)
    if (matchesGlob(It->Glob, Name))
      return It->Positive;
  return false;
}

} // namespace seam
