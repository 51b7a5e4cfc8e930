//===- Summarize.h - A translation unit's summary for the project pass ----===//
//
// What one TU hands to the project pass (lib/Project): its functions by USR
// with every call they make (its own and those it cannot follow: bodies in
// other files, virtual calls, calls through members, globals and
// parameters), what it stores in such holders, and the conditional host
// syncs of its cold functions. docs/whole-project.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_PIPELINE_SUMMARIZE_H
#define SEAM_PIPELINE_SUMMARIZE_H

#include "Basic/ProjectSummary.h"
#include "Cost/RunCounts.h"
#include "Hazards/HazardFinder.h"
#include "Rules/Rule.h"

#include "clang/AST/ASTContext.h"

namespace seam {

/// The key the project joins a declaration by across TUs: its USR, or for a
/// lambda or a local, its spelling location.
std::string projectKey(const clang::Decl *D);

/// \p Conditional: the TU's cold host syncs as reported were their function
/// hot (priced and fixed as such).
TUSummary summarizeTU(clang::ASTContext &Ctx, const RegionModel &Regions,
                      const CallArgResidency &Args, const TripHints &Trips,
                      std::vector<SiteFinding> &Conditional);

} // namespace seam

#endif
