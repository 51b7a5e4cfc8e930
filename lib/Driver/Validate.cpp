//===- Validate.cpp - `seam validate`: estimates checked line by line -----===//
#include "Driver/Validate.h"

#include "Basic/InputFile.h"
#include "Cost/Profile.h"
#include "Driver/Calibrate.h"
#include "Driver/Output.h"
#include "Driver/Timeline.h"
#include "Rules/Rule.h"

#include <seam/rt.h>

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

extern char **environ;

namespace seam {
namespace {

/// A path as both sides can compare it: resolved when it exists. A
/// relative path that does not exist from here stays relative (dots
/// removed) when \p KeepRelative: the runtime's __builtin_FILE() is
/// relative to wherever the program was compiled, not to this directory,
/// and sameFile() matches it by its trailing components.
std::string canonical(const std::string &Path, bool KeepRelative = false) {
  llvm::SmallString<256> Out;
  if (!llvm::sys::fs::real_path(Path, Out))
    return std::string(Out);
  Out = Path;
  if (!KeepRelative || llvm::sys::path::is_absolute(Out))
    llvm::sys::fs::make_absolute(Out);
  llvm::sys::path::remove_dots(Out, /*remove_dot_dot=*/true);
  return std::string(Out);
}

/// Whether the runtime's file (as __builtin_FILE() spelled it, maybe
/// relative to a build directory) is the analyzed file \p Analyzed.
bool sameFile(const std::string &Measured, const std::string &Analyzed) {
  if (Measured == Analyzed)
    return true;
  llvm::StringRef M(Measured), A(Analyzed);
  return (A.ends_with(M) && A.size() > M.size() &&
          A[A.size() - M.size() - 1] == '/') ||
         (M.ends_with(A) && M.size() > A.size() &&
          M[M.size() - A.size() - 1] == '/');
}

/// What Seam predicted at one line.
struct Predicted {
  std::string File;
  unsigned Line = 0, FirstLine = 0, LastLine = 0;
  bool Region = false;
  std::set<std::string> Rules;
  std::string Api;
  /// Executions in one run, summed over the calls on the line; nullopt
  /// when some count is unknown. BreakRuns and SyncRuns: of those, the ones
  /// that break (inside a region) and that sync.
  std::optional<double> Executions = 0.0, BreakRuns = 0.0, SyncRuns = 0.0;
  bool Bound = false;
  bool Breaks = false, Syncs = false;
  /// Device idle per execution (the costliest call on the line); over
  /// --repeat runs, the median of the runs' predictions, and their spread.
  std::optional<double> Idle;
  double IdleSpread = 0;
  /// Regions: pieces that launch per call (expected, when guards decide
  /// how many of the region's breaks run).
  double PiecesPerCall = 0;
  std::string Name; ///< region name
  std::set<unsigned> Columns;
};

struct Row {
  const Predicted *P = nullptr;
  const Measured *M = nullptr;
  std::vector<std::string> Outside; ///< compared values that disagree
  std::optional<double> IdleRatio;  ///< predicted over measured
  /// match, outside, noisy (idle too uncertain to judge), unpredicted,
  /// never-ran, unchecked
  std::string Status;
};

/// A region's pieces per call: one, and one more per break that runs, as
/// the breaks' own counts have it (their guards counted: `if (k % 2 == 0)
/// x.item()` in a loop of four breaks twice a call), when every break of
/// the region has a count and no piece is empty; else the pieces with ops
/// in them, every break taken to run.
double piecesPerCall(const Report &R, const SummaryRow &S) {
  if (!S.RunCalls || *S.RunCalls <= 0 || S.NonEmptyPieces != S.Pieces)
    return S.NonEmptyPieces;
  double Breaks = 0;
  for (const Finding &F : R.Findings) {
    const RuleInfo *Rule = findRule(F.RuleId);
    if (!Rule || Rule->Is != Hazard::GraphBreak || F.Region != S.Name)
      continue;
    if (!F.Cost || !F.Cost->RunExecutions)
      return S.NonEmptyPieces;
    Breaks += *F.Cost->RunExecutions;
  }
  return 1 + Breaks / *S.RunCalls;
}

std::vector<Predicted> predictions(const Report &R) {
  std::map<std::tuple<std::string, unsigned, bool>, Predicted> ByLine;
  // One call may carry a break and a sync: per call (line and column), the
  // runs of each.
  struct Call {
    Predicted *Line;
    std::optional<double> Break, Sync;
    bool HasBreak = false, HasSync = false, Bound = false;
  };
  std::map<std::tuple<std::string, unsigned, unsigned>, Call> Calls;
  for (const Finding &F : R.Findings) {
    const RuleInfo *Rule = findRule(F.RuleId);
    if (!Rule || !Rule->Validated)
      continue;
    std::string File = canonical(F.Where.File);
    Predicted &P = ByLine[{File, F.Where.Line, false}];
    P.File = File;
    P.Line = F.Where.Line;
    P.Rules.insert(F.RuleId);
    if (P.Api.empty())
      P.Api = F.Api;
    unsigned First = F.Where.Line, Last = F.Where.Line;
    if (F.Cost && F.Cost->CallFirstLine) {
      First = std::min(First, F.Cost->CallFirstLine);
      Last = std::max(Last, F.Cost->CallLastLine);
    }
    P.FirstLine = P.FirstLine ? std::min(P.FirstLine, First) : First;
    P.LastLine = std::max(P.LastLine, Last);
    bool IsBreak = Rule->Is == Hazard::GraphBreak;
    P.Breaks |= IsBreak;
    P.Syncs |= !IsBreak;
    if (!IsBreak && F.Cost)
      P.Idle = std::max(P.Idle.value_or(0), F.Cost->IdleMicrosPerExecution);
    P.Columns.insert(F.Where.Column);
    Call &C = Calls[{File, F.Where.Line, F.Where.Column}];
    C.Line = &P;
    std::optional<double> Runs =
        F.Cost ? F.Cost->RunExecutions : std::optional<double>();
    C.Bound |= F.Cost && F.Cost->RunExecutionsBound;
    (IsBreak ? C.HasBreak : C.HasSync) = true;
    (IsBreak ? C.Break : C.Sync) = Runs;
  }
  auto Add = [](std::optional<double> &To, std::optional<double> V) {
    if (To && V)
      *To += *V;
    else
      To.reset();
  };
  for (auto &[Key, C] : Calls) {
    Predicted &P = *C.Line;
    P.Bound |= C.Bound;
    // The sync's count covers every run; a break's only those in a region.
    std::optional<double> Exec = C.HasSync ? C.Sync : C.Break;
    Add(P.Executions, Exec);
    Add(P.BreakRuns, C.HasBreak ? C.Break : std::optional<double>(0.0));
    Add(P.SyncRuns, C.HasSync ? C.Sync : std::optional<double>(0.0));
  }
  for (const SummaryRow &S : R.Summary) {
    if (S.Kind != "region")
      continue;
    const SourcePoint &At = S.CompiledAt.valid() ? S.CompiledAt : S.Where;
    std::string File = canonical(At.File);
    Predicted &P = ByLine[{File, At.Line, true}];
    P.File = File;
    P.Line = P.FirstLine = P.LastLine = At.Line;
    P.Region = true;
    P.Rules.insert("region");
    P.Api = "compile";
    P.Name = S.Name;
    P.PiecesPerCall += piecesPerCall(R, S);
    if (S.RunCalls && P.Executions) {
      *P.Executions += *S.RunCalls;
      P.Bound |= S.RunCallsBound;
    } else {
      P.Executions.reset();
    }
  }
  std::vector<Predicted> Out;
  for (auto &[Key, P] : ByLine)
    Out.push_back(std::move(P));
  return Out;
}

/// Pairs each measured line with the prediction for it.
std::vector<Row> join(const std::vector<Predicted> &Ps,
                      const std::vector<Measured> &Ms) {
  std::vector<Row> Rows;
  std::set<const Predicted *> Used;
  for (const Measured &M : Ms) {
    const Predicted *Best = nullptr;
    for (const Predicted &P : Ps) {
      if (P.Region != M.Region || !sameFile(M.File, P.File) ||
          M.Line < P.FirstLine || M.Line > P.LastLine || Used.count(&P))
        continue;
      if (!Best || P.Line == M.Line)
        Best = &P;
    }
    if (Best)
      Used.insert(Best);
    Rows.push_back({Best, &M, {}, std::nullopt, ""});
  }
  for (const Predicted &P : Ps)
    if (!Used.count(&P))
      Rows.push_back({&P, nullptr, {}, std::nullopt, ""});
  llvm::sort(Rows, [](const Row &A, const Row &B) {
    auto Key = [](const Row &R) {
      const std::string &F = R.M ? R.M->File : R.P->File;
      unsigned L = R.M ? R.M->Line : R.P->Line;
      bool Reg = R.M ? R.M->Region : R.P->Region;
      return std::make_tuple(F, L, !Reg);
    };
    return Key(A) < Key(B);
  });
  return Rows;
}

} // namespace

IdleVerdict judgeIdle(double Predicted, double Measured, double MeasuredSpread,
                      unsigned Runs, double Tol) {
  double Diff = std::fabs(Predicted - Measured);
  double Edge = Tol * Measured;
  // For a median of n runs the standard error is about 0.93 IQR / sqrt(n).
  double Margin =
      Runs > 1 ? 2 * 0.93 * MeasuredSpread * Measured / std::sqrt(double(Runs))
               : 0;
  if (Diff - Margin > Edge)
    return IdleVerdict::Outside;
  // Runs that disagree by more than the tolerance cannot place the idle on
  // one side of it. Runs that agree closer than that are judged by their
  // medians, however near the edge: calling such a line noisy would only
  // move its flips from match/outside to match/noisy. The prediction's own
  // spread (calibrations that differ) is the model's error, not noise in
  // what it is judged against.
  if (Margin > Edge && Diff + Margin > Edge)
    return IdleVerdict::Noisy;
  return Diff > Edge ? IdleVerdict::Outside : IdleVerdict::Match;
}

namespace {

/// Compares one row; a count must match exactly (at most, for a bound),
/// the idle within \p Tol (25% when none was given, for the marks only).
void compare(Row &R, double Tol) {
  if (!R.P) {
    R.Status = "unpredicted";
    return;
  }
  if (!R.M) {
    R.Status =
        R.P->Executions && *R.P->Executions > 0.5 ? "never-ran" : "unchecked";
    if (R.Status == "never-ran")
      R.Outside.push_back("executions");
    return;
  }
  const Predicted &P = *R.P;
  const Measured &M = *R.M;
  auto Count = [&](const char *What, double Pred, int64_t Meas) {
    double N = std::round(Pred);
    if (P.Bound ? double(Meas) > N + 0.5 : std::fabs(N - double(Meas)) > 0.5)
      R.Outside.push_back(What);
  };
  if (P.Executions) {
    Count("executions", *P.Executions, M.Executions);
    if (!P.Region) {
      if (P.BreakRuns)
        Count("graph_breaks", *P.BreakRuns, M.Breaks);
      if (P.SyncRuns)
        Count("syncs", *P.SyncRuns, M.Syncs);
    } else {
      Count("pieces", *P.Executions * P.PiecesPerCall, M.RegionPieces);
    }
  }
  if (M.CountsVary)
    R.Outside.push_back("counts_vary_between_runs");
  bool Noisy = false;
  if (P.Idle && M.IdleSamples > 0 && M.IdleMedian > 0) {
    R.IdleRatio = *P.Idle / M.IdleMedian;
    switch (judgeIdle(*P.Idle, M.IdleMedian, M.IdleSpread, M.Runs, Tol)) {
    case IdleVerdict::Outside:
      R.Outside.push_back("idle_per_execution_us");
      break;
    case IdleVerdict::Noisy:
      Noisy = true;
      break;
    case IdleVerdict::Match:
      break;
    }
  }
  R.Status = !R.Outside.empty() ? "outside" : Noisy ? "noisy" : "match";
}

std::string fmt(double V, const char *Spec = "%.1f") {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), Spec, V);
  return Buf;
}

std::string pad(std::string S, size_t W) {
  if (S.size() < W)
    S.append(W - S.size(), ' ');
  return S + " ";
}

std::string baseName(const std::string &P) {
  return llvm::sys::path::filename(P).str();
}

std::string rulesText(const Predicted &P) {
  if (P.Region)
    return "region";
  std::string S;
  if (P.Breaks)
    S = "break";
  if (P.Syncs)
    S += S.empty() ? "sync" : "+sync";
  return S;
}

std::string predCount(const Predicted &P, double Mult = 1) {
  if (!P.Executions)
    return "?";
  return (P.Bound ? "<=" : "") + fmt(std::round(*P.Executions * Mult), "%.0f");
}

void printText(llvm::raw_ostream &OS, const std::vector<Row> &Rows,
               const ValidateOptions &Opts, const std::string &ProfileNote,
               double Tol, const std::string &Verdict) {
  OS << "validate: '" << Opts.Run.front() << "' (" << ProfileNote << ")\n";
  OS << "  each cell: predicted / measured (Seam's prediction, then what the "
        "runtime counted or timed)\n";
  OS << "  " << pad("line", 22) << pad("api", 14) << pad("seam", 11)
     << pad("runs", 13) << pad("breaks", 13) << pad("syncs", 13)
     << pad("pieces", 13) << pad("idle/run", 28) << "ratio\n";
  auto Pair = [](const std::string &P, const std::string &M) {
    return P + " / " + M;
  };
  std::vector<const Row *> Missed, NeverRan;
  for (const Row &R : Rows) {
    if (!R.P) {
      Missed.push_back(&R);
      continue;
    }
    if (!R.M) {
      NeverRan.push_back(&R);
      continue;
    }
    const Predicted &P = *R.P;
    const Measured &M = *R.M;
    auto Mark = [&](const char *What) {
      return std::find(R.Outside.begin(), R.Outside.end(), What) !=
                     R.Outside.end()
                 ? " !"
                 : "";
    };
    std::string Api;
    for (const std::string &A : M.Apis)
      Api += (Api.empty() ? "" : ",") + A;
    OS << "  " << pad(baseName(M.File) + ":" + std::to_string(M.Line), 22)
       << pad(Api, 14) << pad(rulesText(P), 11)
       << pad(Pair(predCount(P), std::to_string(M.Executions)) +
                  Mark("executions"),
              13);
    if (P.Region) {
      OS << pad("-", 13) << pad("-", 13)
         << pad(Pair(predCount(P, P.PiecesPerCall),
                     std::to_string(M.RegionPieces)) +
                    Mark("pieces"),
                13)
         << pad("-", 28) << "-";
      if (M.Recompiles)
        OS << "  (" << M.Recompiles
           << (M.Recompiles == 1 ? " recompile)" : " recompiles)");
      OS << "\n";
      continue;
    }
    auto Runs = [&](std::optional<double> V) {
      return V ? (P.Bound && *V > 0 ? "<=" : "") + fmt(std::round(*V), "%.0f")
               : std::string("?");
    };
    std::string BreaksPred = Runs(P.BreakRuns);
    std::string SyncsPred = Runs(P.SyncRuns);
    std::string IdlePred = P.Idle ? fmt(*P.Idle) : "-";
    std::string IdleMeas = M.IdleSamples ? fmt(M.IdleMedian) : "-";
    std::string Spread = M.IdleSamples && M.Runs > 1
                             ? " ±" + fmt(M.IdleSpread * 100, "%.0f") + "%"
                             : "";
    OS << pad(Pair(BreaksPred, std::to_string(M.Breaks)) + Mark("graph_breaks"),
              13)
       << pad(Pair(SyncsPred, std::to_string(M.Syncs)) + Mark("syncs"), 13)
       << pad(std::to_string(M.Pieces), 13)
       << pad(Pair(IdlePred, IdleMeas) + " us" + Spread +
                  Mark("idle_per_execution_us") +
                  (R.Status == "noisy" ? " ~" : ""),
              28)
       << (R.IdleRatio ? fmt(*R.IdleRatio, "%.2f") : "-") << "\n";
  }
  if (!Missed.empty()) {
    OS << "measured, but no result predicted it (a missed hazard):\n";
    for (const Row *R : Missed) {
      std::string Api;
      for (const std::string &A : R->M->Apis)
        Api += (Api.empty() ? "" : ",") + A;
      OS << "  " << R->M->File << ":" << R->M->Line << ": " << Api << ", "
         << R->M->Executions << " runs, " << R->M->Syncs << " syncs, "
         << R->M->Breaks << " breaks";
      if (R->M->IdleSamples)
        OS << ", " << fmt(R->M->IdleMedian) << " us device idle per sync";
      OS << "\n";
    }
  }
  if (!NeverRan.empty()) {
    OS << "predicted, but never ran:\n";
    for (const Row *R : NeverRan)
      OS << "  " << R->P->File << ":" << R->P->Line << ": " << R->P->Api << " ("
         << rulesText(*R->P) << ", " << predCount(*R->P)
         << (predCount(*R->P) == "1" ? " run" : " runs") << " predicted)\n";
  }
  OS << "idle/run: predicted device idle per execution (Seam's estimate) / "
        "the median the runtime measured after this line's syncs; ! marks a "
        "count that differs or an idle off by more than "
     << fmt(Tol * 100, "%.0f") << "%\n";
  if (Opts.Repeat > 1)
    OS << "over " << Opts.Repeat
       << " runs: each idle is the median of the runs' medians; ± is their "
          "interquartile range over that median, and ~ marks an idle not "
          "judged (noisy): its measured runs disagree by more than "
       << fmt(Tol * 100, "%.0f")
       << "% (twice the median's standard error), too wide to tell which "
          "side it is on\n";
  OS << "verdict: " << Verdict << "\n";
}

nlohmann::json toJson(const std::vector<Row> &Rows, const ValidateOptions &Opts,
                      const std::string &ProfileName,
                      const std::string &ProfileSource,
                      const nlohmann::json &Totals,
                      const std::string &Verdict) {
  nlohmann::json Sites = nlohmann::json::array();
  for (const Row &R : Rows) {
    nlohmann::json S;
    S["file"] = R.M ? R.M->File : R.P->File;
    S["line"] = R.M ? R.M->Line : R.P->Line;
    bool Region = R.M ? R.M->Region : R.P->Region;
    S["kind"] = Region ? "region" : "site";
    nlohmann::json Rules = nlohmann::json::array();
    if (R.P)
      for (const std::string &Id : R.P->Rules)
        if (Id != "region")
          Rules.push_back(Id);
    S["rule"] = Rules;
    if (R.P) {
      const Predicted &P = *R.P;
      nlohmann::json J;
      J["api"] = P.Api;
      J["executions"] = P.Executions ? nlohmann::json(std::round(*P.Executions))
                                     : nlohmann::json();
      J["executions_bound"] = P.Bound;
      if (Region) {
        J["region"] = P.Name;
        J["pieces_per_call"] = P.PiecesPerCall;
        J["pieces"] =
            P.Executions
                ? nlohmann::json(std::round(*P.Executions * P.PiecesPerCall))
                : nlohmann::json();
      } else {
        auto Count = [](std::optional<double> V) {
          return V ? nlohmann::json(std::round(*V)) : nlohmann::json();
        };
        J["graph_breaks"] = Count(P.BreakRuns);
        J["syncs"] = Count(P.SyncRuns);
        J["idle_per_execution_us"] =
            P.Idle ? nlohmann::json(*P.Idle) : nlohmann::json();
        J["idle_spread"] =
            P.Idle ? nlohmann::json(P.IdleSpread) : nlohmann::json();
      }
      S["predicted"] = J;
    } else {
      S["predicted"] = nullptr;
    }
    if (R.M) {
      const Measured &M = *R.M;
      nlohmann::json J;
      J["api"] = std::vector<std::string>(M.Apis.begin(), M.Apis.end());
      J["executions"] = M.Executions;
      J["syncs"] = M.Syncs;
      J["graph_breaks"] = M.Breaks;
      J["pieces"] = Region ? M.RegionPieces : M.Pieces;
      J["compiles"] = M.Compiles;
      J["recompiles"] = M.Recompiles;
      J["host_wait_us"] = M.HostWait;
      J["device_idle_us"] = M.Idle;
      J["idle_per_execution_us"] =
          M.IdleSamples ? nlohmann::json(M.IdleMedian) : nlohmann::json();
      J["idle_spread"] =
          M.IdleSamples ? nlohmann::json(M.IdleSpread) : nlohmann::json();
      J["runs"] = M.Runs;
      S["measured"] = J;
    } else {
      S["measured"] = nullptr;
    }
    S["status"] = R.Status;
    S["outside"] = R.Outside;
    S["idle_ratio"] =
        R.IdleRatio ? nlohmann::json(*R.IdleRatio) : nlohmann::json();
    Sites.push_back(std::move(S));
  }
  nlohmann::json J;
  J["version"] = 1;
  J["program"] = Opts.Run;
  J["runs"] = Opts.Repeat;
  J["profile"] = {{"name", ProfileName}, {"source", ProfileSource}};
  J["tolerance"] =
      Opts.Tolerance ? nlohmann::json(*Opts.Tolerance) : nlohmann::json();
  J["sites"] = std::move(Sites);
  J["runtime_totals"] = Totals;
  J["verdict"] = Verdict;
  return J;
}

} // namespace

llvm::Expected<std::vector<Measured>> measurements(const nlohmann::json &J) {
  auto Bad = [](const std::string &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                   Why.c_str());
  };
  if (!J.is_object() || J.value("format", "") != "seam-rt-report" ||
      !J.contains("sites") || !J["sites"].is_array())
    return Bad("not a seam::rt site report");
  std::map<std::tuple<std::string, unsigned, bool>, Measured> ByLine;
  for (const nlohmann::json &S : J["sites"]) {
    std::string Api = S.value("api", "");
    bool Region = Api == "compile";
    std::string File = canonical(S.value("file", ""), /*KeepRelative=*/true);
    unsigned Line = S.value("line", 0u);
    Measured &M = ByLine[{File, Line, Region}];
    M.File = File;
    M.Line = Line;
    M.Region = Region;
    M.Apis.insert(Api);
    M.Executions += S.value("executions", int64_t(0));
    M.Syncs += S.value("syncs", int64_t(0));
    M.Breaks += S.value("graph_breaks", int64_t(0));
    M.Pieces += S.value("pieces", int64_t(0));
    M.RegionPieces += S.value("region_pieces", int64_t(0));
    M.Compiles += S.value("compiles", int64_t(0));
    M.Recompiles += S.value("recompiles", int64_t(0));
    M.HostWait += S.value("host_wait_us", 0.0);
    M.Idle += S.value("device_idle_us", 0.0);
    // Two APIs on one line: the median of the one that synced most.
    int64_t Samples = S.value("idle_samples", int64_t(0));
    if (Samples > M.IdleSamples)
      M.IdleMedian = S.value("device_idle_median_us", 0.0);
    M.IdleSamples = std::max(M.IdleSamples, Samples);
  }
  std::vector<Measured> Out;
  for (auto &[Key, M] : ByLine)
    Out.push_back(std::move(M));
  return Out;
}

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

double relativeSpread(std::vector<double> V) {
  if (V.size() < 2)
    return 0;
  std::sort(V.begin(), V.end());
  // Quartiles by linear interpolation between order statistics (the
  // default of R and NumPy).
  auto Quantile = [&](double Q) {
    double Pos = Q * double(V.size() - 1);
    size_t Lo = static_cast<size_t>(Pos);
    size_t Hi = std::min(Lo + 1, V.size() - 1);
    return V[Lo] + (V[Hi] - V[Lo]) * (Pos - double(Lo));
  };
  double Mid = median(V);
  return Mid > 0 ? (Quantile(0.75) - Quantile(0.25)) / Mid : 0;
}

std::vector<Measured>
mergeRuns(const std::vector<std::vector<Measured>> &Runs) {
  if (Runs.empty())
    return {};
  std::vector<Measured> Ms = Runs.front();
  for (Measured &M : Ms) {
    std::vector<double> Medians, Totals;
    for (const std::vector<Measured> &Run : Runs)
      for (const Measured &O : Run)
        if (O.File == M.File && O.Line == M.Line && O.Region == M.Region) {
          if (O.IdleSamples > 0)
            Medians.push_back(O.IdleMedian);
          Totals.push_back(O.Idle);
          M.CountsVary |= O.Executions != M.Executions || O.Syncs != M.Syncs ||
                          O.Breaks != M.Breaks ||
                          O.RegionPieces != M.RegionPieces;
        }
    // A line some run never reached: its counts were not the same.
    M.CountsVary |= Totals.size() != Runs.size();
    M.Runs = static_cast<unsigned>(Runs.size());
    M.Idle = median(Totals);
    M.IdleTotalSpread = relativeSpread(Totals);
    if (!Medians.empty()) {
      M.IdleMedian = median(Medians);
      M.IdleSpread = relativeSpread(Medians);
    }
  }
  return Ms;
}

std::string runFailure(int Status, llvm::StringRef ErrMsg, llvm::StringRef What,
                       unsigned TimeoutSeconds) {
  if (Status == 0)
    return "";
  // ExecuteAndWait kills a child at the timeout and says "Child timed out";
  // a child a signal ended returns -2 too, with the signal's name.
  if (Status == -2 && ErrMsg.starts_with("Child timed out"))
    return (What + " did not finish within " + llvm::Twine(TimeoutSeconds) +
            " s and was stopped (--timeout)")
        .str();
  if (Status == -2)
    return (What + " was killed by a signal (" +
            (ErrMsg.empty() ? llvm::StringRef("unknown") : ErrMsg) + ")")
        .str();
  return (What + " failed (" +
          (Status < 0 ? ErrMsg.str() : "exit " + std::to_string(Status)) + ")")
      .str();
}

std::optional<double> parseTolerance(const std::string &Text) {
  llvm::StringRef T = llvm::StringRef(Text).trim();
  bool Percent = T.consume_back("%");
  double V;
  if (T.empty() || T.trim().getAsDouble(V) || !(V >= 0) || !std::isfinite(V))
    return std::nullopt;
  return Percent ? V / 100 : V;
}

namespace {

/// The files `seam validate` writes (-o, --trace, --timeline), none of which
/// may replace an input.
struct ValidateOutputs {
  std::vector<std::pair<const char *, std::string>> Outputs;

  explicit ValidateOutputs(const ValidateOptions &Opts)
      : Outputs({{"-o", Opts.OutputPath},
                 {"--trace", Opts.TracePath},
                 {"--timeline", Opts.TimelinePath}}) {}

  /// 0, or the exit code of the error (reported).
  int check(llvm::ArrayRef<std::string> In) const {
    for (auto &[Flag, Out] : Outputs)
      if (!Out.empty())
        if (std::optional<std::string> Err = checkOutputPath(Out, In))
          return errorExit(*Err + " (from " + Flag + ")");
    for (size_t I = 0; I < Outputs.size(); ++I)
      for (size_t J = I + 1; J < Outputs.size(); ++J)
        if (!Outputs[I].second.empty() &&
            Outputs[I].second == Outputs[J].second)
          return errorExit(std::string(Outputs[I].first) + " and " +
                           Outputs[J].first + " name the same file ('" +
                           Outputs[I].second + "')");
    return 0;
  }
};

/// What the run reads: the sources, packs and configuration, the program,
/// and the files named among its arguments.
std::vector<std::string> validateInputs(const ValidateOptions &Opts,
                                        const std::string &Exe) {
  std::vector<std::string> Inputs = Opts.Check.Files;
  Inputs.insert(Inputs.end(), Opts.Check.RulePacks.begin(),
                Opts.Check.RulePacks.end());
  Inputs.push_back(Exe);
  for (const std::string &A : Opts.Run)
    if (llvm::sys::fs::exists(A))
      Inputs.push_back(A);
  if (!Opts.Check.ConfigFile.empty())
    Inputs.push_back(Opts.Check.ConfigFile);
  if (!Opts.Check.Frontend.BuildDir.empty())
    Inputs.push_back(Opts.Check.Frontend.BuildDir + "/compile_commands.json");
  return Inputs;
}

/// Runs the program with the runtime's report (and trace, and calibration
/// unless a profile was given) switched on; its output goes to stderr, so
/// that stdout holds only the comparison. 0, or the exit code of the error.
int runProgram(const ValidateOptions &Opts, const std::string &Exe,
               llvm::StringRef ReportPath, llvm::StringRef TracePath) {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E) {
    llvm::StringRef V(*E);
    if (!V.starts_with("SEAM_RT_REPORT=") && !V.starts_with("SEAM_RT_TRACE=") &&
        !V.starts_with("SEAM_RT_CALIBRATE="))
      Env.push_back(V.str());
  }
  Env.push_back("SEAM_RT_REPORT=" + ReportPath.str());
  if (!TracePath.empty())
    Env.push_back("SEAM_RT_TRACE=" + TracePath.str());
  if (!Opts.Check.ProfileGiven)
    Env.push_back("SEAM_RT_CALIBRATE=" + std::to_string(Opts.CalibrationReps));
  std::vector<llvm::StringRef> Argv(Opts.Run.begin(), Opts.Run.end());
  Argv.front() = Exe;
  std::vector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());
  // The program's output goes to stderr, so that stdout holds only the
  // comparison (JSON with --format json).
  llvm::SmallString<128> OutPath;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("seam-validate", "out", OutPath))
    return errorExit("cannot create a temporary file: " + EC.message());
  llvm::FileRemover RemoveOut(OutPath);
  std::optional<llvm::StringRef> Redirects[] = {
      std::nullopt, llvm::StringRef(OutPath), std::nullopt};
  std::string ErrMsg;
  int Status = llvm::sys::ExecuteAndWait(Exe, Argv, EnvRefs, Redirects,
                                         Opts.TimeoutSeconds, 0, &ErrMsg);
  if (auto Out = readInputFile(OutPath, "the program's output", MaxDataBytes))
    llvm::errs() << (*Out)->getBuffer();
  else
    llvm::consumeError(Out.takeError());
  std::string Failure = runFailure(Status, ErrMsg, "'" + Opts.Run.front() + "'",
                                   Opts.TimeoutSeconds);
  return Failure.empty() ? 0 : errorExit(Failure);
}

/// The profile the runtime measured in the program's process (the site
/// report's "calibration"), written to \p ProfilePath. 0, or the exit code
/// of the error.
int writeCalibratedProfile(const ValidateOptions &Opts, const nlohmann::json &J,
                           llvm::SmallString<128> &ProfilePath) {
  if (!J.contains("calibration") || !J["calibration"].is_object())
    return errorExit(
        "the site report of '" + Opts.Run.front() +
        "' holds no calibration (a seam::rt older than this seam?); "
        "give --profile");
  std::vector<seam::rt::Measurement> Cal;
  try {
    for (auto It = J["calibration"].begin(); It != J["calibration"].end(); ++It)
      Cal.push_back({It.key(), It->value("value", 0.0),
                     It->value("spread", 0.0), It->value("runs", 0),
                     It->value("how", "")});
  } catch (const nlohmann::json::exception &E) {
    return errorExit("the site report of '" + Opts.Run.front() +
                     "' is malformed: its calibration: " + E.what());
  }
  std::string Command = "seam validate (SEAM_RT_CALIBRATE=" +
                        std::to_string(Opts.CalibrationReps) +
                        ", in the program's process, before main())";
  std::vector<std::string> Warnings;
  nlohmann::json P = profileFrom(Cal, Command, Warnings);
  for (const std::string &W : Warnings)
    llvm::errs() << "seam: warning: " << W << "\n";
  // What the runtime measured must make a whole profile; the temporary
  // file it is written to is no name for the user to look for.
  if (llvm::Expected<DeviceProfile> Whole =
          parseProfile(P.dump(), "calibration");
      !Whole)
    return errorExit("the site report of '" + Opts.Run.front() +
                     "' has an incomplete calibration: " +
                     llvm::toString(Whole.takeError()));
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
          "seam-validate-profile", "json", ProfilePath))
    return errorExit("cannot create a temporary file: " + EC.message());
  std::error_code EC;
  llvm::raw_fd_ostream OS(ProfilePath, EC);
  if (EC)
    return errorExit("cannot write '" + std::string(ProfilePath) +
                     "': " + EC.message());
  OS << P.dump(2) << "\n";
  OS.close();
  if (OS.has_error()) {
    OS.clear_error();
    return errorExit("cannot write '" + std::string(ProfilePath) + "'");
  }
  return 0;
}

/// One run of the program and the analysis with what it calibrated.
struct RunResult {
  nlohmann::json Report; ///< the site report
  std::vector<Measured> Ms;
  std::vector<Predicted> Ps;
  std::string ProfileName = "seamrt-local";
};

/// Run 0's lines, each measured idle the median over \p Runs (see
/// mergeRuns), each predicted idle the median of the runs' predictions.
void aggregate(const std::vector<RunResult> &Runs, std::vector<Measured> &Ms,
               std::vector<Predicted> &Ps) {
  std::vector<std::vector<Measured>> Lines;
  for (const RunResult &R : Runs)
    Lines.push_back(R.Ms);
  Ms = mergeRuns(Lines);
  Ps = Runs.front().Ps;
  for (Predicted &P : Ps) {
    std::vector<double> Idles;
    for (const RunResult &R : Runs)
      for (const Predicted &O : R.Ps)
        if (O.File == P.File && O.Line == P.Line && O.Region == P.Region &&
            O.Idle)
          Idles.push_back(*O.Idle);
    if (P.Idle && !Idles.empty()) {
      P.Idle = median(Idles);
      P.IdleSpread = relativeSpread(Idles);
    }
  }
}

/// Whether a line of \p Runs so far is noisy at tolerance \p Tol.
bool anyNoisy(const std::vector<RunResult> &Runs, double Tol) {
  std::vector<Measured> Ms;
  std::vector<Predicted> Ps;
  aggregate(Runs, Ms, Ps);
  std::vector<Row> Rows = join(Ps, Ms);
  return llvm::any_of(Rows, [&](Row &R) {
    compare(R, Tol);
    return R.Status == "noisy";
  });
}

/// Each row compared at tolerance \p Tol; the verdict, in JSON's word and
/// in the text's sentence.
std::pair<std::string, std::string>
verdictOf(std::vector<Row> &Rows, const ValidateOptions &Opts, double Tol) {
  unsigned Off = 0, Compared = 0, Noisy = 0;
  for (Row &Rw : Rows) {
    compare(Rw, Tol);
    Compared += Rw.Status == "match" || Rw.Status == "outside";
    Noisy += Rw.Status == "noisy";
    Off += Rw.Status == "outside" || Rw.Status == "unpredicted" ||
           Rw.Status == "never-ran";
  }
  std::string Verdict;
  if (!Opts.Tolerance)
    Verdict = "unchecked";
  else
    Verdict = Off ? "fail" : Noisy ? "noisy" : "pass";
  std::string NoisyText =
      Noisy ? "; " + std::to_string(Noisy) +
                  (Noisy == 1 ? " line's" : " lines'") +
                  " idle not judged: its runs spread too wide to tell "
                  "whether it is within " +
                  fmt(Tol * 100, "%.0f") + "% (noisy)"
            : "";
  std::string VerdictText =
      !Opts.Tolerance
          ? "not checked (give --tolerance to make differences fail); " +
                std::to_string(Compared) + " lines compared, " +
                std::to_string(Off) + " differ"
      : Off ? "fail: " + std::to_string(Off) + " of " +
                  std::to_string(Rows.size()) +
                  " lines differ (counts must match exactly, idle within " +
                  fmt(Tol * 100, "%.0f") + "%)" + NoisyText
      : Noisy
          ? "not judged: every count matches and " + std::to_string(Compared) +
                " of " + std::to_string(Compared + Noisy) +
                " idles are within " + fmt(Tol * 100, "%.0f") + "%" + NoisyText
          : "pass: " + std::to_string(Compared) +
                " lines compared, every count matches and every idle is "
                "within " +
                fmt(Tol * 100, "%.0f") + "%";
  if (!Opts.Tolerance && Noisy)
    VerdictText += NoisyText;
  return {Verdict, VerdictText};
}

} // namespace

int runValidate(const ValidateOptions &Opts) {
  if (Opts.Run.empty())
    return errorExit("--run needs the program to run");
  auto Exe = llvm::sys::findProgramByName(Opts.Run.front());
  if (!Exe || !llvm::sys::fs::can_execute(*Exe)) {
    bool Exists = llvm::sys::fs::exists(Exe ? *Exe : Opts.Run.front());
    return errorExit("cannot run '" + Opts.Run.front() + "': " +
                     (Exists ? "it is not an executable file" : "not found"));
  }
  ValidateOutputs Outputs(Opts);
  if (int Code = Outputs.check(validateInputs(Opts, *Exe)))
    return Code;

  std::string ProfileSource = Opts.Check.Profile, ProfileNote;
  // The trace is the last run's.
  llvm::SmallString<128> TracePath(Opts.TracePath);
  std::optional<llvm::FileRemover> RemoveTrace;
  if (TracePath.empty() && !Opts.TimelinePath.empty()) {
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
            "seam-validate-trace", "json", TracePath))
      return errorExit("cannot create a temporary file: " + EC.message());
    RemoveTrace.emplace(TracePath);
  }
  double Tol = Opts.Tolerance.value_or(0.25);
  // --repeat runs, then one more at a time while a line is noisy: the
  // median's standard error shrinks with the runs, up to --max-repeat.
  const unsigned MinRuns = std::max(1u, Opts.Repeat);
  const unsigned MaxRuns =
      std::max(MinRuns, Opts.MaxRepeat ? Opts.MaxRepeat : 3 * MinRuns);
  std::vector<RunResult> Runs;
  for (size_t Run = 0;; ++Run) {
    if (Run >= MinRuns && (Run >= MaxRuns || !anyNoisy(Runs, Tol)))
      break;
    Runs.emplace_back();
    RunResult &Res = Runs.back();
    bool Last = Run + 1 == MinRuns; // the trace is of run --repeat
    CheckOptions Check = Opts.Check;
    // Run the program first: unless a profile was given, the runtime
    // measures the cost model's parameters in the program's own process
    // when it exits, and the estimates use those.
    llvm::SmallString<128> ReportPath;
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
            "seam-validate-report", "json", ReportPath))
      return errorExit("cannot create a temporary file: " + EC.message());
    llvm::FileRemover RemoveReport(ReportPath);
    llvm::sys::fs::remove(ReportPath); // the program writes it, or it fails
    if (int Code = runProgram(Opts, *Exe, ReportPath,
                              Last ? TracePath : llvm::SmallString<128>()))
      return Code;
    if (Last && !Opts.TracePath.empty() &&
        !llvm::sys::fs::exists(Opts.TracePath))
      return errorExit("--trace: the program wrote no trace to '" +
                       Opts.TracePath + "' (see its output above)");
    if (!llvm::sys::fs::exists(ReportPath))
      return errorExit("'" + Opts.Run.front() +
                       "' wrote no seam::rt site report (is it linked against "
                       "seam::rt, and does it exit normally?)");
    auto Buf = readInputFile(ReportPath, "the site report");
    if (!Buf)
      return errorExit("the site report of '" + Opts.Run.front() +
                       "': " + llvm::toString(Buf.takeError()));
    Res.Report = nlohmann::json::parse(
        (*Buf)->getBuffer().begin(), (*Buf)->getBuffer().end(), nullptr, false);
    // A report is the program's output: a field of the wrong type is a
    // malformed report, not a crash.
    llvm::Expected<std::vector<Measured>> Ms = [&] {
      try {
        return measurements(Res.Report);
      } catch (const nlohmann::json::exception &E) {
        return llvm::Expected<std::vector<Measured>>(llvm::createStringError(
            llvm::inconvertibleErrorCode(), "malformed: %s", E.what()));
      }
    }();
    if (!Ms)
      return errorExit("the site report of '" + Opts.Run.front() +
                       "': " + llvm::toString(Ms.takeError()));
    Res.Ms = std::move(*Ms);

    llvm::SmallString<128> ProfilePath;
    std::optional<llvm::FileRemover> RemoveProfile;
    if (!Check.ProfileGiven) {
      int Code = writeCalibratedProfile(Opts, Res.Report, ProfilePath);
      if (!ProfilePath.empty())
        RemoveProfile.emplace(ProfilePath);
      if (Code)
        return Code;
      Check.Profile = std::string(ProfilePath);
      Check.ProfileGiven = true;
      ProfileNote = "profile seamrt-local, measured in the program's process "
                    "before main()";
      ProfileSource = "measured by the runtime in the program's process "
                      "before main() (SEAM_RT_CALIBRATE=" +
                      std::to_string(Opts.CalibrationReps) + ")";
    } else {
      ProfileNote = "profile " + Check.Profile;
    }
    Check.Analysis.ReportColdSyncs = true; // every sync is a prediction
    Check.AllRegionRows = true;
    // Not cached: the profile is usually measured afresh in this run (its
    // contents are part of the key, so no entry would be hit again), and
    // region rows without findings are not part of a cached result.
    Check.Cache = false;
    Check.Progress = false;

    Report R;
    bool InputError = false;
    RunInputs Read;
    if (int Code = analyze(Check, R, InputError, nullptr, nullptr, &Read))
      return Code;
    if (InputError)
      return errorExit("the sources could not be analyzed (see above)");
    if (Run == 0) {
      // The headers the sources include are known now, before -o and
      // --timeline are written.
      Read.Declared.insert(Read.Declared.end(), Read.Read.begin(),
                           Read.Read.end());
      Outputs.Outputs.erase(Outputs.Outputs.begin() + 1); // --trace
      if (int Code = Outputs.check(Read.Declared))
        return Code;
    }
    for (const Finding &F : R.Findings)
      if (F.Cost)
        Res.ProfileName = F.Cost->Profile;
    Res.Ps = predictions(R);
  }
  if (Runs.size() > 1)
    ProfileNote +=
        "; " + std::to_string(Runs.size()) + " runs" +
        (Runs.size() > MinRuns ? " (" + std::to_string(MinRuns) +
                                     ", then more while a line was noisy)"
                               : std::string()) +
        ", each line's idle the median of the runs' medians";
  std::vector<Measured> Ms;
  std::vector<Predicted> Ps;
  aggregate(Runs, Ms, Ps);
  std::vector<Row> Rows = join(Ps, Ms);
  const std::string &ProfileName = Runs.back().ProfileName;
  const nlohmann::json &J = Runs.back().Report;
  ValidateOptions Done = Opts; // the runs made
  Done.Repeat = static_cast<unsigned>(Runs.size());
  auto [Verdict, VerdictText] = verdictOf(Rows, Done, Tol);

  if (!Opts.TimelinePath.empty())
    if (std::optional<std::string> E = writeTimeline(
            std::string(TracePath), Opts.TimelinePath, Opts.Run.front()))
      return errorExit(*E);

  nlohmann::json Totals = J.contains("totals") && J["totals"].is_object()
                              ? J["totals"]
                              : nlohmann::json::object();
  if (std::optional<std::string> E =
          writeOutput(Opts.OutputPath, [&](llvm::raw_ostream &OS) {
            if (Opts.Json)
              OS << toJson(Rows, Done, ProfileName, ProfileSource, Totals,
                           Verdict)
                        .dump(2)
                 << "\n";
            else
              printText(OS, Rows, Done, ProfileNote, Tol, VerdictText);
          }))
    return errorExit(*E);
  // Not judged is neither a pass nor a failure (docs/cli.md).
  return Verdict == "fail" ? 1 : Verdict == "noisy" ? 3 : 0;
}

} // namespace seam
