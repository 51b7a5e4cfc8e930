//===- NextLaunch.h - What the host records before the device works again -===//
//
// Internal to lib/Cost: `next_ops` of the host-sync formula
// (docs/cost-model.md): for a sync in a region, the ops of the region's
// next piece; outside a region, one for an eager op, or the first piece of
// the compiled function called next. When the sync's function launches
// nothing after it, the search goes on after the function's one call site
// in this TU (a helper ending in `.item()` that a loop calls).
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_COST_NEXTLAUNCH_H
#define SEAM_COST_NEXTLAUNCH_H

#include "Cost/HostWork.h"
#include "Cost/RegionShape.h"
#include "Hazards/HazardFinder.h"
#include "Regions/RegionModel.h"

#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace seam {

class NextLaunch {
public:
  using ShapeOf =
      std::function<const RegionShape &(const clang::FunctionDecl *)>;
  NextLaunch(clang::ASTContext &Ctx, const ApiModel &Api,
             const RegionModel &Regions, ShapeOf RegionOf)
      : Ctx(Ctx), Api(Api), Regions(Regions), RegionOf(std::move(RegionOf)) {}

  /// The ops the host records before the device gets work again after the
  /// sync at \p S: for a break, the region's next piece; outside a region,
  /// the first tensor op or compiled call after \p S in source order, inside
  /// its innermost loop (coming round to the loop's start) or its function.
  /// Unknown (nullopt) when there is none.
  std::optional<unsigned> opsAfter(const TriggerSite &S, const SiteContext &C);
  /// When the next launch after \p S is a compiled call outside a region:
  /// its tensor arguments, the function's tensor parameters and, for a
  /// lambda, its tensor captures. Unknown (nullopt) otherwise.
  std::optional<unsigned> inputsAfter(const TriggerSite &S,
                                      const SiteContext &C);
  /// The next launch after \p S, outside a region, is an eager op.
  bool eagerAfter(const TriggerSite &S, const SiteContext &C);
  /// The code between the sync at \p S and the next launch: the span in
  /// its function (Scope null when the function has no body here), then,
  /// when that function launches nothing after the sync, the span after
  /// its call in its caller, and so on; each with the site it starts at
  /// (the sync, then each call).
  std::vector<std::pair<TriggerSite, AfterSpan>>
  spansAfter(const TriggerSite &S);
  /// The call that launched the work the sync at \p S waits for, when it
  /// is the first call in \p S's function of a compiled function, outside
  /// any loop: the call that compiled it. Null when the last launch before
  /// the sync is an eager op, a later call of a compiled function, or in a
  /// loop.
  const clang::CallExpr *compilingCallBefore(const TriggerSite &S);

private:
  struct Launch {
    clang::SourceLocation Loc;
    const clang::FunctionDecl *Region; ///< null: an eager op
    const clang::CallExpr *Call;
  };
  struct Next {
    AfterSpan Span;
    const Launch *L = nullptr;
  };
  Next nextLaunch(const TriggerSite &S);
  /// The path to the next launch after \p S: the spans (as spansAfter)
  /// and the launch, null when none is found.
  struct Path {
    std::vector<std::pair<TriggerSite, AfterSpan>> Spans;
    const Launch *L = nullptr;
  };
  Path pathAfter(const TriggerSite &S);
  /// The call of \p S's function that the host returns to, as a site of
  /// its caller: only when the TU calls the function from one place, by a
  /// direct call (not through a holder, a loop function or compile()).
  std::optional<TriggerSite> returnSite(const TriggerSite &S);
  std::optional<unsigned> nextPieceOps(const TriggerSite &S,
                                       const SiteContext &C);
  /// The launches of \p Scope in post-order, once per scope: every site of
  /// a scope scans the same list (a function with thousands of sites would
  /// walk its body thousands of times).
  const std::vector<Launch> &launchesIn(const clang::Stmt *Scope,
                                        const FunctionNode &Fn);

  clang::ASTContext &Ctx;
  const ApiModel &Api;
  const RegionModel &Regions;
  ShapeOf RegionOf;
  llvm::DenseMap<const clang::Stmt *, std::vector<Launch>> LaunchesIn;
  /// returnSite() by function node: found once, not once per sync (each
  /// sync asks for its next launch, its resume and its host work).
  llvm::DenseMap<unsigned, std::optional<TriggerSite>> ReturnSites;
};

} // namespace seam

#endif
