//===- RunCounts.h - How many times a line runs -------------------------===//
//
// Internal to lib/Cost: trip counts, executions per loop iteration and per
// call, and runs in one run of the program, counted from main() ("Execution
// counts" in docs/cost-model.md).
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_COST_RUNCOUNTS_H
#define SEAM_COST_RUNCOUNTS_H

#include "Cost/OpModel.h"
#include "Flow/ExecCount.h"
#include "Regions/RegionModel.h"

#include <optional>
#include <vector>

namespace seam {

/// The constant trip count of loop \p L, when it has one.
std::optional<double> tripOf(const LoopInfo *L, clang::ASTContext &Ctx,
                             const TripHints *Trips,
                             const ParamValues *Params = nullptr);

/// How many times a site runs, from the loops around it (innermost first)
/// and how often it runs per iteration of each.
struct Executions {
  Frequency Innermost;  ///< per iteration of the innermost loop, or call
  bool Counted = false; ///< some guard or break changes the count
  bool Repeats = false; ///< runs more than once per program run
  std::optional<double> Iterations; ///< product of the loops' trip counts
  std::optional<double> Total;      ///< expected executions in all
};

Executions executionsOf(const std::vector<LoopVisit> &Loops,
                        const Frequency &PerCall, clang::ASTContext &Ctx,
                        const TripHints *Trips);

/// How many times code runs in one run of the program.
struct RunCount {
  double N = 0;
  bool Bound = false; ///< an uncounted guard was taken as true: at most N
};

/// Counts runs from main(), which runs once, along every call edge of the
/// TU: a function runs as often as all its callers' calls of it together.
/// Unknown (nullopt) when a chain of callers does not reach main, a loop on
/// it has no constant trip count, a loop function (std::for_each) runs it,
/// or the calls recurse.
class ProgramRuns {
public:
  ProgramRuns(const RegionModel &Regions, clang::ASTContext &Ctx,
              const TripHints *Trips);

  /// Runs of \p Site per call of its function \p Node (whose parameters
  /// have \p Params, when known), reading the function's unchanged locals'
  /// values (`int steps = 30;`) as constants.
  std::optional<RunCount> perCall(unsigned Node, const clang::Stmt *Site,
                                  clang::SourceLocation Loc,
                                  const ParamValues *Params = nullptr) const;

  /// Calls of function \p Node in one run of the program; with \p InRegion,
  /// only those made inside a compiled region (a helper called from a
  /// region and from plain code breaks only in the first).
  std::optional<RunCount> of(unsigned Node, bool InRegion = false);

  /// Runs of \p Site, in function \p Node, in one run of the program
  /// (with \p InRegion, only inside a compiled region): the function's
  /// calls times the site's runs per call, or summed over the calls with
  /// each call's constant arguments where a loop bound or guard reads a
  /// parameter.
  std::optional<RunCount> runsOf(unsigned Node, const clang::Stmt *Site,
                                 clang::SourceLocation Loc,
                                 bool InRegion = false);

  /// The argument each call of \p P's function passes for it: at calls the
  /// TU reads (a direct call, or `f(x)` through the holder of a compiled
  /// function), nullopt when one is made where the arguments are not in
  /// the source (a loop function, a call through a pointer it cannot
  /// follow, a default argument).
  std::optional<std::vector<const clang::Expr *>>
  argumentsFor(const clang::ParmVarDecl *P) const;

private:
  /// Whether the call \p CS in \p Caller runs its callee \p Node when
  /// counting: not a lambda's definition, nor compile()'s closure when
  /// the holder's calls are counted.
  bool runs(unsigned Node, unsigned Caller, const CallSite &CS) const;

  /// Runs of \p Site in \p Fn, summed over the calls of \p Fn, each with
  /// its constant arguments bound to \p Fn's parameters.
  std::optional<RunCount> throughCallers(unsigned Fn, const clang::Stmt *Site,
                                         clang::SourceLocation Loc,
                                         bool InRegion);

  /// Calls of a function that pass the same constant arguments: how many,
  /// and the values of its parameters (and of the parameters of the
  /// functions around it that a lambda reads).
  struct CallContext {
    RunCount Calls;
    ParamValues Params;
  };

  /// The calls of \p Fn grouped by the constants they pass, following an
  /// argument that is the caller's own parameter (a forwarding wrapper,
  /// compile()'s closure) up to \p Depth callers further; nullopt when a
  /// call is made where its arguments are not in the source.
  std::optional<std::vector<CallContext>> contextsOf(unsigned Fn, bool InRegion,
                                                     unsigned Depth);

  /// Node's locals that nothing changes after their declaration.
  const std::vector<const clang::VarDecl *> &localsOf(unsigned Node) const;

  enum Visit : uint8_t { Unvisited, InProgress, Done };
  const RegionModel &Regions;
  clang::ASTContext &Ctx;
  const TripHints *Trips;
  const std::vector<FunctionNode> &Nodes;
  std::vector<std::vector<std::pair<unsigned, unsigned>>> Callers;
  std::vector<Visit> State, RegionState;
  std::vector<std::optional<RunCount>> Memo, RegionMemo;
  mutable std::vector<std::optional<std::vector<const clang::VarDecl *>>>
      Locals;
  /// contextsOf(Fn, InRegion) once worked out (the outer optional: whether
  /// it has been).
  std::vector<std::optional<std::optional<std::vector<CallContext>>>> Contexts,
      RegionContexts;
};

} // namespace seam

#endif
