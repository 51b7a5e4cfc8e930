//===- Fusion.cpp - Fusion groups of a region's op sequence ---------------===//
#include "Cost/Fusion.h"

namespace seam {

std::vector<int> fusionGroups(const std::vector<OpClass> &Ops,
                              unsigned &Count) {
  std::vector<int> Group(Ops.size(), -1);
  int Next = 0;
  int Open = -1; // the pointwise chain being built, if any
  for (size_t I = 0; I < Ops.size(); ++I) {
    switch (Ops[I]) {
    case OpClass::View:
    case OpClass::Host:
      break; // free, and does not end a chain
    case OpClass::Pointwise:
      if (Open < 0)
        Open = Next++;
      Group[I] = Open;
      break;
    case OpClass::Reduction:
      // A trailing reduction joins the chain and closes it.
      Group[I] = Open >= 0 ? Open : Next++;
      Open = -1;
      break;
    case OpClass::Library:
    case OpClass::DataDependent:
      Group[I] = Next++;
      Open = -1;
      break;
    }
  }
  Count = static_cast<unsigned>(Next);
  return Group;
}

} // namespace seam
