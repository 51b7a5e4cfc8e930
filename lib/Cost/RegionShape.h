//===- RegionShape.h - A compiled region's pieces, and what a break cuts --===//
//
// Internal to lib/Cost: the op sequence of a region (OpModel) as pieces and
// fusion groups, and what the breaks of one call do to it.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_COST_REGIONSHAPE_H
#define SEAM_COST_REGIONSHAPE_H

#include "Cost/OpModel.h"

#include <optional>
#include <vector>

namespace seam {

/// The region-level facts the break estimates share.
struct RegionShape {
  std::vector<OpEvent> Seq;
  std::vector<int> Unbroken; ///< group of each event, breaks ignored
  unsigned LaunchesBefore = 0;
  std::vector<unsigned> OpsPerPiece;
  unsigned Pieces = 1;
  bool PiecesPerIteration = false;
};

RegionShape shapeOf(const std::vector<OpEvent> &Seq);

/// Effects of the breaks made by one call on a region.
struct BreakEffect {
  unsigned GroupsCut = 0;
  unsigned Intermediates = 0;
  std::optional<double> Bytes = 0.0;
  double Multiplicity = 0;
  bool PerIteration = false;
};

BreakEffect effectOf(const RegionShape &R, const clang::CallExpr *Call);

} // namespace seam

#endif
