//===- CostModel.cpp - What each graph break and host sync costs ----------===//
//
// Finds the counts each finding's estimate needs in the code (the region's
// pieces, the next launch, the loops and guards around the line) and hands
// them to the formulas (Formulas.h); the --summary rows add up per region
// and per hot loop. The formula is chosen by the rule's Hazard trait.
//
//===----------------------------------------------------------------------===//
#include "Cost/CostModel.h"

#include "Basic/SourcePoint.h"
#include "Cost/ColdSchedule.h"
#include "Cost/Formulas.h"
#include "Cost/HostWork.h"
#include "Cost/NextLaunch.h"
#include "Cost/RegionShape.h"
#include "Cost/RunCounts.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

using namespace clang;

namespace seam {

namespace {

std::string formatBytes(double B) {
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

std::string plural(unsigned N, const char *One, const char *Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many);
}

/// The calls that break a region: the op model cuts sequences there.
llvm::DenseSet<const CallExpr *> breakCalls(llvm::ArrayRef<SiteFinding> Found) {
  llvm::DenseSet<const CallExpr *> Out;
  for (const SiteFinding &SF : Found)
    if (hazardOf(SF.F.RuleId) == Hazard::GraphBreak)
      if (const auto *CE = dyn_cast<CallExpr>(SF.Site->Call))
        Out.insert(CE); // a construction is not an op of the region
  return Out;
}

/// The estimates of one translation unit, and the summary rows they add up
/// to.
class TUCosts {
public:
  TUCosts(ASTContext &Ctx, const ApiModel &Api, const RegionModel &Regions,
          llvm::ArrayRef<SiteFinding> Found, const CostOptions &Opts)
      : Ctx(Ctx), Api(Api), Regions(Regions), Opts(Opts), P(Opts.Profile),
        Ops(Ctx, Api, breakCalls(Found), Opts.Hints, &Opts.Trips),
        Runs(Regions, Ctx, &Opts.Trips),
        Next(Ctx, Api, Regions,
             [this](const FunctionDecl *Root) -> const RegionShape & {
               return regionOf(Root);
             }),
        Host(Ctx, Api, Regions, &Opts.Trips), Tag("(profile " + P.Name + ")") {
    Ops.setArgumentsOf(
        [this](const ParmVarDecl *P) { return Runs.argumentsFor(P); });
    // Only a profile with the cold parameters uses it (the GPU profiles
    // have none): the pass reads the guards around every syncing call.
    if (P.HasCold)
      countSyncsPerIteration(Found);
  }

  void estimate(SiteFinding &SF);
  void rows(std::vector<SummaryRow> &Rows);

private:
  const RegionShape &regionOf(const FunctionDecl *Root) {
    auto It = Shapes.find(Root);
    if (It == Shapes.end())
      It = Shapes.emplace(Root, shapeOf(Ops.sequence(Root))).first;
    return It->second;
  }
  void runsInProgram(const SiteFinding &SF, CostEstimate &E);
  void estimateBreak(const SiteFinding &SF, CostEstimate &E);
  /// Returns whether the line repeats (runs many times per program run).
  bool estimateSync(SiteFinding &SF, CostEstimate &E);
  void addHostWork(SiteFinding &SF, SyncResume &Resume);
  void addCold(SiteFinding &SF, SyncResume &Resume, const Executions &X);
  std::optional<double> iterationMicros(const LoopInfo &L,
                                        bool TrafficOnly = false);
  void addAfterCompile(SiteFinding &SF, SyncResume &Resume);
  void countSyncsPerIteration(llvm::ArrayRef<SiteFinding> Found);
  std::optional<double> selectedElements(const SiteFinding &SF);
  SummaryRow &regionRow(const SiteContext &C);
  void addToLoopRow(const SiteFinding &SF, const CostEstimate &E);

  ASTContext &Ctx;
  const ApiModel &Api;
  const RegionModel &Regions;
  const CostOptions &Opts;
  const DeviceProfile &P;
  OpModel Ops;
  ProgramRuns Runs;
  std::map<const FunctionDecl *, RegionShape> Shapes;
  NextLaunch Next;
  HostWorkFinder Host;
  const std::string Tag;
  std::map<const FunctionDecl *, SummaryRow> RegionRows;
  std::map<const LoopInfo *, SummaryRow> LoopRows;
  std::map<const LoopInfo *, double> SyncsPerIteration;
  /// The syncing lines and calls of each loop (keyed by the TriggerSite or
  /// CallSite), for ColdSchedule.
  struct LoopSync {
    const void *Key;
    SourceLocation At;
    unsigned EveryNth;
    int64_t FirstRun;
    bool OncePerLoop;
    /// The host's work after it flushes a stream (a call of a function
    /// that syncs: not known, taken as not).
    bool Flushes;
  };
  std::map<const LoopInfo *, std::vector<LoopSync>> LoopSyncs;
  std::vector<int64_t> iterationsSinceLastSync(const LoopInfo *L,
                                               const void *Key,
                                               bool SinceFlush = false);
  HostWork hostWorkAfter(const TriggerSite &Site);
};

SummaryRow &TUCosts::regionRow(const SiteContext &C) {
  SummaryRow &Row = RegionRows[C.RegionRoot];
  if (!Row.Kind.empty())
    return Row;
  const RegionShape &R = regionOf(C.RegionRoot);
  Row.Kind = "region";
  Row.Name = *C.Region;
  Row.Where = makePoint(Ctx.getSourceManager(), Ctx.getLangOpts(),
                        C.RegionRoot->getLocation());
  Row.Pieces = R.Pieces;
  Row.NonEmptyPieces = R.Pieces;
  for (unsigned N : R.OpsPerPiece)
    if (N == 0 && Row.NonEmptyPieces > 0)
      --Row.NonEmptyPieces;
  Row.LaunchesBefore = R.LaunchesBefore;
  Row.LaunchesAfter = R.LaunchesBefore;
  if (auto N = Regions.nodeFor(C.RegionRoot)) {
    const FunctionNode &Root = Regions.functions()[*N];
    if (Root.CompiledAt.isValid())
      Row.CompiledAt =
          makePoint(Ctx.getSourceManager(), Ctx.getLangOpts(), Root.CompiledAt);
    if (std::optional<RunCount> Calls = Runs.of(*N)) {
      Row.RunCalls = Calls->N;
      Row.RunCallsBound = Calls->Bound;
    }
  }
  return Row;
}

void TUCosts::runsInProgram(const SiteFinding &SF, CostEstimate &E) {
  const TriggerSite &S = *SF.Site;
  if (S.Call) {
    const SourceManager &SM = Ctx.getSourceManager();
    E.CallFirstLine = SM.getExpansionLineNumber(S.Call->getBeginLoc());
    E.CallLastLine = SM.getExpansionLineNumber(S.Call->getEndLoc());
  }
  // A break happens only on the calls made inside a region.
  if (std::optional<RunCount> R =
          Runs.runsOf(S.Node, S.Call, S.Match.Loc,
                      hazardOf(SF.F.RuleId) == Hazard::GraphBreak)) {
    E.RunExecutions = R->N;
    E.RunExecutionsBound = R->Bound;
  }
}

void TUCosts::estimateBreak(const SiteFinding &SF, CostEstimate &E) {
  const SiteContext &C = *SF.Context;
  const RegionShape &R = regionOf(C.RegionRoot);
  BreakEffect B = effectOf(R, dyn_cast<CallExpr>(SF.Site->Call));
  E.RegionPieces = R.Pieces;
  E.OpsPerPiece = R.OpsPerPiece;
  E.FusionGroupsCut = B.GroupsCut;
  E.ExtraLaunches = B.GroupsCut;
  E.IntermediatesMaterialized = B.Intermediates;
  if (B.Intermediates == 0)
    E.BytesMaterialized = 0.0;
  else
    E.BytesMaterialized = B.Bytes;
  E.IdleMicrosPerExecution = breakIdleMicros(
      P, std::max(B.Multiplicity, 1.0), E.ExtraLaunches, E.BytesMaterialized);
  // Loops inside the region already multiply the pieces; loops around the
  // region's callers are not known here.
  E.TripCount = std::nullopt;
  std::string PieceOps;
  for (size_t I = 0; I < R.OpsPerPiece.size(); ++I)
    PieceOps += (I ? " | " : "") + std::to_string(R.OpsPerPiece[I]);
  E.Summary = "region splits into " + plural(R.Pieces, "piece", "pieces") +
              ", ~" + formatMicros(E.IdleMicrosPerExecution) +
              " added per region call " + Tag;
  E.Detail = "the pieces have " + PieceOps + " ops" +
             (R.PiecesPerIteration
                  ? ", one more piece per iteration of a loop without a "
                    "constant bound"
                  : "") +
             "; " + plural(E.FusionGroupsCut, "fusion group", "fusion groups") +
             " cut, +" + plural(E.ExtraLaunches, "launch", "launches");
  if (E.IntermediatesMaterialized)
    E.Detail += ", " +
                (E.BytesMaterialized ? formatBytes(*E.BytesMaterialized)
                                     : std::string("unknown size")) +
                " materialized";
  SummaryRow &Row = regionRow(C);
  Row.LaunchesAfter += E.ExtraLaunches;
  Row.MicrosPerExecution += E.IdleMicrosPerExecution;
}

/// The input of a data-dependent selection, in bytes, when its size is
/// known.
std::optional<double> TUCosts::selectedElements(const SiteFinding &SF) {
  const auto *Call = dyn_cast<CallExpr>(SF.Site->Call);
  if (SF.F.Trigger != "dynamic-shape" || !Call)
    return std::nullopt;
  const Expr *In = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    In = MC->getImplicitObjectArgument();
  else if (Call->getNumArgs() > 0)
    In = Call->getArg(0);
  std::optional<TensorSize> S = In ? Ops.sizeOf(In) : std::nullopt;
  return S ? std::optional<double>(S->Elements) : std::nullopt;
}

/// The host's work after \p Site: its own span, then its callers' after
/// the call returns, when its function launches nothing more.
HostWork TUCosts::hostWorkAfter(const TriggerSite &Site) {
  HostWork W;
  for (const auto &[At, Span] : Next.spansAfter(Site))
    W += Host.after(At, Span);
  return W;
}

/// The host's own work between the sync and the next launch
/// (HostWork.h), into the estimate, and a note saying what it is and what
/// is left out.
void TUCosts::addHostWork(SiteFinding &SF, SyncResume &Resume) {
  // The sync's own span, then its callers' after the call returns, when
  // its function launches nothing more.
  HostWork W = hostWorkAfter(*SF.Site);
  Resume.Prints = W.Prints;
  Resume.TensorPrints = W.TensorPrints;
  Resume.LoopIterations = W.LoopIterations;
  Resume.Flushes = W.Flushes;
  std::vector<std::string> What;
  auto Count = [&](double N, const char *One, const char *Many) {
    if (N <= 0)
      return;
    char Buf[32];
    std::snprintf(Buf, sizeof(Buf), N == double(int64_t(N)) ? "%.0f" : "%.2g",
                  N);
    What.push_back(std::string(Buf) + " " +
                   (std::string(Buf) == "1" ? One : Many));
  };
  Count(W.Prints, "print statement", "print statements");
  Count(W.TensorPrints, "tensor printed", "tensors printed");
  Count(W.LoopIterations, "host loop iteration", "host loop iterations");
  Count(W.Flushes, Resume.Cold ? "cold flush" : "flush",
        Resume.Cold ? "cold flushes" : "flushes");
  if (W.Flushes > 0 && Resume.FlushPastSyncs && Resume.FlushQueuedMicros &&
      *Resume.FlushQueuedMicros > 0)
    What.back() += " behind " + formatMicros(*Resume.FlushQueuedMicros) +
                   " of memory traffic queued before it: the syncs just "
                   "before it in its iteration do not flush";
  std::string List;
  for (size_t I = 0; I < What.size(); ++I)
    List += (I ? ", " : "") + What[I];
  if (!What.empty()) {
    double Us = hostWorkMicros(P, Resume);
    SF.F.Details.push_back(
        P.HasHostWork
            ? "includes ~" + formatMicros(Us) +
                  " of host work before the next launch (" + List + ") " + Tag
            : "host work before the next launch (" + List +
                  ") is not costed: profile " + P.Name +
                  " has no host_print_us, host_print_tensor_us, "
                  "host_element_us or host_flush_us");
  }
  if (!W.Unknown.empty()) {
    std::string Left;
    for (size_t I = 0; I < W.Unknown.size(); ++I)
      Left += (I ? "; " : "") + W.Unknown[I];
    SF.F.Details.push_back("not in the estimate: host work before the next "
                           "launch that Seam cannot size: " +
                           Left);
  }
}

/// A sync that runs once after the call that compiled the work it waits
/// for: the host resumes as the compiler left its caches and heap.
void TUCosts::addAfterCompile(SiteFinding &SF, SyncResume &Resume) {
  const CallExpr *Call = Next.compilingCallBefore(*SF.Site);
  if (!Call)
    return;
  Resume.AfterCompile = true;
  std::string What =
      "at line " + std::to_string(Ctx.getSourceManager().getExpansionLineNumber(
                       Call->getExprLoc()));
  const Expr *Callee = isa<CXXOperatorCallExpr>(Call) && Call->getNumArgs()
                           ? Call->getArg(0)
                           : Call->getCallee();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee->IgnoreParenImpCasts()))
    What = "'" + DRE->getNameInfo().getAsString() + "' " + What;
  else
    What = "the call " + What;
  const char *Param = Resume.NextEager && P.HasAfterCompileEager
                          ? "host_after_compile_eager_us"
                          : "host_after_compile_us";
  SF.F.Details.push_back(
      P.HasAfterCompile || (Resume.NextEager && P.HasAfterCompileEager)
          ? "includes ~" + formatMicros(afterCompileMicros(P, Resume)) + " (" +
                Param +
                ") because the work it waits for is the first call of " + What +
                ", which compiles it: the host resumes from the "
                "compile " +
                Tag
          : "the work it waits for is the first call of " + What +
                ", which compiles it; not costed: profile " + P.Name +
                " has no host_after_compile_us");
}

/// How often the syncs inside each loop run, per iteration: the most often
/// any of them does, the sites in it and the calls in it of functions that
/// sync (directly or through calls of their own; a compiled function with
/// a break in it does). A site in an inner loop counts as often as that
/// loop is entered.
void TUCosts::countSyncsPerIteration(llvm::ArrayRef<SiteFinding> Found) {
  const std::vector<FunctionNode> &Fns = Regions.functions();
  std::vector<bool> Syncs(Fns.size());
  const SourceManager &SM = Ctx.getSourceManager();
  auto Note = [&](const std::vector<LoopVisit> &Loops, const void *Key,
                  SourceLocation At, bool Flushes) {
    for (const LoopVisit &V : Loops) {
      // A sync once per loop (`if (step == 0)`) keeps no queue short.
      double &Most = SyncsPerIteration[V.Loop];
      if (!V.Freq.OncePerLoop)
        Most = std::max(Most, V.Freq.PerIteration);
      std::vector<LoopSync> &In = LoopSyncs[V.Loop];
      if (llvm::none_of(In, [&](const LoopSync &S) { return S.Key == Key; }))
        In.push_back({Key, SM.getExpansionLoc(At), V.Freq.EveryNth,
                      V.Freq.FirstRun, V.Freq.OncePerLoop, Flushes});
    }
  };
  for (const SiteFinding &SF : Found) {
    if (!SF.Context || !SF.Site || hazardOf(SF.F.RuleId) == Hazard::None)
      continue;
    if (SF.Site->Node < Syncs.size())
      Syncs[SF.Site->Node] = true;
    Note(SF.Context->LocalLoops, SF.Site,
         SF.Site->Call ? SF.Site->Call->getBeginLoc() : SourceLocation(),
         hostWorkAfter(*SF.Site).Flushes > 0);
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned N = 0; N < Fns.size(); ++N)
      for (const CallSite &CS : Fns[N].Calls)
        if (!Syncs[N] && CS.Callee < Fns.size() && Syncs[CS.Callee] &&
            !CS.IsLambdaDefinition)
          Syncs[N] = Changed = true;
  }
  for (unsigned N = 0; N < Fns.size(); ++N)
    for (const CallSite &CS : Fns[N].Calls)
      if (CS.Callee < Fns.size() && Syncs[CS.Callee] && !CS.IsLambdaDefinition)
        Note(Regions.loopsAt(N, CS.Site, CS.Loc), &CS, CS.Loc, false);
}

/// ColdSchedule's iterationsSinceLastSync for the sync \p Key of \p L, its
/// syncs ordered as their lines; with \p SinceFlush, for its flush: past
/// the syncs earlier in its iteration whose host work does not flush.
std::vector<int64_t> TUCosts::iterationsSinceLastSync(const LoopInfo *L,
                                                      const void *Key,
                                                      bool SinceFlush) {
  auto It = LoopSyncs.find(L);
  if (It == LoopSyncs.end())
    return {};
  std::vector<LoopSync> In = It->second;
  const SourceManager &SM = Ctx.getSourceManager();
  std::stable_sort(In.begin(), In.end(),
                   [&](const LoopSync &A, const LoopSync &B) {
                     return A.At.isValid() && B.At.isValid() &&
                            SM.isBeforeInTranslationUnit(A.At, B.At);
                   });
  std::vector<ScheduledSync> Syncs;
  size_t Own = In.size();
  for (const LoopSync &S : In) {
    // A sync once per loop (`if (step == 0)`) moves one run's queue at
    // most: the cycle is laid out without it.
    if (S.OncePerLoop && S.Key != Key)
      continue;
    if (S.Key == Key)
      Own = Syncs.size();
    Syncs.push_back({S.EveryNth, S.FirstRun, unsigned(Syncs.size()),
                     !SinceFlush || S.Flushes});
  }
  return seam::iterationsSinceLastSync(Syncs, Own);
}

/// The device time one iteration of \p L queues, by queueMicros: the ops
/// in its body (helpers inlined) and those of the compiled functions it
/// calls. Nullopt when it has none, or one's size or count is unknown.
/// With \p TrafficOnly, each op by its memory traffic alone, a
/// transcendental op's compute left out.
std::optional<double> TUCosts::iterationMicros(const LoopInfo &L,
                                               bool TrafficOnly) {
  const Stmt *Body = L.S ? loopBody(L.S) : nullptr;
  if (!Body)
    return std::nullopt;
  std::vector<OpEvent> Events = Ops.opsIn(Body);
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = SM.getExpansionLoc(Body->getBeginLoc()),
                 E = SM.getExpansionLoc(Body->getEndLoc());
  const auto &Fns = Regions.functions();
  for (const FunctionNode &Fn : Fns)
    for (const CallSite &CS : Fn.Calls) {
      if (CS.IsLambdaDefinition || CS.Callee >= Fns.size() ||
          !Fns[CS.Callee].IsRegionRoot)
        continue;
      SourceLocation At = SM.getExpansionLoc(CS.Loc);
      if (SM.isBeforeInTranslationUnit(At, B) ||
          SM.isBeforeInTranslationUnit(E, At))
        continue;
      // A direct call of the root is inlined by opsIn already.
      const auto *Call = dyn_cast_or_null<CallExpr>(CS.Site);
      const FunctionDecl *Root = Fns[CS.Callee].FD;
      if (Call && Call->getDirectCallee() &&
          Call->getDirectCallee()->getCanonicalDecl() ==
              Root->getCanonicalDecl())
        continue;
      const std::vector<OpEvent> &Seq = Ops.sequence(Root);
      Events.insert(Events.end(), Seq.begin(), Seq.end());
    }
  double Us = 0;
  unsigned Launches = 0;
  for (const OpEvent &Ev : Events) {
    if (Ev.IsBreak)
      continue;
    if (!Ev.QueueBytes || Ev.PerIteration)
      return std::nullopt;
    Us += queueMicros(P, *Ev.QueueBytes,
                      TrafficOnly ? 0 : Ev.TranscendentalElements) *
          Ev.Multiplicity;
    ++Launches;
  }
  if (!Launches)
    return std::nullopt;
  return Us;
}

/// A sync outside a region that runs on one iteration in ten or fewer of
/// its loop (`if (step % 50 == 0)`), as do all the loop's syncs: it waits
/// behind the device work of the iterations since, and the host resumes
/// with the caches that work left (on seam::rt, whose device runs on the
/// host's CPU).
void TUCosts::addCold(SiteFinding &SF, SyncResume &Resume,
                      const Executions &X) {
  const SiteContext &C = *SF.Context;
  if (!P.HasCold || C.Region || !X.Counted || X.Innermost.OncePerLoop ||
      X.Innermost.PerIteration > 0.1)
    return;
  // Another sync in the same loop that runs more often keeps the queue
  // short: `if (i % 10 == 0) loss.item()` beside a break in every step.
  const LoopInfo *Innermost = !C.LocalLoops.empty()  ? C.LocalLoops.front().Loop
                              : !C.SeedLoops.empty() ? C.SeedLoops.front().Loop
                                                     : nullptr;
  if (auto It = SyncsPerIteration.find(Innermost);
      Innermost && It != SyncsPerIteration.end() && It->second > 0.1)
    return;
  // The sync before it in the loop decides what it waits behind: 25
  // iterations for a `% 50` print beside a `% 25` item(), and nothing for
  // the item() on the steps where the print just synced. A flush right
  // after a sync that does not flush runs on the caches the queue before
  // that sync left.
  std::vector<int64_t> Since, FlushSince;
  if (Innermost) {
    Since = iterationsSinceLastSync(Innermost, SF.Site);
    if (hostWorkAfter(*SF.Site).Flushes > 0)
      FlushSince = iterationsSinceLastSync(Innermost, SF.Site, true);
  }
  auto AllZero = [](const std::vector<int64_t> &V) {
    return !V.empty() && llvm::all_of(V, [](int64_t I) { return I == 0; });
  };
  if (FlushSince == Since)
    FlushSince.clear();
  if (AllZero(Since) && (FlushSince.empty() || AllZero(FlushSince)))
    return;
  Resume.FlushPastSyncs = !FlushSince.empty();
  const std::vector<int64_t> &FlushIterations =
      FlushSince.empty() ? Since : FlushSince;
  // The sync waits as long as the device runs; a flush is slowed by the
  // data that went through the caches, its traffic alone (validate on
  // printed.cpp and blind3.cpp: with `sigmoid` and `tanh` in the queue,
  // costing the flush by their compute over-predicted it 1.4-1.9x).
  std::optional<double> IterationUs, TrafficUs;
  if (Innermost && X.Innermost.PerIteration > 0) {
    IterationUs = iterationMicros(*Innermost);
    TrafficUs = iterationMicros(*Innermost, true);
  }
  auto QueueOf = [&](int64_t Iterations,
                     bool Traffic = false) -> std::optional<double> {
    const std::optional<double> &Per = Traffic ? TrafficUs : IterationUs;
    if (Iterations == 0)
      return 0.0;
    if (!Per)
      return std::nullopt;
    return *Per * double(Iterations);
  };
  Resume.Cold = true;
  std::vector<int64_t> Sorted = Since;
  llvm::sort(Sorted);
  bool Mixed = !Sorted.empty() && Sorted.front() != Sorted.back();
  if (Sorted.empty()) {
    if (IterationUs)
      Resume.QueuedMicros = *IterationUs / X.Innermost.PerIteration;
    if (TrafficUs)
      Resume.FlushQueuedMicros = *TrafficUs / X.Innermost.PerIteration;
  } else {
    Resume.QueuedMicros = QueueOf(Sorted[Sorted.size() / 2]);
    std::vector<int64_t> F = FlushIterations;
    llvm::sort(F);
    Resume.FlushQueuedMicros = QueueOf(F[F.size() / 2], true);
    if (Mixed || Resume.FlushPastSyncs)
      for (size_t I = 0; I < Since.size(); ++I) {
        Resume.ColdQueues.push_back(QueueOf(Since[I]));
        Resume.FlushQueues.push_back(QueueOf(FlushIterations[I], true));
      }
  }
  // A warm sync (right after another in the same iteration) whose flush is
  // cold: the host-work note says so.
  if (AllZero(Since))
    return;
  bool Region = &coldResumeParam(P, Resume) == &P.HostColdRegionUs;
  std::string Source = Region ? " (host_cold_region_us" : " (host_cold_sync_us";
  if (Region && Resume.NextOps && *Resume.NextOps > ResumeOps)
    Source += " x " + std::to_string(*Resume.NextOps) + " ops / " +
              std::to_string(ResumeOps);
  const ProfileParam &Queue =
      Region ? P.HostColdRegionQueueUs : P.HostColdQueueUs;
  std::string Against =
      std::string(" queued against ") +
      (Region ? "host_cold_region_queue_us " : "host_cold_queue_us ") +
      formatMicros(Queue.Value);
  auto ShareText = [&](const SyncResume &R) {
    char Buf[16];
    std::snprintf(Buf, sizeof(Buf), "%.2f", coldShare(P, R));
    return std::string("x ") + Buf + " for " + formatMicros(*R.QueuedMicros) +
           " queued";
  };
  double Micros = coldResumeMicros(P, Resume);
  std::string Why = " because it runs " + X.Innermost.phrase("iteration");
  if (!Mixed) {
    if (coldShare(P, Resume) < 1)
      Source +=
          " " + ShareText(Resume) + Against.substr(std::strlen(" queued"));
    else if (!Resume.QueuedMicros && Queue.Value > 0)
      Source += " in full: the size of an op its loop runs is not known";
    if (!Sorted.empty() && X.Innermost.EveryNth &&
        Sorted.front() != int64_t(X.Innermost.EveryNth))
      Why += ", " + std::to_string(Sorted.front()) +
             " iterations after the sync before it in its loop";
    Why += ": it waits behind several iterations' device work, and the host "
           "resumes with cold caches ";
  } else {
    // The median over its runs, as syncIdleMicros takes it.
    std::vector<double> PerRun;
    SyncResume One = Resume;
    One.ColdQueues.clear();
    for (const std::optional<double> &Q : Resume.ColdQueues) {
      One.QueuedMicros = Q;
      PerRun.push_back(coldResumeMicros(P, One));
    }
    llvm::sort(PerRun);
    size_t Mid = PerRun.size() / 2;
    Micros =
        PerRun.size() % 2 ? PerRun[Mid] : (PerRun[Mid - 1] + PerRun[Mid]) / 2;
    Source += ", the median of its runs:";
    const char *Sep = " ";
    for (auto I = Sorted.rbegin(); I != Sorted.rend();) {
      int64_t Iterations = *I;
      size_t Runs = std::count(Sorted.begin(), Sorted.end(), Iterations);
      std::string Of = " on " + std::to_string(Runs) + " run" +
                       (Runs == 1 ? "" : "s") + " in " +
                       std::to_string(Sorted.size());
      One.QueuedMicros = QueueOf(Iterations);
      Source += Sep;
      if (Iterations == 0)
        Source += "nothing" + Of + " (right after another sync)";
      else if (One.QueuedMicros && coldShare(P, One) < 1)
        Source += ShareText(One) + Of;
      else
        Source += "in full" + Of;
      Sep = ", ";
      I += Runs;
    }
    if (IterationUs && Queue.Value > 0)
      Source += "; shares" + Against.substr(std::strlen(" queued"));
    Why += ": it waits behind the device work since the sync before it in "
           "its loop, and the host resumes with cold caches ";
  }
  Source += ")";
  SF.F.Details.push_back("includes ~" + formatMicros(Micros) + Source + Why +
                         Tag);
}

bool TUCosts::estimateSync(SiteFinding &SF, CostEstimate &E) {
  const SiteContext &C = *SF.Context;
  SyncResume Resume;
  Resume.InRegion = C.Region.has_value();
  Resume.NextOps = Next.opsAfter(*SF.Site, C);
  Resume.NextEager = Next.eagerAfter(*SF.Site, C);
  Resume.NextInputs = Next.inputsAfter(*SF.Site, C);
  if (SF.F.Trigger == "dynamic-shape") {
    // A data-dependent shape syncs for the output's size only: the op then
    // allocates its output and launches the kernel that fills it (LibTorch's
    // CUDA nonzero, seam::rt), so the next launch is that one kernel, before
    // any op after the line and before the region's next piece is entered.
    Resume.NextOps = 1;
    Resume.NextEager = true;
    Resume.NextInputs.reset();
    Resume.InRegion = false;
  }
  if (P.HostSelectUsPerElement.Value > 0)
    Resume.SelectedElements = selectedElements(SF);
  std::vector<LoopVisit> Loops = C.LocalLoops;
  Loops.insert(Loops.end(), C.SeedLoops.begin(), C.SeedLoops.end());
  // Lambdas run by std::for_each and the like repeat without a loop of their
  // own: per iteration, trip count unknown.
  bool Iterated = !C.HotPath.empty() &&
                  C.HotPath.front().What == PathStep::Loop && Loops.empty();
  Executions X = executionsOf(Loops, C.PerCall, Ctx, &Opts.Trips);
  bool Repeats = X.Repeats || Iterated || !Loops.empty();
  if (Repeats)
    addCold(SF, Resume, X);
  addHostWork(SF, Resume);
  if (!Repeats && !C.Region)
    addAfterCompile(SF, Resume);
  E.IdleMicrosPerExecution = syncIdleMicros(P, Resume);
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
    E.Detail = "~" + formatMicros(*E.IdleMicrosTotal) + " device idle per " +
               formatCount(*E.TripCount) + " iterations of the loop";
  if (C.Region) {
    SummaryRow &Row = regionRow(C);
    ++Row.Syncs;
    Row.MicrosPerExecution += E.IdleMicrosPerExecution;
  }
  addToLoopRow(SF, E);
  return Repeats;
}

/// The row of the outermost local loop that repeats the line, per iteration
/// of that loop: what the inner loops multiply.
void TUCosts::addToLoopRow(const SiteFinding &SF, const CostEstimate &E) {
  const std::vector<LoopVisit> &Local = SF.Context->LocalLoops;
  size_t OuterIdx = Local.size();
  for (size_t I = 0; I < Local.size(); ++I)
    if (!Local[I].Freq.OncePerLoop)
      OuterIdx = I;
  if (OuterIdx == Local.size())
    return;
  const LoopVisit &Outer = Local[OuterIdx];
  SummaryRow &Row = LoopRows[Outer.Loop];
  if (Row.Kind.empty()) {
    Row.Kind = "loop";
    Row.Name = SF.F.Function;
    Row.Where = makePoint(Ctx.getSourceManager(), Ctx.getLangOpts(),
                          Outer.Loop->Keyword);
    Row.TripCount = tripOf(Outer.Loop, Ctx, &Opts.Trips);
  }
  ++Row.Syncs;
  double PerOuter = E.IdleMicrosPerExecution;
  for (size_t I = 0; I < OuterIdx; ++I) {
    const LoopVisit &V = Local[I];
    if (!V.Freq.OncePerLoop)
      PerOuter *=
          tripOf(V.Loop, Ctx, &Opts.Trips).value_or(1) * V.Freq.PerIteration;
  }
  PerOuter *= Outer.Freq.PerIteration;
  Row.MicrosPerExecution += PerOuter;
}

void TUCosts::estimate(SiteFinding &SF) {
  const SiteContext &C = *SF.Context;
  CostEstimate E;
  E.Profile = P.Name;
  // The estimate's own note goes first, before the host-work notes.
  size_t NotesBefore = SF.F.Details.size();
  runsInProgram(SF, E);
  bool Repeats = !C.LocalLoops.empty() || !C.SeedLoops.empty();
  if (hazardOf(SF.F.RuleId) == Hazard::GraphBreak && C.RegionRoot)
    estimateBreak(SF, E);
  else // a host sync or a capture sync: the device idles
    Repeats = estimateSync(SF, E);
  E.Rank = rankFromMicros(rankBasisMicros(E.IdleMicrosTotal,
                                          E.IdleMicrosPerExecution, Repeats,
                                          E.ExecutionsPerIteration));
  if (!E.Detail.empty())
    SF.F.Details.insert(SF.F.Details.begin() + NotesBefore, E.Detail);
  SF.F.Cost = std::move(E);
}

void TUCosts::rows(std::vector<SummaryRow> &Rows) {
  if (Opts.AllRegionRows)
    for (const FunctionNode &N : Regions.functions())
      if (N.IsRegionRoot && N.FD->hasBody()) {
        SiteContext C;
        C.Region = N.Name;
        C.RegionRoot = N.FD;
        regionRow(C);
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

} // namespace

void estimateCosts(ASTContext &Ctx, const ApiModel &Api,
                   const RegionModel &Regions,
                   llvm::MutableArrayRef<SiteFinding> Found,
                   const CostOptions &Opts, std::vector<SummaryRow> &Rows) {
  TUCosts Costs(Ctx, Api, Regions, Found, Opts);
  for (SiteFinding &SF : Found)
    Costs.estimate(SF);
  Costs.rows(Rows);
}

} // namespace seam
