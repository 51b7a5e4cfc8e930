//===- CostModel.h - What each graph break and host sync costs ------------===//
//
// Attaches a CostEstimate to every finding of one translation unit, from
// the region's op sequence (OpModel), the fusion rule (Fusion) and a device
// profile (Profile), and produces the --summary rows. Formulas and what is
// and is not modelled: docs/cost-model.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_COST_COSTMODEL_H
#define SEAM_COST_COSTMODEL_H

#include "Basic/Finding.h"
#include "Cost/OpModel.h"
#include "Cost/Profile.h"
#include "Hazards/HazardFinder.h"
#include "Regions/RegionModel.h"
#include "Rules/Rule.h"

namespace seam {

struct CostOptions {
  DeviceProfile Profile;
  ShapeHints Hints;
  /// --trips / Trips: loop bounds read from these names have these values.
  TripHints Trips;
  /// A summary row for every compiled region, not only those with a
  /// finding (seam validate compares them all).
  bool AllRegionRows = false;
};

/// Sets the cost of each finding of \p Found (from its site and context)
/// and appends the --summary rows of the TU's regions and hot loops to
/// \p Rows.
void estimateCosts(clang::ASTContext &Ctx, const ApiModel &Api,
                   const RegionModel &Regions,
                   llvm::MutableArrayRef<SiteFinding> Found,
                   const CostOptions &Opts, std::vector<SummaryRow> &Rows);

} // namespace seam

#endif
