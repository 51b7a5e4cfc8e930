//===- ValidateFixed.cpp - `seam validate --fixed`: fixes proved by running
//===//
//
// Copies a seam::rt program's sources twice into a temporary directory,
// applies Seam's fixes to the second copy (as `seam check --fix` would,
// again while a run still applies some), builds both copies with the user's
// build command, runs both with the runtime's site report on, and reports
// per source line the syncs, graph breaks and device idle before and after,
// and whether the two programs printed the same (text exactly, numbers with
// a fraction within a relative tolerance). Docs: docs/fixes.md.
//
//===----------------------------------------------------------------------===//
#include "Basic/InputFile.h"
#include "Driver/ApplyFixes.h"
#include "Driver/Output.h"
#include "Driver/Validate.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <map>

extern char **environ;

namespace seam {
namespace {

/// One version of the program: its copies of the sources, what it printed
/// and what the runtime measured per line, in each run.
struct Version {
  std::string Name; ///< "before", "after"
  std::string Dir;
  std::vector<std::string> Sources;
  std::vector<std::string> Outputs;
  std::vector<std::vector<Measured>> RunLines;
  std::vector<Measured> Lines; ///< the runs merged (mergeRuns)
};

std::string shellQuote(llvm::StringRef S) {
  std::string Q = "'";
  for (char C : S) {
    if (C == '\'')
      Q += "'\\''";
    else
      Q += C;
  }
  return Q + "'";
}

/// Runs \p Argv with \p Env, its stdout and stderr in \p Log; "" or why it
/// failed.
std::string execute(llvm::ArrayRef<llvm::StringRef> Argv,
                    std::optional<llvm::ArrayRef<llvm::StringRef>> Env,
                    const std::string &Log, unsigned Timeout,
                    const std::string &What) {
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(Log), llvm::StringRef(Log)};
  std::string ErrMsg;
  int Status = llvm::sys::ExecuteAndWait(Argv.front(), Argv, Env, Redirects,
                                         Timeout, 0, &ErrMsg);
  return runFailure(Status, ErrMsg, What, Timeout);
}

std::string readText(const std::string &Path) {
  if (auto B = readInputFile(Path, "output", MaxDataBytes))
    return (*B)->getBuffer().str();
  else
    llvm::consumeError(B.takeError());
  return "";
}

/// Builds \p V into V.Dir/program; "" or why not.
std::string build(Version &V, const std::string &Command, unsigned Timeout) {
  std::string Program = V.Dir + "/program";
  std::string Sources;
  for (const std::string &S : V.Sources)
    Sources += (Sources.empty() ? "" : " ") + shellQuote(S);
  std::string Cmd = Command;
  for (auto [Key, Value] :
       {std::pair<std::string, std::string>{"{sources}", Sources},
        {"{out}", shellQuote(Program)}})
    for (size_t At = Cmd.find(Key); At != std::string::npos;
         At = Cmd.find(Key, At + Value.size()))
      Cmd.replace(At, Key.size(), Value);
  std::string BuildLog = V.Dir + "/build.log";
  llvm::StringRef Shell = "/bin/sh";
  if (std::string Why =
          execute({Shell, "-c", Cmd}, std::nullopt, BuildLog, Timeout,
                  "the build of the " + V.Name + " version");
      !Why.empty()) {
    llvm::errs() << readText(BuildLog);
    return Why + ": " + Cmd;
  }
  if (!llvm::sys::fs::can_execute(Program))
    return "the build command made no program at {out} for the " + V.Name +
           " version: " + Cmd;
  return "";
}

/// Runs \p V once more, keeping what it printed and measured; "" or why
/// not.
std::string run(Version &V, unsigned Timeout) {
  std::string Program = V.Dir + "/program";
  std::string Report = V.Dir + "/report.json";
  llvm::sys::fs::remove(Report);
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E) {
    llvm::StringRef Var(*E);
    if (!Var.starts_with("SEAM_RT_REPORT=") &&
        !Var.starts_with("SEAM_RT_TRACE=") &&
        !Var.starts_with("SEAM_RT_CALIBRATE="))
      Env.push_back(Var.str());
  }
  Env.push_back("SEAM_RT_REPORT=" + Report);
  std::vector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());
  // ExecuteAndWait's redirection does not truncate: a shorter output
  // would keep the end of the last run's.
  std::string RunLog = V.Dir + "/output.txt";
  llvm::sys::fs::remove(RunLog);
  if (std::string Why = execute({Program}, EnvRefs, RunLog, Timeout,
                                "the " + V.Name + " version of the program");
      !Why.empty()) {
    llvm::errs() << readText(RunLog);
    return Why;
  }
  V.Outputs.push_back(readText(RunLog));
  auto Buf = readInputFile(Report, "the site report");
  if (!Buf)
    return "the " + V.Name +
           " version wrote no seam::rt site report (is it "
           "linked against seam::rt?)";
  nlohmann::json J = nlohmann::json::parse(
      (*Buf)->getBuffer().begin(), (*Buf)->getBuffer().end(), nullptr, false);
  try {
    auto Ms = measurements(J);
    if (!Ms)
      return "the site report of the " + V.Name +
             " version: " + llvm::toString(Ms.takeError());
    V.RunLines.push_back(std::move(*Ms));
  } catch (const nlohmann::json::exception &E) {
    return "the site report of the " + V.Name +
           " version is malformed: " + E.what();
  }
  return "";
}

/// \p Text without the lines \p Ignore matches.
std::string kept(llvm::StringRef Text, llvm::Regex &Ignore) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  std::string Out;
  for (llvm::StringRef L : Lines)
    if (!Ignore.match(L))
      Out += L.str() + "\n";
  return Out;
}

/// Whether two outputs are the same: word for word, except that numbers
/// written with a fraction or an exponent may differ by \p Tol relative.
bool sameOutput(llvm::StringRef A, llvm::StringRef B, double Tol,
                std::string &First) {
  llvm::SmallVector<llvm::StringRef> WA, WB;
  llvm::SplitString(A, WA);
  llvm::SplitString(B, WB);
  auto Number = [](llvm::StringRef W, double &V) {
    std::string S = W.str();
    char *End = nullptr;
    V = std::strtod(S.c_str(), &End);
    return End && *End == '\0' && !S.empty() &&
           W.find_first_of(".eEnN") != llvm::StringRef::npos;
  };
  for (size_t I = 0; I < std::max(WA.size(), WB.size()); ++I) {
    if (I >= WA.size() || I >= WB.size()) {
      First = "one output has " + std::to_string(WA.size()) +
              " words, the other " + std::to_string(WB.size());
      return false;
    }
    if (WA[I] == WB[I])
      continue;
    double X, Y;
    if (Number(WA[I], X) && Number(WB[I], Y) &&
        ((std::isnan(X) && std::isnan(Y)) ||
         std::fabs(X - Y) <= Tol * std::max(std::fabs(X), std::fabs(Y))))
      continue;
    First = "word " + std::to_string(I + 1) + ": '" + WA[I].str() +
            "' before, '" + WB[I].str() + "' after";
    return false;
  }
  return true;
}

/// For each line of \p After (1-based), the line of \p Before it is an
/// unchanged copy of, or 0 (a line a fix wrote): a longest common
/// subsequence of the lines.
std::vector<unsigned> lineMap(llvm::StringRef Before, llvm::StringRef After) {
  llvm::SmallVector<llvm::StringRef> B, A;
  Before.split(B, '\n');
  After.split(A, '\n');
  size_t N = B.size(), M = A.size();
  std::vector<unsigned> Map(M + 1, 0);
  if (N * M > 64u * 1024 * 1024)
    return Map; // too large to align: no line is known to be the same
  std::vector<uint32_t> L((N + 1) * (M + 1), 0);
  auto At = [&](size_t I, size_t J) -> uint32_t & {
    return L[I * (M + 1) + J];
  };
  for (size_t I = N; I-- > 0;)
    for (size_t J = M; J-- > 0;)
      At(I, J) = B[I] == A[J] ? At(I + 1, J + 1) + 1
                              : std::max(At(I + 1, J), At(I, J + 1));
  for (size_t I = 0, J = 0; I < N && J < M;) {
    if (B[I] == A[J]) {
      Map[J + 1] = I + 1;
      ++I, ++J;
    } else if (At(I + 1, J) >= At(I, J + 1)) {
      ++I;
    } else {
      ++J;
    }
  }
  return Map;
}

struct Side {
  int64_t Syncs = 0, Breaks = 0;
  double Idle = 0;
  /// Over --repeat runs: the largest spread of a total idle added here.
  double Spread = 0;
  bool CountsVary = false;
  bool Any = false;
  void add(const Measured &M) {
    Syncs += M.Syncs;
    Breaks += M.Breaks;
    Idle += M.Idle;
    Spread = std::max(Spread, M.IdleTotalSpread);
    CountsVary |= M.CountsVary;
    Any = true;
  }
};

struct LineRow {
  std::string File;                 ///< the original source
  unsigned Line = 0, AfterLine = 0; ///< Line 0: a line a fix wrote
  Side Before, After;
  std::string Text;
};

/// One run of `seam validate --fixed`: the two copies, what was fixed, and
/// what each version's run measured per line of the original sources.
struct FixedRun {
  Version Before{"before", "", {}, {}, {}};
  Version After{"after", "", {}, {}, {}};
  std::map<std::string, std::string> Original; // copy name to source
  unsigned Offered = 0, Applied = 0;
  unsigned Runs = 1; ///< of each version
  bool Same = false;
  std::string Difference;
  std::map<std::pair<std::string, unsigned>, LineRow> Rows;
  Side TotalB, TotalA;

  std::optional<std::string> copySources(const ValidateFixedOptions &Opts,
                                         const std::string &Root,
                                         CheckOptions &C);
  int applyFixRounds(CheckOptions &C);
  void compareLines();
  void writeJson(llvm::raw_ostream &OS, const ValidateFixedOptions &Opts);
  void writeText(llvm::raw_ostream &OS, const ValidateFixedOptions &Opts);
};

/// Copies the sources into before/ and after/; \p C analyzes the copies
/// with the originals' folders on the quote include path.
std::optional<std::string>
FixedRun::copySources(const ValidateFixedOptions &Opts, const std::string &Root,
                      CheckOptions &C) {
  Before.Dir = Root + "/before";
  After.Dir = Root + "/after";
  for (Version *V : {&Before, &After})
    if (std::error_code EC = llvm::sys::fs::create_directories(V->Dir))
      return "cannot create '" + V->Dir + "': " + EC.message();
  for (const std::string &F : Opts.Check.Files) {
    std::string Name = llvm::sys::path::filename(F).str();
    if (Original.count(Name))
      return "two sources are named '" + Name +
             "': --fixed copies them into one directory";
    if (!llvm::sys::fs::is_regular_file(F))
      return "cannot read '" + F + "': not a file";
    Original[Name] = F;
    for (Version *V : {&Before, &After}) {
      std::string To = V->Dir + "/" + Name;
      if (std::error_code EC = llvm::sys::fs::copy_file(F, To))
        return "cannot copy '" + F + "': " + EC.message();
      V->Sources.push_back(To);
    }
    // The copies find the headers beside the originals.
    llvm::SmallString<128> Dir(F);
    llvm::sys::fs::make_absolute(Dir);
    llvm::sys::path::remove_filename(Dir);
    C.Frontend.ArgsAfter.push_back("-iquote" + std::string(Dir));
  }
  return std::nullopt;
}

/// Applies the fixes to the copies, as often as a run still applies some (a
/// fix that would insert where two others do waits for the next run).
/// Returns 0, or the exit code of an error (reported).
int FixedRun::applyFixRounds(CheckOptions &C) {
  C.Files = After.Sources;
  // Not cached: the copies live in a temporary directory, so their entries
  // would never be hit again.
  C.Cache = false;
  C.Progress = false;
  for (int Round = 0; Round < 4; ++Round) {
    Report R;
    bool InputError = false;
    if (int Code = analyze(C, R, InputError, nullptr, nullptr, nullptr))
      return Code;
    if (InputError)
      return errorExit("the sources could not be analyzed (see above)");
    for (const Finding &F : R.Findings)
      if (F.RuleId == rule_ids::CompileError)
        return errorExit("'" + F.Where.File +
                         "' does not compile with the flags "
                         "given: " +
                         F.Message);
    FixOutcome Done = applyFixes(R.Findings, "");
    if (Done.WriteFailed)
      return errorExit("cannot write the fixed copies");
    if (Round == 0)
      Offered = Done.Offered;
    Applied += Done.Applied;
    if (Done.Applied == 0)
      break;
  }

  return 0;
}

/// Per line of the original sources: what ran there before, and what ran
/// there, or on the lines the fixes wrote, after.
void FixedRun::compareLines() {
  std::map<std::string, std::vector<unsigned>> Maps;
  std::map<std::string, std::vector<std::string>> Texts;
  for (auto &[Name, Source] : Original) {
    std::string B = readText(Before.Dir + "/" + Name);
    std::string A = readText(After.Dir + "/" + Name);
    Maps[Name] = lineMap(B, A);
    llvm::SmallVector<llvm::StringRef> Lines;
    llvm::StringRef(B).split(Lines, '\n');
    for (llvm::StringRef L : Lines)
      Texts[Name].push_back(L.trim().str());
    llvm::SmallVector<llvm::StringRef> ALines;
    llvm::StringRef(A).split(ALines, '\n');
    for (llvm::StringRef L : ALines)
      Texts[Name + "/after"].push_back(L.trim().str());
  }
  auto NameOf = [&](const Version &V, const std::string &File) {
    llvm::SmallString<128> Dir(File);
    llvm::sys::path::remove_filename(Dir);
    llvm::SmallString<128> Own(V.Dir);
    llvm::sys::fs::real_path(V.Dir, Own);
    std::string Name = llvm::sys::path::filename(File).str();
    return (Dir == Own || Dir == V.Dir) && Original.count(Name) ? Name : "";
  };
  for (const Measured &M : Before.Lines) {
    std::string Name = NameOf(Before, M.File);
    if (Name.empty() || M.Region)
      continue;
    LineRow &R = Rows[{Name, M.Line}];
    R.File = Original[Name];
    R.Line = M.Line;
    R.Before.add(M);
    if (M.Line <= Texts[Name].size())
      R.Text = Texts[Name][M.Line - 1];
  }
  for (const Measured &M : After.Lines) {
    std::string Name = NameOf(After, M.File);
    if (Name.empty() || M.Region)
      continue;
    const std::vector<unsigned> &Map = Maps[Name];
    unsigned Line = M.Line < Map.size() ? Map[M.Line] : 0;
    // A line a fix wrote is shown by its own number in the fixed copy.
    LineRow &R = Rows[{Name, Line ? Line : 1000000 + M.Line}];
    R.File = Original[Name];
    R.Line = Line;
    R.AfterLine = M.Line;
    R.After.add(M);
    if (R.Text.empty()) {
      const auto &T = Texts[Line ? Name : Name + "/after"];
      unsigned At = Line ? Line : M.Line;
      if (At >= 1 && At <= T.size())
        R.Text = T[At - 1];
    }
  }
  for (auto &[Key, R] : Rows) {
    TotalB.Syncs += R.Before.Syncs;
    TotalB.Breaks += R.Before.Breaks;
    TotalB.Idle += R.Before.Idle;
    TotalA.Syncs += R.After.Syncs;
    TotalA.Breaks += R.After.Breaks;
    TotalA.Idle += R.After.Idle;
  }
}

void FixedRun::writeJson(llvm::raw_ostream &OS,
                         const ValidateFixedOptions &Opts) {
  nlohmann::json J;
  J["fixesOffered"] = Offered;
  J["fixesApplied"] = Applied;
  J["runs"] = Runs;
  J["sameOutput"] = Same;
  J["outputTolerance"] = Opts.OutputTolerance;
  J["ignoreOutput"] = Opts.IgnoreOutput;
  J["outputDifference"] =
      Same ? nlohmann::json(nullptr) : nlohmann::json(Difference);
  nlohmann::json Lines = nlohmann::json::array();
  for (auto &[Key, R] : Rows) {
    auto SideJson = [](const Side &S) {
      return nlohmann::json{{"syncs", S.Syncs},
                            {"graphBreaks", S.Breaks},
                            {"deviceIdleUs", S.Idle},
                            {"deviceIdleSpread", S.Spread},
                            {"countsVary", S.CountsVary}};
    };
    Lines.push_back(
        {{"file", R.File},
         {"line", R.Line ? nlohmann::json(R.Line) : nlohmann::json(nullptr)},
         {"fixedLine",
          R.AfterLine ? nlohmann::json(R.AfterLine) : nlohmann::json(nullptr)},
         {"source", R.Text},
         {"before", SideJson(R.Before)},
         {"after", SideJson(R.After)}});
  }
  J["lines"] = Lines;
  J["totals"] = {{"before",
                  {{"syncs", TotalB.Syncs},
                   {"graphBreaks", TotalB.Breaks},
                   {"deviceIdleUs", TotalB.Idle}}},
                 {"after",
                  {{"syncs", TotalA.Syncs},
                   {"graphBreaks", TotalA.Breaks},
                   {"deviceIdleUs", TotalA.Idle}}}};
  OS << J.dump(2) << "\n";
}

void FixedRun::writeText(llvm::raw_ostream &OS,
                         const ValidateFixedOptions &Opts) {
  auto Us = [](double V) {
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "%.1f", V);
    return std::string(Buf);
  };
  // Over several runs the spread shows as +-N%; counts that were not the
  // same in every run are marked "(counts vary)".
  auto Idle = [&](const Side &S) {
    std::string T = Us(S.Idle);
    if (Runs > 1)
      T += " +-" + std::to_string(int(std::lround(S.Spread * 100))) + "%";
    if (S.CountsVary)
      T += " (counts vary)";
    return T;
  };
  OS << "seam validate --fixed: " << Applied << " fix"
     << (Applied == 1 ? "" : "es") << " applied (" << Offered
     << " offered); both versions built with the same command "
        "and run "
     << (Runs == 1 ? std::string("once")
                   : std::to_string(Runs) +
                         " times each, alternately (device idle: the median "
                         "of the runs, +-spread)")
     << "\n";
  OS << "line                 syncs      breaks     device idle "
        "(us, measured)   source\n";
  for (auto &[Key, R] : Rows) {
    std::string Where = llvm::sys::path::filename(R.File).str() + ":" +
                        (R.Line ? std::to_string(R.Line)
                                : "new " + std::to_string(R.AfterLine));
    std::string Cell = Where;
    Cell.resize(std::max<size_t>(Cell.size() + 1, 21), ' ');
    auto Pair = [](const std::string &X, const std::string &Y, size_t W) {
      std::string S = X + " -> " + Y;
      S.resize(std::max(S.size() + 1, W), ' ');
      return S;
    };
    OS << Cell
       << Pair(std::to_string(R.Before.Syncs), std::to_string(R.After.Syncs),
               11)
       << Pair(std::to_string(R.Before.Breaks), std::to_string(R.After.Breaks),
               11)
       << Pair(Idle(R.Before), Idle(R.After), 31) << R.Text << "\n";
  }
  OS << "total: syncs " << TotalB.Syncs << " -> " << TotalA.Syncs
     << ", graph breaks " << TotalB.Breaks << " -> " << TotalA.Breaks
     << ", device idle " << Us(TotalB.Idle) << " us -> " << Us(TotalA.Idle)
     << " us (measured by seam::rt in each run"
     << (Runs > 1 ? "; per line the median of the runs" : "") << ")\n";
  if (Same)
    OS << "output: the same (text exactly, numbers with a fraction "
          "within "
       << llvm::format("%g", Opts.OutputTolerance)
       << " relative; lines matching --ignore-output left out)\n";
  else
    OS << "output: DIFFERENT (" << Difference << ")\n";
}

} // namespace

int runValidateFixed(const ValidateFixedOptions &Opts) {
  std::string RegexError;
  if (!llvm::Regex(Opts.IgnoreOutput).isValid(RegexError))
    return errorExit("--ignore-output '" + Opts.IgnoreOutput +
                     "': " + RegexError);
  if (Opts.Check.Files.empty())
    return errorExit("--fixed needs the program's source files");
  if (!Opts.Check.Frontend.HasExtraArgs)
    return errorExit(
        "--fixed analyzes copies of the sources, which a compile "
        "database does not name: give the compiler flags after --");
  // -o may not replace a source (nor anything else the run reads).
  if (!Opts.OutputPath.empty()) {
    std::vector<std::string> Inputs = Opts.Check.Files;
    Inputs.insert(Inputs.end(), Opts.Check.RulePacks.begin(),
                  Opts.Check.RulePacks.end());
    if (std::optional<std::string> Err =
            checkOutputPath(Opts.OutputPath, Inputs))
      return errorExit(*Err + " (from -o)");
  }
  llvm::SmallString<128> Root;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("seam-fixed", Root))
    return errorExit("cannot create a temporary directory: " + EC.message());
  struct Remove {
    std::string Dir;
    ~Remove() {
      if (!std::getenv("SEAM_KEEP_FIXED"))
        llvm::sys::fs::remove_directories(Dir);
    }
  } RemoveRoot{std::string(Root)};

  FixedRun Run;
  CheckOptions C = Opts.Check;
  if (std::optional<std::string> Err =
          Run.copySources(Opts, std::string(Root), C))
    return errorExit(*Err);
  if (int Code = Run.applyFixRounds(C))
    return Code;
  for (Version *V : {&Run.Before, &Run.After})
    if (std::string Why = build(*V, Opts.BuildCommand, Opts.TimeoutSeconds);
        !Why.empty())
      return errorExit(Why);
  // Alternately, so that a machine that gets busier part way through
  // weighs on both versions alike.
  Run.Runs = std::max(1u, Opts.Repeat);
  for (unsigned I = 0; I < Run.Runs; ++I)
    for (Version *V : {&Run.Before, &Run.After})
      if (std::string Why = run(*V, Opts.TimeoutSeconds); !Why.empty())
        return errorExit(Why);
  for (Version *V : {&Run.Before, &Run.After})
    V->Lines = mergeRuns(V->RunLines);
  llvm::Regex Ignore(Opts.IgnoreOutput);
  Run.Same = true;
  for (unsigned I = 0; I < Run.Runs && Run.Same; ++I) {
    Run.Same = sameOutput(kept(Run.Before.Outputs[I], Ignore),
                          kept(Run.After.Outputs[I], Ignore),
                          Opts.OutputTolerance, Run.Difference);
    if (!Run.Same && Run.Runs > 1)
      Run.Difference = "run " + std::to_string(I + 1) + ": " + Run.Difference;
  }
  Run.compareLines();
  if (std::optional<std::string> E =
          writeOutput(Opts.OutputPath, [&](llvm::raw_ostream &OS) {
            if (Opts.Json)
              Run.writeJson(OS, Opts);
            else
              Run.writeText(OS, Opts);
          }))
    return errorExit(*E);
  return Run.Same ? 0 : 1;
}

} // namespace seam
