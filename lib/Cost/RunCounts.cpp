//===- RunCounts.cpp - How many times a line runs -----------------------===//
#include "Cost/RunCounts.h"

using namespace clang;

namespace seam {

std::optional<double> tripOf(const LoopInfo *L, ASTContext &Ctx,
                             const TripHints *Trips,
                             const ParamValues *Params) {
  return L->S ? constantTripCount(L->S, Ctx, Params, Trips) : std::nullopt;
}

Executions executionsOf(const std::vector<LoopVisit> &Loops,
                        const Frequency &PerCall, ASTContext &Ctx,
                        const TripHints *Trips) {
  Executions X;
  X.Innermost = Loops.empty() ? PerCall : Loops.front().Freq;
  if (!Loops.empty())
    X.Innermost.multiply(PerCall);
  X.Counted = !X.Innermost.everyTime();
  double Iter = 1, Total = PerCall.PerIteration;
  bool Known = true;
  for (const LoopVisit &V : Loops) {
    X.Repeats |= !V.Freq.OncePerLoop;
    std::optional<double> T = tripOf(V.Loop, Ctx, Trips);
    if (!T) {
      Known = false;
      continue;
    }
    Iter *= *T;
    // Once per run of this loop, whatever its trips.
    Total *= V.Freq.OncePerLoop ? 1 : *T * V.Freq.PerIteration;
  }
  if (Known && !Loops.empty()) {
    X.Iterations = Iter;
    X.Total = Total;
  }
  return X;
}

ProgramRuns::ProgramRuns(const RegionModel &Regions, ASTContext &Ctx,
                         const TripHints *Trips)
    : Regions(Regions), Ctx(Ctx), Trips(Trips), Nodes(Regions.functions()),
      Callers(Nodes.size()), State(Nodes.size(), Unvisited),
      RegionState(Nodes.size(), Unvisited), Memo(Nodes.size()),
      RegionMemo(Nodes.size()), Locals(Nodes.size()), Contexts(Nodes.size()),
      RegionContexts(Nodes.size()) {
  for (unsigned I = 0; I < Nodes.size(); ++I) {
    const std::vector<CallSite> &Calls = Nodes[I].Calls;
    for (unsigned C = 0; C < Calls.size(); ++C) {
      // `f(x)` after `auto f = compile(g)` is an edge to g, through f
      // and through compile(...); when the TU also has the body of what
      // f calls directly (compile()'s closure), that body's call of g is
      // counted instead, not all of them.
      if (!Calls[C].Through.empty() &&
          llvm::any_of(Calls, [&](const CallSite &O) {
            return O.Site == Calls[C].Site && O.Through.empty() &&
                   O.Callee != Calls[C].Callee && !O.IsLambdaDefinition;
          }))
        continue;
      // One call reaches its callee once, however many ways the TU
      // explains it: with compile() in a system header (its closure's
      // body not parsed), `f(x)` resolves to g through the holder and
      // through compile(...) both.
      if (!Calls[C].Through.empty() &&
          llvm::any_of(
              llvm::ArrayRef(Calls).take_front(C), [&](const CallSite &O) {
                return O.Site == Calls[C].Site && O.Callee == Calls[C].Callee &&
                       !O.IsLambdaDefinition;
              }))
        continue;
      Callers[Calls[C].Callee].push_back({I, C});
    }
  }
}

/// Runs of \p Site per call of its function \p Node (whose parameters
/// have \p Params, when known).
std::optional<RunCount> ProgramRuns::perCall(unsigned Node, const Stmt *Site,
                                             SourceLocation Loc,
                                             const ParamValues *Params) const {
  const FunctionNode &N = Nodes[Node];
  const CFGBlock *B = N.Flow && Site ? N.Flow->blockOf(Site) : nullptr;
  if (B && !N.Flow->reachable(B))
    return RunCount{0, false};
  RunCount C{1, false};
  ParamValues Known = Params ? *Params : ParamValues();
  bindLocals(localsOf(Node), Ctx, Known);
  Params = &Known;
  std::vector<LoopVisit> Loops = Regions.loopsAt(Node, Site, Loc, Params);
  for (const LoopVisit &V : Loops) {
    C.Bound |= !V.Freq.Uncounted.empty();
    if (V.Freq.OncePerLoop) {
      // A test of the counter runs once; a `break` after it, at most once.
      C.Bound |= !V.Freq.OnceWhy.empty();
      continue;
    }
    std::optional<double> T = tripOf(V.Loop, Ctx, Trips, Params);
    if (!T)
      return std::nullopt;
    C.N *= *T * V.Freq.PerIteration;
  }
  // The guards outside every loop: on the site, or on its outermost loop.
  const CFGBlock *Outer = B;
  if (!Loops.empty())
    Outer = Loops.back().Loop->Natural ? Loops.back().Loop->Natural->Header
                                       : nullptr;
  if (N.Flow && Outer) {
    Frequency F = frequencyOf(*N.Flow, Outer, nullptr, Ctx, Params);
    C.Bound |= !F.Uncounted.empty();
    C.N *= F.PerIteration;
  }
  return C;
}

const std::vector<const VarDecl *> &ProgramRuns::localsOf(unsigned Node) const {
  if (!Locals[Node])
    Locals[Node] = unchangedLocals(Nodes[Node].FD, Ctx);
  return *Locals[Node];
}

bool ProgramRuns::runs(unsigned Node, unsigned Caller,
                       const CallSite &CS) const {
  if (CS.IsLambdaDefinition && CS.IteratedBy.empty())
    return false; // defining a lambda does not run it
  // A caller nothing in the TU calls (compile()'s closure, invoked by the
  // std::function holding it) adds nothing when the callee has callers
  // that are counted (the holder's call resolves to it).
  return !Callers[Caller].empty() || Nodes[Caller].FD->isMain() ||
         llvm::none_of(Callers[Node], [&](std::pair<unsigned, unsigned> O) {
           return !Nodes[O.first].Calls[O.second].IsLambdaDefinition &&
                  (!Callers[O.first].empty() || Nodes[O.first].FD->isMain());
         });
}

/// Calls of function \p Node in one run of the program; with \p InRegion,
/// only those made inside a compiled region (a helper called from a
/// region and from plain code breaks only in the first).
std::optional<RunCount> ProgramRuns::of(unsigned Node, bool InRegion) {
  std::vector<Visit> &State = InRegion ? RegionState : this->State;
  std::vector<std::optional<RunCount>> &Memo =
      InRegion ? RegionMemo : this->Memo;
  if (State[Node] == Done)
    return Memo[Node];
  if (State[Node] == InProgress)
    return std::nullopt; // recursion
  if (InRegion && Nodes[Node].IsRegionRoot)
    return of(Node, false);
  State[Node] = InProgress;
  std::optional<RunCount> Total;
  if (Nodes[Node].FD->isMain()) {
    State[Node] = Done;
    return Memo[Node] = RunCount{InRegion ? 0.0 : 1.0, false};
  }
  for (auto [Caller, Call] : Callers[Node]) {
    const CallSite &CS = Nodes[Caller].Calls[Call];
    if (!runs(Node, Caller, CS))
      continue;
    std::optional<RunCount> Via =
        CS.IteratedBy.empty() ? runsOf(Caller, CS.Site, CS.Loc, InRegion)
                              : std::nullopt;
    if (!Via) {
      Total.reset();
      break;
    }
    if (!Total)
      Total = RunCount{0, false};
    Total->N += Via->N;
    Total->Bound |= Via->Bound;
  }
  State[Node] = Done;
  Memo[Node] = Total;
  return Total;
}

std::optional<RunCount> ProgramRuns::runsOf(unsigned Node, const Stmt *Site,
                                            SourceLocation Loc, bool InRegion) {
  std::optional<RunCount> Calls = of(Node, InRegion);
  if (!Calls)
    return std::nullopt;
  std::optional<RunCount> Per = perCall(Node, Site, Loc);
  // A loop bounded by a parameter (`for (i = 0; i < n; ++i)`), or a guard
  // that reads one (`i % every == 0`): count it at each call of the
  // function, with that call's constant arguments.
  if (!Per || Per->Bound)
    if (std::optional<RunCount> Bound =
            throughCallers(Node, Site, Loc, InRegion);
        Bound && (!Per || !Bound->Bound))
      return Bound;
  if (!Per)
    return std::nullopt;
  return RunCount{Calls->N * Per->N, Calls->Bound || Per->Bound};
}

/// The argument \p CE passes for parameter \p I of its callee \p FD (a
/// member operator call passes the object first); null when the call
/// passes fewer.
static const Expr *argumentAt(const CallExpr *CE, const FunctionDecl *FD,
                              unsigned I) {
  unsigned Shift =
      isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) ? 1 : 0;
  return I + Shift < CE->getNumArgs() ? CE->getArg(I + Shift) : nullptr;
}

std::optional<std::vector<const Expr *>>
ProgramRuns::argumentsFor(const ParmVarDecl *P) const {
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  std::optional<unsigned> Fn = Regions.nodeFor(FD);
  if (!Fn || FD->isMain())
    return std::nullopt;
  unsigned Index = P->getFunctionScopeIndex();
  std::vector<const Expr *> Args;
  for (const FunctionNode &Caller : Nodes)
    for (const CallSite &CS : Caller.Calls) {
      if (CS.Callee != *Fn || CS.IsLambdaDefinition)
        continue;
      const auto *CE = dyn_cast_or_null<CallExpr>(CS.Site);
      if (!CE || !CS.IteratedBy.empty())
        return std::nullopt;
      const Expr *Arg = argumentAt(CE, FD, Index);
      if (!Arg || isa<CXXDefaultArgExpr>(Arg))
        return std::nullopt;
      Args.push_back(Arg);
    }
  return Args;
}

/// \p E without what passes a value through unchanged: implicit
/// conversions, std::move and std::forward.
static const Expr *forwarded(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    const auto *CE = dyn_cast<CallExpr>(E);
    const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
    if (!FD || CE->getNumArgs() != 1 || !FD->isInStdNamespace() ||
        !FD->getIdentifier() ||
        (FD->getName() != "move" && FD->getName() != "forward"))
      return E;
    E = CE->getArg(0);
  }
  return E;
}

std::optional<std::vector<ProgramRuns::CallContext>>
ProgramRuns::contextsOf(unsigned Fn, bool InRegion, unsigned Depth) {
  const FunctionDecl *FD = Nodes[Fn].FD;
  if (FD->isMain())
    return std::nullopt;
  // A compiled function runs as often as the calls of its holder.
  if (InRegion && Nodes[Fn].IsRegionRoot)
    InRegion = false;
  // Enough for any call chain a person writes by hand; bounded, so that a
  // fan of wrappers cannot multiply the work without end.
  constexpr size_t MaxContexts = 256;
  std::vector<CallContext> Out;
  for (auto [Caller, Call] : Callers[Fn]) {
    const CallSite &In = Nodes[Caller].Calls[Call];
    if (In.IsLambdaDefinition || !runs(Fn, Caller, In))
      continue;
    const auto *CE = dyn_cast_or_null<CallExpr>(In.Site);
    if (!CE || !In.IteratedBy.empty())
      return std::nullopt;
    // The caller's own calls, each with its constants; or, where they
    // cannot be told apart, all of them with none known.
    std::vector<CallContext> From;
    if (std::optional<std::vector<CallContext>> Up =
            Depth && !Nodes[Caller].FD->isMain()
                ? contextsOf(Caller, InRegion, Depth - 1)
                : std::nullopt) {
      for (CallContext &C : *Up) {
        std::optional<RunCount> Per =
            perCall(Caller, In.Site, In.Loc, &C.Params);
        if (!Per)
          return std::nullopt;
        C.Calls = {C.Calls.N * Per->N, C.Calls.Bound || Per->Bound};
        From.push_back(std::move(C));
      }
    } else if (std::optional<RunCount> Runs =
                   runsOf(Caller, In.Site, In.Loc, InRegion)) {
      From.push_back({*Runs, ParamValues()});
    } else {
      return std::nullopt;
    }
    for (CallContext &C : From) {
      // A lambda reads the parameters and locals of the functions around
      // it; an argument, the caller's.
      ParamValues Params = std::move(C.Params);
      bindLocals(localsOf(Caller), Ctx, Params);
      llvm::SmallVector<std::pair<const VarDecl *, int64_t>, 4> Args;
      for (unsigned I = 0; I < FD->getNumParams(); ++I) {
        const Expr *Arg = forwarded(argumentAt(CE, FD, I));
        if (!Arg || Arg->isValueDependent() || !Arg->getType()->isIntegerType())
          continue;
        if (std::optional<int64_t> V = integerValue(Arg, Ctx, &Params))
          Args.push_back({FD->getParamDecl(I), *V});
      }
      for (auto [P, V] : Args)
        Params.Vars[P] = V;
      Out.push_back({C.Calls, std::move(Params)});
      if (Out.size() > MaxContexts)
        return std::nullopt;
    }
  }
  if (Out.empty())
    return std::nullopt; // nothing the TU counts calls it
  return Out;
}

/// Runs of \p Site in \p Fn, summed over the calls of \p Fn, each with
/// its constant arguments bound to \p Fn's parameters.
std::optional<RunCount> ProgramRuns::throughCallers(unsigned Fn,
                                                    const Stmt *Site,
                                                    SourceLocation Loc,
                                                    bool InRegion) {
  // The same for every site of Fn: worked out once.
  auto &Memo = (InRegion ? RegionContexts : Contexts)[Fn];
  if (!Memo)
    Memo = contextsOf(Fn, InRegion, /*Depth=*/4);
  const std::optional<std::vector<CallContext>> &Calls = *Memo;
  if (!Calls)
    return std::nullopt;
  RunCount Total;
  for (const CallContext &C : *Calls) {
    std::optional<RunCount> Per = perCall(Fn, Site, Loc, &C.Params);
    if (!Per)
      return std::nullopt;
    Total.N += C.Calls.N * Per->N;
    Total.Bound |= C.Calls.Bound || Per->Bound;
  }
  return Total;
}

} // namespace seam
