//===- CostModel.cpp - What each graph break and host sync costs ----------===//
#include "Cost/CostModel.h"

#include "Basic/SourcePoint.h"
#include "Cost/Fusion.h"
#include "Rules/Rule.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

using namespace clang;

namespace seam {

unsigned rankFromMicros(double Micros) {
  if (Micros <= 0)
    return 0;
  double R = 100.0 * std::log10(1.0 + Micros) / 6.0;
  return static_cast<unsigned>(std::lround(std::min(100.0, std::max(0.0, R))));
}

static std::string formatBytes(double B) {
  char Buf[32];
  if (B >= 1 << 30)
    std::snprintf(Buf, sizeof(Buf), "%.3g GiB", B / (1 << 30));
  else if (B >= 1 << 20)
    std::snprintf(Buf, sizeof(Buf), "%.3g MiB", B / (1 << 20));
  else if (B >= 1 << 10)
    std::snprintf(Buf, sizeof(Buf), "%.3g KiB", B / (1 << 10));
  else
    std::snprintf(Buf, sizeof(Buf), "%.0f B", B);
  return Buf;
}

static std::string plural(unsigned N, const char *One, const char *Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many);
}

namespace {

/// The region-level facts the break estimates share.
struct RegionShape {
  std::vector<OpEvent> Seq;
  std::vector<int> Unbroken; ///< group of each event, breaks ignored
  unsigned LaunchesBefore = 0;
  std::vector<unsigned> OpsPerPiece;
  unsigned Pieces = 1;
  bool PiecesPerIteration = false;
};

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

/// Effects of the breaks made by one call on a region.
struct BreakEffect {
  unsigned GroupsCut = 0;
  unsigned Intermediates = 0;
  std::optional<double> Bytes = 0.0;
  double Multiplicity = 0;
  bool PerIteration = false;
};

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

std::optional<double> tripOf(const LoopInfo *L, ASTContext &Ctx,
                             const TripHints *Trips,
                             const ParamValues *Params = nullptr) {
  return L->S ? constantTripCount(L->S, Ctx, Params, Trips) : std::nullopt;
}

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
  ProgramRuns(const RegionModel &Regions, ASTContext &Ctx,
              const TripHints *Trips)
      : Regions(Regions), Ctx(Ctx), Trips(Trips), Nodes(Regions.functions()),
        Callers(Nodes.size()), State(Nodes.size(), Unvisited),
        RegionState(Nodes.size(), Unvisited), Memo(Nodes.size()),
        RegionMemo(Nodes.size()) {
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
                  return O.Site == Calls[C].Site &&
                         O.Callee == Calls[C].Callee && !O.IsLambdaDefinition;
                }))
          continue;
        Callers[Calls[C].Callee].push_back({I, C});
      }
    }
  }

  /// Runs of \p Site per call of its function \p Node (whose parameters
  /// have \p Params, when known).
  std::optional<RunCount> perCall(unsigned Node, const Stmt *Site,
                                  SourceLocation Loc,
                                  const ParamValues *Params = nullptr) const {
    const FunctionNode &N = Nodes[Node];
    const CFGBlock *B = N.Flow && Site ? N.Flow->blockOf(Site) : nullptr;
    if (B && !N.Flow->reachable(B))
      return RunCount{0, false};
    RunCount C{1, false};
    std::vector<LoopVisit> Loops = Regions.loopsAt(Node, Site, Loc);
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
      Frequency F = frequencyOf(*N.Flow, Outer, nullptr, Ctx);
      C.Bound |= !F.Uncounted.empty();
      C.N *= F.PerIteration;
    }
    return C;
  }

  /// Calls of function \p Node in one run of the program; with \p InRegion,
  /// only those made inside a compiled region (a helper called from a
  /// region and from plain code breaks only in the first).
  std::optional<RunCount> of(unsigned Node, bool InRegion = false) {
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
      if (CS.IsLambdaDefinition && CS.IteratedBy.empty())
        continue; // defining a lambda does not run it
      // A caller nothing in the TU calls (compile()'s closure, invoked by
      // the std::function holding it) adds nothing when the callee has
      // callers that are counted (the holder's call resolves to it).
      if (Callers[Caller].empty() && !Nodes[Caller].FD->isMain() &&
          llvm::any_of(Callers[Node], [&](std::pair<unsigned, unsigned> O) {
            return !Nodes[O.first].Calls[O.second].IsLambdaDefinition &&
                   (!Callers[O.first].empty() || Nodes[O.first].FD->isMain());
          }))
        continue;
      std::optional<RunCount> Outer =
          CS.IteratedBy.empty() ? of(Caller, InRegion) : std::nullopt;
      std::optional<RunCount> Per =
          Outer ? perCall(Caller, CS.Site, CS.Loc) : std::nullopt;
      std::optional<RunCount> Via =
          Per ? RunCount{Outer->N * Per->N, Outer->Bound || Per->Bound}
              : std::optional<RunCount>();
      // A loop bounded by a parameter (`for (i = 0; i < n; ++i)`): count
      // it at each call of the caller, with that call's constant arguments.
      if (Outer && !Per)
        Via = throughCallers(Caller, CS, InRegion);
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

private:
  /// Runs of the call \p CS in \p Fn, summed over the calls of \p Fn, each
  /// with its constant arguments bound to \p Fn's parameters.
  std::optional<RunCount> throughCallers(unsigned Fn, const CallSite &CS,
                                         bool InRegion) {
    const FunctionDecl *FD = Nodes[Fn].FD;
    if (FD->param_empty() || Nodes[Fn].IsRegionRoot || FD->isMain())
      return std::nullopt;
    std::optional<RunCount> Total;
    for (auto [Caller, Call] : Callers[Fn]) {
      const CallSite &In = Nodes[Caller].Calls[Call];
      if (In.IsLambdaDefinition)
        continue;
      const auto *CE = dyn_cast_or_null<CallExpr>(In.Site);
      if (!CE || !In.IteratedBy.empty())
        return std::nullopt;
      // A member operator call passes the object first.
      unsigned Shift =
          isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) ? 1 : 0;
      ParamValues Params;
      for (unsigned I = 0; I < FD->getNumParams(); ++I) {
        if (I + Shift >= CE->getNumArgs())
          break;
        Expr::EvalResult R;
        const Expr *Arg = CE->getArg(I + Shift);
        if (!Arg->isValueDependent() && Arg->EvaluateAsInt(R, Ctx))
          if (std::optional<int64_t> V = R.Val.getInt().tryExtValue())
            Params[FD->getParamDecl(I)] = *V;
      }
      std::optional<RunCount> Outer = of(Caller, InRegion);
      std::optional<RunCount> Calls =
          Outer ? perCall(Caller, In.Site, In.Loc) : std::nullopt;
      std::optional<RunCount> Per =
          Calls ? perCall(Fn, CS.Site, CS.Loc, &Params) : std::nullopt;
      if (!Per)
        return std::nullopt;
      if (!Total)
        Total = RunCount{0, false};
      Total->N += Outer->N * Calls->N * Per->N;
      Total->Bound |= Outer->Bound || Calls->Bound || Per->Bound;
    }
    return Total;
  }

  enum Visit : uint8_t { Unvisited, InProgress, Done };
  const RegionModel &Regions;
  ASTContext &Ctx;
  const TripHints *Trips;
  const std::vector<FunctionNode> &Nodes;
  std::vector<std::vector<std::pair<unsigned, unsigned>>> Callers;
  std::vector<Visit> State, RegionState;
  std::vector<std::optional<RunCount>> Memo, RegionMemo;
};

} // namespace

void estimateCosts(ASTContext &Ctx, const ApiModel &Api,
                   const RegionModel &Regions,
                   const std::vector<TriggerSite> &Sites,
                   std::vector<Finding> &Findings, const CostOptions &Opts,
                   std::vector<SummaryRow> &Rows) {
  const DeviceProfile &P = Opts.Profile;
  llvm::DenseSet<const CallExpr *> BreakCalls;
  for (const Finding &F : Findings)
    if (hazardOf(F.RuleId) == Hazard::GraphBreak && F.SiteIndex >= 0)
      BreakCalls.insert(Sites[F.SiteIndex].Call);
  OpModel Ops(Ctx, Api, BreakCalls, Opts.Hints, &Opts.Trips);
  std::map<const FunctionDecl *, RegionShape> Shapes;
  auto RegionOf = [&](const FunctionDecl *Root) -> const RegionShape & {
    auto It = Shapes.find(Root);
    if (It == Shapes.end())
      It = Shapes.emplace(Root, shapeOf(Ops.sequence(Root))).first;
    return It->second;
  };
  const double BytesPerMicro = P.MemoryBandwidthGBps.Value * 1e3;
  // host_resume_us is measured on a four-op region (seam calibrate).
  const double ResumeOps = 4;
  // The ops the host records before the device gets work again after the
  // sync at S: for a break, the region's next piece; outside a region, the
  // first piece of the next compiled call in the same function (the first
  // in source order after S, else the first: the loop comes round to it).
  struct Launch {
    SourceLocation Loc;
    const FunctionDecl *Region; ///< null: an eager op
    const CallExpr *Call;
  };
  llvm::DenseMap<const Stmt *, std::vector<Launch>> LaunchesIn;
  auto nextLaunchOps = [&](const TriggerSite &S,
                           const SiteContext &C) -> std::optional<unsigned> {
    if (C.RegionRoot) {
      const RegionShape &R = RegionOf(C.RegionRoot);
      unsigned Piece = 0;
      for (const OpEvent &Ev : R.Seq) {
        if (!Ev.IsBreak)
          continue;
        ++Piece;
        if (Ev.Call == S.Call)
          return Piece < R.OpsPerPiece.size()
                     ? std::optional<unsigned>(R.OpsPerPiece[Piece])
                     : std::nullopt;
      }
      return std::nullopt;
    }
    // Outside a region: the first tensor op or compiled call after S in
    // source order, inside S's innermost loop (coming round to the loop's
    // start) or its function.
    const SourceManager &SM = Ctx.getSourceManager();
    const FunctionNode &Fn = Regions.functions()[S.Node];
    if (!Fn.FD->hasBody())
      return std::nullopt;
    std::vector<LoopVisit> Loops = Regions.loopsAt(S.Node, S.Call, S.Match.Loc);
    const Stmt *Scope = Fn.FD->getBody();
    bool Wraps = false;
    for (const LoopVisit &V : Loops)
      if (V.Loop->S && !V.Freq.OncePerLoop) {
        Scope = V.Loop->S;
        Wraps = true;
        break;
      }
    // The launches of a scope, in post-order, once per scope: every site of
    // a scope scans the same list (a function with thousands of sites would
    // walk its body thousands of times).
    auto [Cached, New] = LaunchesIn.try_emplace(Scope);
    std::vector<Launch> &Launches = Cached->second;
    if (New) {
      llvm::DenseMap<unsigned, const FunctionDecl *> RegionCalls;
      for (const CallSite &CS : Fn.Calls)
        if (!CS.IsLambdaDefinition &&
            Regions.functions()[CS.Callee].IsRegionRoot)
          RegionCalls[SM.getExpansionLoc(CS.Loc).getRawEncoding()] =
              Regions.functions()[CS.Callee].FD;
      std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
        if (!St || isa<LambdaExpr>(St))
          return;
        for (const Stmt *Child : St->children())
          Walk(Child);
        // Post-order: an op's operands launch before it.
        const auto *CE = dyn_cast<CallExpr>(St);
        if (!CE)
          return;
        SourceLocation L = SM.getExpansionLoc(CE->getExprLoc());
        if (auto It = RegionCalls.find(L.getRawEncoding());
            It != RegionCalls.end())
          Launches.push_back({L, It->second, CE});
        else if (Api.isTensorType(CE->getType()) &&
                 !Api.isCompileFunction(CE->getDirectCallee()))
          Launches.push_back({L, nullptr, CE});
      };
      Walk(Scope);
    }
    SourceLocation Here =
        SM.getExpansionLoc(S.Call ? S.Call->getEndLoc() : S.Match.Loc);
    const Launch *Next = nullptr;
    for (const Launch &L : Launches)
      if (L.Call != S.Call && SM.isBeforeInTranslationUnit(Here, L.Loc)) {
        Next = &L;
        break;
      }
    if (!Next && Wraps)
      for (const Launch &L : Launches)
        if (L.Call != S.Call) {
          Next = &L;
          break;
        }
    if (!Next)
      return std::nullopt;
    if (!Next->Region)
      return 1u; // an eager op: one op recorded and launched
    const RegionShape &R = RegionOf(Next->Region);
    return R.OpsPerPiece.empty() ? std::nullopt
                                 : std::optional<unsigned>(R.OpsPerPiece[0]);
  };
  const std::string Tag = "(profile " + P.Name + ")";

  ProgramRuns Runs(Regions, Ctx, &Opts.Trips);
  std::map<const FunctionDecl *, SummaryRow> RegionRows;
  std::map<const LoopInfo *, SummaryRow> LoopRows;
  auto RegionRow = [&](const SiteContext &C) -> SummaryRow & {
    SummaryRow &Row = RegionRows[C.RegionRoot];
    if (Row.Kind.empty()) {
      const RegionShape &R = RegionOf(C.RegionRoot);
      Row.Kind = "region";
      Row.Name = *C.Region;
      Row.Where = makePoint(Ctx.getSourceManager(), Ctx.getLangOpts(),
                            C.RegionRoot->getLocation());
      Row.Pieces = R.Pieces;
      Row.NonEmptyPieces = R.Pieces;
      for (unsigned Ops : R.OpsPerPiece)
        if (Ops == 0 && Row.NonEmptyPieces > 0)
          --Row.NonEmptyPieces;
      Row.LaunchesBefore = R.LaunchesBefore;
      Row.LaunchesAfter = R.LaunchesBefore;
      if (auto N = Regions.nodeFor(C.RegionRoot)) {
        const FunctionNode &Root = Regions.functions()[*N];
        if (Root.CompiledAt.isValid())
          Row.CompiledAt = makePoint(Ctx.getSourceManager(), Ctx.getLangOpts(),
                                     Root.CompiledAt);
        if (std::optional<RunCount> Calls = Runs.of(*N)) {
          Row.RunCalls = Calls->N;
          Row.RunCallsBound = Calls->Bound;
        }
      }
    }
    return Row;
  };

  for (Finding &F : Findings) {
    if (F.SiteIndex < 0)
      continue;
    const TriggerSite &S = Sites[F.SiteIndex];
    SiteContext C = Regions.contextAt(S.Node, S.Call, S.Match.Loc);
    CostEstimate E;
    E.Profile = P.Name;
    if (S.Call) {
      const SourceManager &SM = Ctx.getSourceManager();
      E.CallFirstLine = SM.getExpansionLineNumber(S.Call->getBeginLoc());
      E.CallLastLine = SM.getExpansionLineNumber(S.Call->getEndLoc());
    }
    // A break happens only on the calls made inside a region.
    if (std::optional<RunCount> Calls =
            Runs.of(S.Node, hazardOf(F.RuleId) == Hazard::GraphBreak))
      if (std::optional<RunCount> Per =
              Runs.perCall(S.Node, S.Call, S.Match.Loc)) {
        E.RunExecutions = Calls->N * Per->N;
        E.RunExecutionsBound = Calls->Bound || Per->Bound;
      }
    std::vector<LoopVisit> Loops = C.LocalLoops;
    Loops.insert(Loops.end(), C.SeedLoops.begin(), C.SeedLoops.end());
    bool Repeats = !Loops.empty(); // runs many times per program run

    if (hazardOf(F.RuleId) == Hazard::GraphBreak && C.RegionRoot) {
      const RegionShape &R = RegionOf(C.RegionRoot);
      BreakEffect B = effectOf(R, S.Call);
      E.RegionPieces = R.Pieces;
      E.OpsPerPiece = R.OpsPerPiece;
      E.FusionGroupsCut = B.GroupsCut;
      E.ExtraLaunches = B.GroupsCut;
      E.IntermediatesMaterialized = B.Intermediates;
      if (B.Intermediates == 0)
        E.BytesMaterialized = 0.0;
      else
        E.BytesMaterialized = B.Bytes;
      double Mult = std::max(B.Multiplicity, 1.0);
      E.IdleMicrosPerExecution =
          P.RegionEntryUs.Value * Mult +
          P.LaunchLatencyUs.Value * E.ExtraLaunches +
          (E.BytesMaterialized ? *E.BytesMaterialized / BytesPerMicro : 0);
      // Loops inside the region already multiply the pieces; loops around
      // the region's callers are not known here.
      E.TripCount = std::nullopt;
      std::string Ops;
      for (size_t I = 0; I < R.OpsPerPiece.size(); ++I)
        Ops += (I ? " | " : "") + std::to_string(R.OpsPerPiece[I]);
      E.Summary = "region splits into " + plural(R.Pieces, "piece", "pieces") +
                  ", ~" + formatMicros(E.IdleMicrosPerExecution) +
                  " added per region call " + Tag;
      E.Detail = "the pieces have " + Ops + " ops" +
                 (R.PiecesPerIteration
                      ? ", one more piece per iteration of a loop without a "
                        "constant bound"
                      : "") +
                 "; " +
                 plural(E.FusionGroupsCut, "fusion group", "fusion groups") +
                 " cut, +" + plural(E.ExtraLaunches, "launch", "launches");
      if (E.IntermediatesMaterialized)
        E.Detail += ", " +
                    (E.BytesMaterialized ? formatBytes(*E.BytesMaterialized)
                                         : std::string("unknown size")) +
                    " materialized";

      SummaryRow &Row = RegionRow(C);
      Row.LaunchesAfter += E.ExtraLaunches;
      Row.MicrosPerExecution += E.IdleMicrosPerExecution;
    } else {
      // A host sync or a capture sync: the device idles for a round trip,
      // the host's resume (recording and launching the next work) and the
      // next launch.
      bool Break = C.Region && P.HasBreakResume;
      E.IdleMicrosPerExecution =
          P.SyncRoundtripUs.Value +
          (Break ? P.BreakResumeUs.Value : P.HostResumeUs.Value) +
          P.LaunchLatencyUs.Value;
      if (std::optional<unsigned> Next = nextLaunchOps(S, C))
        E.IdleMicrosPerExecution =
            std::max(P.SyncRoundtripUs.Value + P.LaunchLatencyUs.Value,
                     E.IdleMicrosPerExecution +
                         P.HostOpUs.Value * (double(*Next) - ResumeOps));
      if (C.Region && !Break)
        E.IdleMicrosPerExecution += P.RegionEntryUs.Value;
      // A data-dependent selection then runs on the host, in proportion to
      // its input, before the device gets more work.
      if (F.Trigger == "dynamic-shape" && P.HostSelectUsPerMiB.Value > 0 &&
          S.Call) {
        const Expr *In = nullptr;
        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S.Call))
          In = MC->getImplicitObjectArgument();
        else if (S.Call->getNumArgs() > 0)
          In = S.Call->getArg(0);
        if (std::optional<double> Bytes = In ? Ops.bytesOf(In) : std::nullopt)
          E.IdleMicrosPerExecution +=
              *Bytes / (1 << 20) * P.HostSelectUsPerMiB.Value;
      }
      // Lambdas run by std::for_each and the like repeat without a loop of
      // their own: per iteration, trip count unknown.
      bool Iterated = !C.HotPath.empty() &&
                      C.HotPath.front().What == PathStep::Loop && Loops.empty();
      Executions X = executionsOf(Loops, C.PerCall, Ctx, &Opts.Trips);
      Repeats = X.Repeats || Iterated || !Loops.empty();
      E.ExecutionsPerIteration =
          X.Innermost.OncePerLoop ? 0 : X.Innermost.PerIteration;
      E.Frequency = X.Innermost.phrase(Repeats ? "iteration" : "call");
      E.UncountedConditions = X.Innermost.Uncounted.size();
      E.TripCount = X.Iterations;
      E.Executions = X.Total;
      if (X.Total)
        E.IdleMicrosTotal = E.IdleMicrosPerExecution * *X.Total;
      if (!X.Counted)
        E.Summary = "~" + formatMicros(E.IdleMicrosPerExecution) +
                    " device idle per " + (Repeats ? "iteration" : "call");
      else
        E.Summary = "~" + formatMicros(E.IdleMicrosPerExecution) +
                    " device idle per execution, " +
                    (X.Innermost.OncePerLoop ? "once per loop" : E.Frequency);
      E.Summary += " " + Tag;
      if (E.IdleMicrosTotal && E.TripCount)
        E.Detail = "~" + formatMicros(*E.IdleMicrosTotal) +
                   " device idle per " + formatCount(*E.TripCount) +
                   " iterations of the loop";
      if (C.Region) {
        SummaryRow &Row = RegionRow(C);
        ++Row.Syncs;
        Row.MicrosPerExecution += E.IdleMicrosPerExecution;
      }
      size_t OuterIdx = C.LocalLoops.size();
      for (size_t I = 0; I < C.LocalLoops.size(); ++I)
        if (!C.LocalLoops[I].Freq.OncePerLoop)
          OuterIdx = I; // the outermost local loop that repeats it
      if (OuterIdx < C.LocalLoops.size()) {
        const LoopVisit &Outer = C.LocalLoops[OuterIdx];
        SummaryRow &Row = LoopRows[Outer.Loop];
        std::optional<double> OuterTrips = tripOf(Outer.Loop, Ctx, &Opts.Trips);
        if (Row.Kind.empty()) {
          Row.Kind = "loop";
          Row.Name = F.Function;
          Row.Where = makePoint(Ctx.getSourceManager(), Ctx.getLangOpts(),
                                Outer.Loop->Keyword);
          Row.TripCount = OuterTrips;
        }
        ++Row.Syncs;
        // Per iteration of the outer loop: what the inner loops multiply.
        double PerOuter = E.IdleMicrosPerExecution;
        for (size_t I = 0; I < OuterIdx; ++I) {
          const LoopVisit &V = C.LocalLoops[I];
          if (!V.Freq.OncePerLoop)
            PerOuter *= tripOf(V.Loop, Ctx, &Opts.Trips).value_or(1) *
                        V.Freq.PerIteration;
        }
        PerOuter *= Outer.Freq.PerIteration;
        Row.MicrosPerExecution += PerOuter;
      }
    }
    double RankBasis =
        E.IdleMicrosTotal
            ? *E.IdleMicrosTotal
            : E.IdleMicrosPerExecution *
                  (Repeats ? 100 * std::max(E.ExecutionsPerIteration, 0.01)
                           : 1);
    E.Rank = rankFromMicros(RankBasis);
    if (!E.Detail.empty())
      F.Details.push_back(E.Detail);
    F.Cost = std::move(E);
  }

  if (Opts.AllRegionRows)
    for (const FunctionNode &N : Regions.functions())
      if (N.IsRegionRoot && N.FD->hasBody()) {
        SiteContext C;
        C.Region = N.Name;
        C.RegionRoot = N.FD;
        RegionRow(C);
      }
  for (auto &[Key, Row] : RegionRows) {
    Row.Profile = P.Name;
    // A region called a known number of times per program run (100 calls
    // from a loop with a constant bound) costs that many times its cost per
    // call, and ranks by the total as a loop does.
    if (!Row.TripCount && Row.RunCalls && *Row.RunCalls > 0 &&
        !Row.RunCallsBound)
      Row.TripCount = *Row.RunCalls;
    if (Row.TripCount)
      Row.MicrosTotal = Row.MicrosPerExecution * *Row.TripCount;
    Row.Rank = rankFromMicros(Row.MicrosTotal ? *Row.MicrosTotal
                                              : Row.MicrosPerExecution);
    Rows.push_back(Row);
  }
  for (auto &[Key, Row] : LoopRows) {
    Row.Profile = P.Name;
    if (Row.TripCount)
      Row.MicrosTotal = Row.MicrosPerExecution * *Row.TripCount;
    Row.Rank = rankFromMicros(Row.MicrosTotal ? *Row.MicrosTotal
                                              : Row.MicrosPerExecution * 100);
    Rows.push_back(Row);
  }
}

} // namespace seam
