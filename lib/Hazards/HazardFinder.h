//===- HazardFinder.h - Graph breaks, host syncs and capture syncs --------===//
//
// The per-translation-unit analysis: finds every trigger (a call that asks
// the host for a tensor's value), asks Residency where its operand lives and
// Regions where it runs, and turns each into seam-graph-break,
// seam-host-sync and/or seam-capture-sync findings with their paths. Call
// findHazards() from a frontend action once the TU is parsed.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_HAZARDS_HAZARDFINDER_H
#define SEAM_HAZARDS_HAZARDFINDER_H

#include "ApiModel/ApiModel.h"
#include "Hazards/Finding.h"
#include "Regions/RegionModel.h"

#include "clang/AST/ASTContext.h"
#include <vector>

namespace seam {

struct AnalysisOptions {
  RegionOptions Regions;
  /// Also report syncs outside any hot path (as notes).
  bool ReportColdSyncs = false;
};

/// Site of a trigger, as found in one function (before classification).
struct TriggerSite {
  unsigned Node = 0;
  const clang::CallExpr *Call = nullptr;
  TriggerMatch Match;
  Residency Where = Residency::None;
  std::string Operand; ///< source text of the tensor operand
};

/// All trigger sites of the TU, in source order. Functions whose residency
/// analysis stopped at its iteration limit are named in \p Incomplete.
std::vector<TriggerSite>
findTriggerSites(clang::ASTContext &Ctx, const ApiModel &Api,
                 const RegionModel &Regions,
                 std::vector<std::string> *Incomplete = nullptr);

/// Classifies the sites into findings.
std::vector<Finding> findHazards(clang::ASTContext &Ctx, const ApiModel &Api,
                                 const RegionModel &Regions,
                                 const std::vector<TriggerSite> &Sites,
                                 const AnalysisOptions &Opts);

/// Sorts by file and position and drops duplicates (template
/// instantiations and headers seen from several TUs yield the same result).
void sortAndDedupe(std::vector<Finding> &Findings);

} // namespace seam

#endif
