//===- HazardFinder.h - Graph breaks, host syncs and capture syncs --------===//
//
// Finds every trigger site of a translation unit (a call that asks the host
// for a tensor's value) and asks Residency where its operand lives, on
// converged states. The rules (lib/Rules) then decide what each site is.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_HAZARDS_HAZARDFINDER_H
#define SEAM_HAZARDS_HAZARDFINDER_H

#include "ApiModel/ApiModel.h"
#include "Basic/Finding.h"
#include "Regions/RegionModel.h"

#include "clang/AST/ASTContext.h"
#include <map>
#include <vector>

namespace seam {

struct AnalysisOptions {
  RegionOptions Regions;
  /// Also report syncs outside any hot path (as notes).
  bool ReportColdSyncs = false;
  /// A CPU-only program (DefaultResidency: host): a tensor whose origin is
  /// not visible is on the host, so only tensors seen to be moved to a
  /// device can sync.
  bool AssumeHost = false;
  /// Also summarize the TU for the project pass (TUAnalysis::Project).
  bool Summarize = false;
};

/// Site of a trigger, as found in one function (before classification).
struct TriggerSite {
  unsigned Node = 0;
  /// The call, or the construction for a `constructor` rule.
  const clang::Expr *Call = nullptr;
  TriggerMatch Match;
  Residency Where = Residency::None;
  std::string Operand; ///< source text of the tensor operand
  /// The operand is this parameter of the site's function, and where it
  /// lives is not known in this TU (-1: it is not, or it is known).
  int ParamIndex = -1;
};

/// Where the tensor arguments of each call to a user function live, by the
/// callee's parameter index (Residency::None: not a tensor), on converged
/// states joined over every walk of the call.
using CallArgResidency =
    std::map<const clang::CallExpr *, std::vector<Residency>>;

/// All trigger sites of the TU, in source order. Functions whose residency
/// analysis stopped at its iteration limit are named in \p Incomplete.
std::vector<TriggerSite>
findTriggerSites(clang::ASTContext &Ctx, const ApiModel &Api,
                 const RegionModel &Regions,
                 std::vector<std::string> *Incomplete = nullptr,
                 CallArgResidency *Args = nullptr);

// Classifying sites into findings is the rules' job: Rules/Rule.h.

/// Sorts by file and position and drops duplicates (template
/// instantiations and headers seen from several TUs yield the same result).
void sortAndDedupe(std::vector<Finding> &Findings);

} // namespace seam

#endif
