//===- CostModel.cpp - What each graph break and host sync costs ----------===//
#include "Cost/CostModel.h"

#include "Cost/Fusion.h"
#include "Hazards/SourcePoint.h"

#include <cmath>
#include <cstdio>
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

std::optional<double> tripOf(const LoopInfo *L, ASTContext &Ctx) {
  return L->S ? constantTripCount(L->S, Ctx) : std::nullopt;
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
                        const Frequency &PerCall, ASTContext &Ctx) {
  Executions X;
  X.Innermost = Loops.empty() ? PerCall : Loops.front().Freq;
  if (!Loops.empty())
    X.Innermost.multiply(PerCall);
  X.Counted = !X.Innermost.everyTime();
  double Iter = 1, Total = PerCall.PerIteration;
  bool Known = true;
  for (const LoopVisit &V : Loops) {
    X.Repeats |= !V.Freq.OncePerLoop;
    std::optional<double> T = tripOf(V.Loop, Ctx);
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

} // namespace

void estimateCosts(ASTContext &Ctx, const ApiModel &Api,
                   const RegionModel &Regions,
                   const std::vector<TriggerSite> &Sites,
                   std::vector<Finding> &Findings, const CostOptions &Opts,
                   std::vector<SummaryRow> &Rows) {
  const DeviceProfile &P = Opts.Profile;
  llvm::DenseSet<const CallExpr *> BreakCalls;
  for (const Finding &F : Findings)
    if (F.RuleId == "seam-graph-break" && F.SiteIndex >= 0)
      BreakCalls.insert(Sites[F.SiteIndex].Call);
  OpModel Ops(Ctx, Api, BreakCalls, Opts.Hints);
  std::map<const FunctionDecl *, RegionShape> Shapes;
  auto RegionOf = [&](const FunctionDecl *Root) -> const RegionShape & {
    auto It = Shapes.find(Root);
    if (It == Shapes.end())
      It = Shapes.emplace(Root, shapeOf(Ops.sequence(Root))).first;
    return It->second;
  };
  const double BytesPerMicro = P.MemoryBandwidthGBps.Value * 1e3;
  const std::string Tag = "(profile " + P.Name + ")";

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
      Row.LaunchesBefore = R.LaunchesBefore;
      Row.LaunchesAfter = R.LaunchesBefore;
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
    std::vector<LoopVisit> Loops = C.LocalLoops;
    Loops.insert(Loops.end(), C.SeedLoops.begin(), C.SeedLoops.end());
    bool Repeats = !Loops.empty(); // runs many times per program run

    if (F.RuleId == "seam-graph-break" && C.RegionRoot) {
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
      // the host's resume and the next launch.
      E.IdleMicrosPerExecution = P.SyncRoundtripUs.Value +
                                 P.HostResumeUs.Value + P.LaunchLatencyUs.Value;
      if (C.Region)
        E.IdleMicrosPerExecution += P.RegionEntryUs.Value;
      // Lambdas run by std::for_each and the like repeat without a loop of
      // their own: per iteration, trip count unknown.
      bool Iterated = !C.HotPath.empty() &&
                      C.HotPath.front().What == PathStep::Loop && Loops.empty();
      Executions X = executionsOf(Loops, C.PerCall, Ctx);
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
        std::optional<double> OuterTrips = tripOf(Outer.Loop, Ctx);
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
            PerOuter *= tripOf(V.Loop, Ctx).value_or(1) * V.Freq.PerIteration;
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

  for (auto &[Key, Row] : RegionRows) {
    Row.Profile = P.Name;
    Row.Rank = rankFromMicros(Row.MicrosPerExecution);
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
