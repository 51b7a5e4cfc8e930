//===- HostWork.h - What the host does after a sync, before its next launch
//===//
//
// Internal to lib/Cost: the host work term of the host-sync formula
// (docs/cost-model.md, "Host work after a sync"). Between a sync and the
// next launch the device idles while the host formats and prints what it
// read, loops over data it copied back, or calls code Seam cannot see.
// This finds that work in the code between the two, the way NextLaunch
// finds the launch: in source order, inside the innermost loop around the
// sync, coming round to the loop's start.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_COST_HOSTWORK_H
#define SEAM_COST_HOSTWORK_H

#include "Cost/OpModel.h"
#include "Hazards/HazardFinder.h"
#include "Regions/RegionModel.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace seam {

class ApiModel;

/// The code a sync's idle spans: from the end of the sync's call to the
/// next launch, in \p Scope (the innermost loop around the sync, or its
/// function's body). With \p Wraps, the span goes on from the scope's start
/// when the next launch comes before the sync (the loop's next iteration).
struct AfterSpan {
  const clang::Stmt *Scope = nullptr;
  clang::SourceLocation From;
  clang::SourceLocation To; ///< invalid: no launch follows in the scope
  bool Wraps = false;
};

/// What the host does in a span, per execution of the sync, each item
/// weighted by how often it runs when the sync does.
struct HostWork {
  /// Print statements (a `<<` chain on a stream, a printf-family call).
  double Prints = 0;
  /// Tensors formatted by those prints.
  double TensorPrints = 0;
  /// Iterations of host loops with constant trip counts.
  double LoopIterations = 0;
  /// Writes that flush a stream: `std::endl` or `std::flush` in a `<<`
  /// chain, each `<<` to `std::cerr` (unit-buffered), `fflush`, a
  /// printf-family call on `stderr`.
  double Flushes = 0;
  /// Work Seam cannot size, one phrase each ("a call to 'log_metrics',
  /// defined in another file", "a loop without a constant trip count at
  /// line 42"): left out of the estimate and said.
  std::vector<std::string> Unknown;

  /// Adds \p O's work (the caller's span after a helper's sync).
  HostWork &operator+=(const HostWork &O) {
    Prints += O.Prints;
    TensorPrints += O.TensorPrints;
    LoopIterations += O.LoopIterations;
    Flushes += O.Flushes;
    Unknown.insert(Unknown.end(), O.Unknown.begin(), O.Unknown.end());
    return *this;
  }

  bool empty() const {
    return Prints == 0 && TensorPrints == 0 && LoopIterations == 0 &&
           Flushes == 0 && Unknown.empty();
  }
};

/// Finds the host work after each sync of one translation unit.
class HostWorkFinder {
public:
  HostWorkFinder(clang::ASTContext &Ctx, const ApiModel &Api,
                 const RegionModel &Regions, const TripHints *Trips)
      : Ctx(Ctx), Api(Api), Regions(Regions), Trips(Trips) {}

  /// The host work in \p Span after the sync \p S, a site of function
  /// node \p S.Node.
  HostWork after(const TriggerSite &S, const AfterSpan &Span);

private:
  /// The syncs of \p Scope, found once per scope: every sync of a scope
  /// looks for the next one in the same list (as NextLaunch keeps each
  /// scope's launches).
  const std::vector<const clang::CallExpr *> &syncsIn(const clang::Stmt *Root);

  clang::ASTContext &Ctx;
  const ApiModel &Api;
  const RegionModel &Regions;
  const TripHints *Trips;
  llvm::DenseMap<const clang::Stmt *, std::vector<const clang::CallExpr *>>
      SyncsIn;
};

} // namespace seam

#endif
