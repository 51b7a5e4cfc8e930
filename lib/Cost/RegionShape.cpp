//===- RegionShape.cpp - A compiled region's pieces, and what a break cuts ===//
#include "Cost/RegionShape.h"
#include "Cost/Fusion.h"

using namespace clang;

namespace seam {

RegionShape shapeOf(const std::vector<OpEvent> &Seq) {
  RegionShape R;
  R.Seq = Seq;
  std::vector<OpClass> Classes;
  for (const OpEvent &E : Seq)
    Classes.push_back(E.IsBreak ? OpClass::View : E.Class);
  R.Unbroken = fusionGroups(Classes, R.LaunchesBefore);
  R.OpsPerPiece.push_back(0);
  for (const OpEvent &E : Seq) {
    if (E.IsBreak) {
      R.OpsPerPiece.push_back(0);
      R.Pieces += static_cast<unsigned>(E.Multiplicity);
      R.PiecesPerIteration |= E.PerIteration;
    } else if (E.Class != OpClass::View && E.Class != OpClass::Host) {
      ++R.OpsPerPiece.back();
    }
  }
  return R;
}

BreakEffect effectOf(const RegionShape &R, const CallExpr *Call) {
  BreakEffect B;
  for (size_t I = 0; I < R.Seq.size(); ++I) {
    if (!R.Seq[I].IsBreak || R.Seq[I].Call != Call)
      continue;
    B.Multiplicity += R.Seq[I].Multiplicity;
    B.PerIteration |= R.Seq[I].PerIteration;
    // The nearest ops on either side; the break cuts a fusion group when
    // they would have been one kernel without it.
    int Before = -1, After = -1;
    for (int J = static_cast<int>(I) - 1; J >= 0 && Before < 0; --J)
      if (!R.Seq[J].IsBreak && R.Unbroken[J] >= 0)
        Before = J;
    for (size_t J = I + 1; J < R.Seq.size() && After < 0; ++J)
      if (!R.Seq[J].IsBreak && R.Unbroken[J] >= 0)
        After = static_cast<int>(J);
    if (Before < 0 || After < 0 || R.Unbroken[Before] != R.Unbroken[After])
      continue;
    unsigned Mult = static_cast<unsigned>(R.Seq[I].Multiplicity);
    B.GroupsCut += Mult;
    B.Intermediates += Mult;
    // The value crossing the cut is written and read back once.
    if (B.Bytes && R.Seq[Before].OutBytes)
      *B.Bytes += 2 * *R.Seq[Before].OutBytes * Mult;
    else
      B.Bytes.reset();
  }
  return B;
}

} // namespace seam
