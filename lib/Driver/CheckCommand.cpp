//===- CheckCommand.cpp - The `seam check` pipeline -----------------------===//
//
// Configuration is read and checked on the main thread; each translation
// unit is then parsed and analyzed on a worker of an llvm::ThreadPool with
// its own AST and its own ApiModel; results are filtered, fingerprinted and
// handed on in the order of the files, so that output does not depend on -j.
//
//===----------------------------------------------------------------------===//
#include "Driver/CheckCommand.h"
#include "Driver/ApplyFixes.h"

#include "ApiModel/ApiModel.h"
#include "Driver/Baseline.h"
#include "Driver/Config.h"
#include "Driver/Output.h"
#include "Driver/ResultCache.h"
#include "Driver/Selection.h"
#include "Driver/SharedPreamble.h"
#include "Pipeline/TranslationUnit.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <chrono>
#include <map>
#include <mutex>
#include <set>

namespace seam {

std::vector<std::string> defaultPackPaths(const std::string &RulesDir) {
  std::vector<std::string> Out;
  for (const char *Name : {"libtorch.json", "seamrt.json"}) {
    llvm::SmallString<256> P(RulesDir);
    llvm::sys::path::append(P, Name);
    Out.push_back(std::string(P));
  }
  return Out;
}

std::string findRulesDir(const char *Argv0) {
  if (auto Env = llvm::sys::Process::GetEnv("SEAM_RULES_DIR");
      Env && !Env->empty())
    return *Env;
  std::string Exe =
      llvm::sys::fs::getMainExecutable(Argv0, (void *)&findRulesDir);
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Dir, "..", "share", "seam", "rules");
  if (llvm::sys::fs::exists(Dir + "/libtorch.json"))
    return std::string(Dir);
#ifdef SEAM_SOURCE_RULES_DIR
  return SEAM_SOURCE_RULES_DIR;
#else
  return std::string(Dir);
#endif
}

std::string projectRoot(const std::string &SarifRoot) {
  llvm::SmallString<256> Dir;
  if (!SarifRoot.empty()) {
    Dir = SarifRoot;
    llvm::sys::fs::make_absolute(Dir);
    llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
    return std::string(Dir);
  }
  if (llvm::sys::fs::current_path(Dir))
    return "";
  for (llvm::StringRef D = Dir; !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Git(D);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return D.str();
  }
  return std::string(Dir);
}

static void errorLine(const std::string &Msg) { errorExit(Msg); }

/// What the command line adds to every compile command.
static std::array<const std::vector<std::string> *, 3>
extraArgs(const FrontendOptions &F) {
  return {&F.ArgsBefore, &F.ArgsAfter, &F.ExtraArgs};
}

/// The part of a cache key that the frontend options make: the extra
/// arguments, and whether system bodies are skipped.
static std::string frontendKey(const FrontendOptions &F) {
  std::string K;
  for (const std::vector<std::string> *A : extraArgs(F))
    K += '\0' + llvm::join(*A, "\x1f");
  return K + (F.SkipSystemBodies ? "\x1eskip" : "\x1ekeep");
}

static std::string absolute(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

/// A regex as clang-tidy reads its filters: the empty one matches no path
/// (an empty llvm::Regex would match every one).
static std::string filterRegex(const std::string &Re) {
  return Re.empty() ? std::string("^$") : Re;
}

/// \p C with the command line applied as clang-tidy applies it: check lists
/// appended to Seam's default and the file's, header filter and profile
/// replaced, regions, shapes and packs added (the command line's first).
static FileConfig effectiveConfig(const FileConfig &C,
                                  const CheckOptions &Opts) {
  FileConfig E = C;
  E.Checks = "seam-*";
  for (const std::optional<std::string> *More : {&C.Checks, &Opts.Checks})
    if (*More)
      *E.Checks += "," + **More;
  std::string WAE = C.WarningsAsErrors.value_or("");
  if (Opts.WarningsAsErrors)
    WAE += (WAE.empty() ? "" : ",") + *Opts.WarningsAsErrors;
  E.WarningsAsErrors = WAE;
  if (Opts.HeaderFilter)
    E.HeaderFilterRegex = *Opts.HeaderFilter;
  if (Opts.ProfileGiven || !E.Profile)
    E.Profile = Opts.Profile;
  if (Opts.DefaultResidency)
    E.DefaultResidency = Opts.DefaultResidency;
  E.Regions.insert(E.Regions.begin(), Opts.Analysis.Regions.RegionGlobs.begin(),
                   Opts.Analysis.Regions.RegionGlobs.end());
  for (const std::string &S : Opts.Shapes)
    E.Shapes[S.substr(0, S.find('='))] = S.substr(S.find('=') + 1);
  for (const std::string &S : Opts.Trips)
    E.Trips[S.substr(0, S.find('='))] = S.substr(S.find('=') + 1);
  E.Rules.insert(E.Rules.begin(), Opts.RulePacks.begin(), Opts.RulePacks.end());
  return E;
}

/// The file loadProfile() reads for \p Name.
static std::string profilePath(const std::string &Name,
                               llvm::StringRef ProfilesDir) {
  if (llvm::StringRef(Name).ends_with(".json") ||
      Name.find('/') != std::string::npos)
    return Name;
  llvm::SmallString<256> P(ProfilesDir);
  llvm::sys::path::append(P, Name + ".json");
  return std::string(P);
}

namespace {

/// Everything one translation unit needs, fixed before the workers start.
struct Job {
  std::string File;
  std::vector<clang::tooling::CompileCommand> Commands;
  const RulePack *Pack = nullptr;
  CostOptions Cost;
  AnalysisOptions Analysis;
  ResultFilter Filter;
  std::optional<std::string> Error; ///< not parsed: this says why
  std::string CacheKey;             ///< "" = not cached
};

struct Outcome {
  ParseResult Parse;
  TUAnalysis Analysis;
  bool Done = false;
  bool Cached = false;
};

/// What the cache key holds besides the sources: Seam itself (a hash of its
/// executable), and the contents of packs and profiles by path.
class KeyParts {
public:
  const std::string &seam() {
    if (Seam.empty()) {
      std::string Exe = llvm::sys::fs::getMainExecutable(
          "seam", reinterpret_cast<void *>(&findRulesDir));
      Seam = std::string(SeamVersion) + ":" + ResultCache::hashFile(Exe);
    }
    return Seam;
  }
  const std::string &file(const std::string &Path) {
    auto [It, New] = Files.try_emplace(Path);
    if (New)
      It->second = ResultCache::hashFile(Path);
    return It->second;
  }

private:
  std::string Seam;
  std::map<std::string, std::string> Files;
};

/// Merged rule packs, one per distinct list of pack paths.
class PackCache {
public:
  llvm::Expected<const RulePack *> get(const std::vector<std::string> &Paths) {
    std::string Key = llvm::join(Paths, "\n");
    if (auto It = Cache.find(Key); It != Cache.end())
      return &It->second;
    RulePack Merged;
    for (const std::string &Path : Paths) {
      llvm::Expected<RulePack> P = loadRulePack(Path);
      if (!P)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "invalid rule pack: " +
                                           llvm::toString(P.takeError()));
      mergeRulePack(Merged, *P);
    }
    return &(Cache[Key] = std::move(Merged));
  }

private:
  std::map<std::string, RulePack> Cache;
};

} // namespace

int analyze(const CheckOptions &Opts, Report &R, bool &InputError,
            const std::function<bool(const RunInputs &)> &BeforeParse,
            const std::function<void(llvm::ArrayRef<Finding>)> &OnFile,
            RunInputs *Inputs) {
  InputError = false;
  RunInputs Own;
  RunInputs &In = Inputs ? *Inputs : Own;
  auto Declare = [&](const std::string &Path) {
    if (!Path.empty())
      In.Declared.push_back(Path);
  };
  auto Fail = [&](const std::string &Input, const std::string &Msg) {
    errorLine(Msg);
    R.Errors.push_back({Input, Msg});
    InputError = true;
  };

  // What the command line sets for every file; errors here stop the run
  // before any parsing.
  std::vector<std::string> BasePacks;
  if (Opts.DefaultRules)
    BasePacks = defaultPackPaths(Opts.RulesDir);
  BasePacks.insert(BasePacks.end(), Opts.RulePacks.begin(),
                   Opts.RulePacks.end());
  PackCache Packs;
  llvm::Expected<const RulePack *> Base = Packs.get(BasePacks);
  if (!Base) {
    errorLine(llvm::toString(Base.takeError()));
    return 2;
  }
  R.RulePacks = BasePacks;
  if (!Opts.SarifRoot.empty() && !llvm::sys::fs::is_directory(Opts.SarifRoot)) {
    errorLine("--sarif-root '" + Opts.SarifRoot + "' is not a directory");
    return 2;
  }
  // As clang-tidy: a check list that enables nothing is an error, not a
  // silent pass (a typo such as -*,seam-hostsync).
  if (Opts.Checks &&
      enabledChecks(GlobList("seam-*," + *Opts.Checks)).empty()) {
    errorLine("no checks enabled by --checks '" + *Opts.Checks +
              "' (known: " + llvm::join(enabledChecks(GlobList("*")), ", ") +
              "; see --list-checks)");
    return 2;
  }
  for (const std::string &P : BasePacks)
    Declare(P);
  for (const std::string &F : Opts.Files)
    Declare(F);
  Declare(Opts.ConfigFile);
  Declare(Opts.BaselinePath);
  if (!Opts.Frontend.BuildDir.empty())
    for (const char *Name : {"compile_commands.json", "compile_flags.txt"}) {
      llvm::SmallString<256> P(Opts.Frontend.BuildDir);
      llvm::sys::path::append(P, Name);
      Declare(std::string(P));
    }
  for (const std::string &G : Opts.Analysis.Regions.RegionGlobs)
    if (auto E = llvm::GlobPattern::create(G); !E) {
      errorLine("invalid --region pattern '" + G +
                "': " + llvm::toString(E.takeError()));
      return 2;
    }
  llvm::SmallString<256> ProfilesDir(Opts.RulesDir);
  llvm::sys::path::append(ProfilesDir, "profiles");
  std::map<std::string, DeviceProfile> Profiles;
  auto ProfileFor = [&](const std::string &Name,
                        std::string &Err) -> const DeviceProfile * {
    if (auto It = Profiles.find(Name); It != Profiles.end())
      return &It->second;
    llvm::Expected<DeviceProfile> P = loadProfile(Name, ProfilesDir);
    if (!P) {
      Err = "invalid profile: " + llvm::toString(P.takeError());
      return nullptr;
    }
    return &(Profiles[Name] = std::move(*P));
  };
  {
    std::string Err;
    if (!ProfileFor(Opts.Profile, Err)) {
      errorLine(Err);
      return 2;
    }
  }
  ShapeHints CmdHints;
  {
    ApiModel Api(**Base);
    for (const std::string &S : Opts.Shapes)
      if (auto Err = parseShapeHint(S, Api, CmdHints)) {
        errorLine("invalid --shape '" + S + "': " + *Err);
        return 2;
      }
    TripHints CmdTrips;
    for (const std::string &S : Opts.Trips)
      if (auto Err = parseTripHint(S, CmdTrips)) {
        errorLine("invalid --trips '" + S + "': " + *Err);
        return 2;
      }
  }
  std::optional<llvm::Regex> CmdHeader, CmdExclude;
  for (auto [Opt, Into, Name] :
       {std::make_tuple(&Opts.HeaderFilter, &CmdHeader, "--header-filter"),
        std::make_tuple(&Opts.ExcludeHeaderFilter, &CmdExclude,
                        "--exclude-header-filter")})
    if (*Opt) {
      Into->emplace(filterRegex(**Opt));
      std::string Err;
      if (!(*Into)->isValid(Err)) {
        errorLine(std::string("invalid ") + Name + " '" + **Opt + "': " + Err);
        return 2;
      }
    }
  LineFilter Lines;
  if (!Opts.LineFilterJson.empty()) {
    llvm::Expected<LineFilter> LF = LineFilter::parse(Opts.LineFilterJson);
    if (!LF) {
      errorLine(llvm::toString(LF.takeError()));
      return 2;
    }
    Lines = std::move(*LF);
  }
  std::optional<Shard> Split;
  if (!Opts.Shard.empty()) {
    llvm::Expected<Shard> S = parseShard(Opts.Shard);
    if (!S) {
      errorLine(llvm::toString(S.takeError()));
      return 2;
    }
    Split = *S;
  }
  if (!Opts.ConfigFile.empty() &&
      !llvm::sys::fs::is_regular_file(Opts.ConfigFile)) {
    errorLine("no such configuration file: '" + Opts.ConfigFile +
              "' (from --config-file)");
    return 2;
  }
  std::optional<Baseline> Accepted;
  if (!Opts.BaselinePath.empty()) {
    llvm::Expected<Baseline> B = Baseline::load(Opts.BaselinePath);
    if (!B) {
      errorLine(llvm::toString(B.takeError()));
      return 2;
    }
    Accepted = std::move(*B);
  }

  std::string Warning;
  auto DB = makeCompilationDatabase(Opts.Frontend, Warning);
  if (!DB) {
    errorLine(llvm::toString(DB.takeError()));
    return 2;
  }
  if (!Warning.empty() && !Opts.Quiet)
    llvm::errs() << "seam: warning: " << Warning << "\n";

  std::vector<std::string> SelectErrors;
  std::vector<std::string> Files =
      selectFiles(Opts.Frontend.BuildDir.empty() ? nullptr : DB->get(),
                  Opts.Files, SelectErrors);
  for (const std::string &E : SelectErrors)
    Fail("", E);
  // A database with no entries analyzes nothing: say so rather than pass.
  // (An empty shard of a database that has files is fine.)
  if (Files.empty() && Opts.Files.empty() && !Opts.Frontend.BuildDir.empty()) {
    errorLine("no file to analyze: the compile database in '" +
              Opts.Frontend.BuildDir + "' lists none");
    return 2;
  }
  R.SourceRoot = projectRoot(Opts.SarifRoot);
  In.Partial = !Opts.Files.empty() || Split.has_value();
  if (Split)
    llvm::erase_if(Files, [&](const std::string &F) {
      return !inShard(relativeToRoot(absolute(F), R.SourceRoot), *Split);
    });

  // Per file: its configuration, and what it sets on top of the command
  // line. A bad configuration costs the files it governs, not the run.
  ConfigFinder Configs(Opts.ConfigFile);
  KeyParts Parts;
  std::optional<ResultCache> Cache;
  if (Opts.Cache)
    Cache.emplace(Opts.CacheDir, Opts.CacheMaxMB << 20);
  std::vector<Job> Jobs;
  for (const std::string &File : Files) {
    Job J;
    J.File = File;
    llvm::Expected<FileConfig> C = Configs.forFile(File);
    auto Bad = [&](const std::string &Why) {
      J.Error =
          "invalid configuration: " + Why + "; '" + File + "' was not analyzed";
    };
    if (!C) {
      Bad(llvm::toString(C.takeError()));
      Jobs.push_back(std::move(J));
      continue;
    }
    FileConfig Eff = effectiveConfig(*C, Opts);
    Declare(absolute(File));
    for (const std::string &S : C->Sources)
      Declare(S);
    for (const std::string &P : C->Rules)
      Declare(P);
    std::vector<std::string> PackPaths = BasePacks;
    PackPaths.insert(PackPaths.end(), C->Rules.begin(), C->Rules.end());
    llvm::Expected<const RulePack *> Pack = Packs.get(PackPaths);
    std::string Err;
    const DeviceProfile *Prof = nullptr;
    if (!Pack) {
      Bad(C->path() + ": " + llvm::toString(Pack.takeError()));
    } else if (!(Prof = ProfileFor(*Eff.Profile, Err))) {
      Bad(C->path() + ": " + Err);
    } else {
      J.Pack = *Pack;
      J.Cost.Profile = *Prof;
      J.Cost.AllRegionRows = Opts.AllRegionRows;
      J.Analysis = Opts.Analysis;
      J.Analysis.Regions.RegionGlobs = Eff.Regions;
      J.Analysis.AssumeHost = Eff.DefaultResidency.value_or("") == "host";
      for (const std::string &G : C->Regions)
        if (auto E = llvm::GlobPattern::create(G); !E && !J.Error)
          Bad(C->path() + ": invalid region pattern '" + G +
              "': " + llvm::toString(E.takeError()));
      ApiModel Api(*J.Pack);
      for (auto &[Name, Count] : Eff.Trips)
        if (auto E = parseTripHint(Name + "=" + Count, J.Cost.Trips);
            E && !J.Error)
          Bad(C->path() + ": invalid Trips entry '" + Name + ": " + Count +
              "': " + *E);
      for (const std::string &S : Eff.shapeHints())
        if (auto E = parseShapeHint(S, Api, J.Cost.Hints); E && !J.Error)
          Bad(C->path() + ": invalid shape '" + S + "': " + *E);
      J.Filter.Checks = GlobList(*Eff.Checks);
      J.Filter.WarningsAsErrors = GlobList(*Eff.WarningsAsErrors);
      J.Filter.MainFile = absolute(File);
      J.Filter.Lines = Lines.empty() ? nullptr : &Lines;
      if (Eff.HeaderFilterRegex) {
        J.Filter.HeaderFilter.emplace(filterRegex(*Eff.HeaderFilterRegex));
        std::string ReErr;
        if (!J.Filter.HeaderFilter->isValid(ReErr) && !J.Error)
          Bad(C->path() + ": invalid HeaderFilterRegex '" +
              *Eff.HeaderFilterRegex + "': " + ReErr);
      }
      if (Opts.ExcludeHeaderFilter)
        J.Filter.ExcludeHeaderFilter.emplace(
            filterRegex(*Opts.ExcludeHeaderFilter));
    }
    if (!J.Error) {
      if (std::optional<std::string> E = checkSourceFile(**DB, File))
        J.Error = *E;
      else
        J.Commands = commandsFor(**DB, File);
      // A file the database lists twice is analyzed once, with its first
      // command, as clang-tidy does.
      if (J.Commands.size() > 1)
        J.Commands.resize(1);
      if (Opts.Cache) {
        // Everything but the sources that can change this TU's results.
        std::string K = Parts.seam() + '\0' + absolute(File) + '\0';
        for (const clang::tooling::CompileCommand &Cmd : J.Commands)
          K += Cmd.Directory + '\0' + llvm::join(Cmd.CommandLine, "\x1f");
        K += frontendKey(Opts.Frontend);
        K += Opts.Analysis.ReportColdSyncs ? "\x1e"
                                             "cold"
                                           : "\x1e"
                                             "hot";
        for (const std::string &P : PackPaths)
          K += '\0' + P + '=' + Parts.file(P);
        K += '\0' + *Eff.Profile + '=' +
             Parts.file(profilePath(*Eff.Profile, ProfilesDir));
        std::string Dump;
        llvm::raw_string_ostream DS(Dump);
        dumpConfig(DS, Eff);
        K += '\0' + DS.str();
        J.CacheKey = ResultCache::hash(K);
      }
    }
    Jobs.push_back(std::move(J));
  }

  for (auto &[Name, P] : Profiles)
    Declare(P.Path);
  if (BeforeParse && !BeforeParse(In))
    return 2;

  // Workers parse and analyze; whoever finishes hands on every result that
  // is now next in file order.
  std::vector<Outcome> Outcomes(Jobs.size());
  std::mutex Lock;
  size_t NextToEmit = 0, Finished = 0;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Seen;
  std::set<std::string> AnalyzedFiles;
  bool Progress =
      Opts.Progress.value_or(!Opts.Quiet && llvm::errs().is_displayed());
  // A header reached through a symlink and through its own path is one
  // file: its results are kept once, under the first spelling seen.
  std::map<std::string, std::string> RealPaths;
  auto realFile = [&](const std::string &File) -> const std::string & {
    auto [It, New] = RealPaths.try_emplace(File, File);
    llvm::SmallString<256> Real;
    if (New && !llvm::sys::fs::real_path(File, Real))
      It->second = std::string(Real);
    return It->second;
  };
  auto Emit = [&](size_t I) {
    Job &J = Jobs[I];
    Outcome &O = Outcomes[I];
    if (J.Error) {
      Fail(J.File, *J.Error);
      return;
    }
    if (!O.Parse.Ok)
      Fail(J.File, O.Parse.Error);
    if (Cache) // with --no-cache nothing was looked up
      ++(O.Cached ? R.CacheHits : R.CacheMisses);
    AnalyzedFiles.insert(relativeToRoot(J.Filter.MainFile, R.SourceRoot));
    for (const std::string &F : O.Analysis.Incomplete)
      llvm::errs() << "seam: note: the analysis of '" << F
                   << "' stopped at its iteration limit; its results may "
                      "be incomplete\n";
    R.Incomplete += O.Analysis.Incomplete.size();
    // Seam never rewrites code that does not compile: what the parse
    // recovered may not be what the user meant.
    if (!O.Parse.CompileErrors.empty())
      for (Finding &F : O.Analysis.Findings)
        if (F.AutoFix) {
          F.AutoFix.reset();
          F.NoFixReason = "the translation unit has compile errors; Seam "
                          "rewrites only code that compiles";
        }
    std::vector<Finding> Batch = std::move(O.Parse.CompileErrors);
    for (std::vector<Finding> *From :
         {&O.Analysis.Findings, &O.Analysis.NolintProblems})
      Batch.insert(Batch.end(), std::make_move_iterator(From->begin()),
                   std::make_move_iterator(From->end()));
    llvm::erase_if(Batch, [&](Finding &F) { return !J.Filter.apply(F); });
    sortAndDedupe(Batch);
    // A header's results come once, with the first file that includes it.
    llvm::erase_if(Batch, [&](const Finding &F) {
      return !Seen.insert({realFile(F.Where.File), F.Where.Line, F.Where.Column,
                           F.RuleId == "clang-diagnostic-error"
                               ? F.RuleId + F.Message
                               : F.RuleId})
                  .second;
    });
    assignFingerprints(Batch, R.SourceRoot);
    for (const Finding &F : Batch)
      AnalyzedFiles.insert(relativeToRoot(F.Where.File, R.SourceRoot));
    if (!Opts.WriteBaselinePath.empty())
      R.Unfiltered.insert(R.Unfiltered.end(), Batch.begin(), Batch.end());
    if (Accepted)
      R.Baselined += Accepted->filter(Batch, today());
    R.Summary.insert(R.Summary.end(), O.Analysis.Summary.begin(),
                     O.Analysis.Summary.end());
    if (OnFile)
      OnFile(Batch);
    R.Findings.insert(R.Findings.end(), std::make_move_iterator(Batch.begin()),
                      std::make_move_iterator(Batch.end()));
    O.Analysis = TUAnalysis();
  };

  std::string CacheWarning;
  std::string SpaceWarning; // a preamble directory without room for a PCH
  // Cache lookups first: what they answer is not parsed at all.
  std::vector<std::optional<CachedTU>> Hits(Jobs.size());
  for (size_t I = 0; I < Jobs.size(); ++I)
    if (!Jobs[I].Error && Cache && !Jobs[I].CacheKey.empty()) {
      std::string Note;
      Hits[I] = Cache->lookup(Jobs[I].CacheKey, Note);
      if (!Note.empty())
        llvm::errs() << "seam: note: " << Note << "\n";
    }

  unsigned Threads = Opts.Jobs
                         ? Opts.Jobs
                         : llvm::hardware_concurrency().compute_thread_count();
  Threads = std::max(1u, std::min<unsigned>(Threads, Jobs.size()));
  auto RunAll = [&](size_t N, const std::function<void(size_t)> &Fn) {
    if (Threads <= 1 || N <= 1) {
      for (size_t I = 0; I < N; ++I)
        Fn(I);
      return;
    }
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
    for (size_t I = 0; I < N; ++I)
      Pool.async([&Fn, I] { Fn(I); });
    Pool.wait();
  };

  // Files left to parse that begin with the same includes and share flags
  // share one precompiled preamble; the others, one of the system headers
  // they all reach first (SharedPreamble.h).
  struct Preamble {
    std::vector<size_t> Members;
    std::string Header, Pch;
    std::vector<std::pair<std::string, std::string>> Deps;
    std::vector<PreambleInput> Inputs; // every file it read (with a cache)
    bool Ok = false;
    std::vector<std::string> Temporary; // removed at the end of the run
    bool Reused = false;                // from the cache, not built
    bool MayBuild = true;               // false: only reused from the cache
    std::string Key;                    // in the cache
    int Base = -1;                      // the preamble this one is built on
    std::vector<size_t> Chained;        // the preambles built on this one
    size_t CommandJob = 0;              // whose command builds it
  };
  std::vector<Preamble> Preambles;
  std::vector<int> PreambleOf(Jobs.size(), -1);
  llvm::SmallString<128> PreambleDir;
  // Files whose results are cached take part in the plan, so that the
  // files left to parse get the preambles of earlier runs; a preamble that
  // only one of those would use is reused from the cache, never built.
  // A preamble of files that begin alike is built on the preamble of the
  // system headers they reach first, when there is one (a chained PCH):
  // editing the project headers it holds rebuilds only that part.
  std::vector<int> Stage1Of(Jobs.size(), -1);
  // With a cache, a file alone in its flags (one file named, as pre-commit
  // and CMAKE_CXX_CLANG_TIDY run Seam) gets a preamble of the system headers
  // it reaches first: built once, it is reused by the next run that parses
  // the file.
  auto AddPreamble = [&](const std::string &Text,
                         const std::vector<size_t> &All, bool Stage1,
                         bool Alone = false) {
    std::vector<size_t> Members;
    std::vector<size_t> Chained;
    for (size_t M : All) {
      if (!Stage1 && Stage1Of[M] >= 0) {
        if (!llvm::is_contained(Chained, size_t(Stage1Of[M])))
          Chained.push_back(Stage1Of[M]);
        continue;
      }
      if (!Hits[M])
        Members.push_back(M);
    }
    size_t Users = Members.size();
    for (size_t G : Chained)
      Users += Preambles[G].Members.size();
    if (Users == 0 || (Users < 2 && !Cache))
      return;
    if (PreambleDir.empty() &&
        llvm::sys::fs::createUniqueDirectory("seam-preamble", PreambleDir))
      return;
    Preamble P;
    P.Members = Members;
    P.MayBuild = Users >= 2 || Alone;
    P.Chained = Chained;
    P.CommandJob =
        Members.empty() ? Preambles[Chained.front()].CommandJob : Members[0];
    std::string Base = std::string(PreambleDir) + "/preamble-" +
                       std::to_string(Preambles.size());
    P.Header = Base + ".h";
    P.Pch = Base + ".pch";
    P.Temporary = {P.Header, P.Pch};
    std::error_code EC;
    llvm::raw_fd_ostream OS(P.Header, EC);
    if (EC)
      return;
    OS << Text;
    OS.close();
    if (OS.has_error()) { // a full temporary directory: no preamble
      OS.clear_error();
      return;
    }
    int Index = static_cast<int>(Preambles.size());
    for (size_t G : Chained)
      Preambles[G].Base = Index;
    for (size_t M : Members)
      PreambleOf[M] = Index;
    if (Stage1)
      for (size_t M : All)
        Stage1Of[M] = Index;
    Preambles.push_back(std::move(P));
  };
  std::function<void(size_t)> BuildPreamble;
  bool AnyToParse = false;
  for (size_t I = 0; I < Jobs.size(); ++I)
    AnyToParse |= !Jobs[I].Error && !Hits[I];
  // Something included before every file: no preamble may go first.
  bool ForcedForAll = llvm::any_of(
      extraArgs(Opts.Frontend),
      [](const std::vector<std::string> *A) { return hasForcedIncludes(*A); });
  if (Opts.SharePreambles && AnyToParse && !ForcedForAll) {
    std::map<std::string, std::vector<size_t>> Groups;
    std::vector<size_t> Candidates;
    for (size_t I = 0; I < Jobs.size(); ++I) {
      const Job &J = Jobs[I];
      if (J.Error || J.Commands.empty() ||
          hasForcedIncludes(J.Commands.front().CommandLine))
        continue;
      Candidates.push_back(I);
      auto Buf = llvm::MemoryBuffer::getFile(J.File, /*IsText=*/true);
      if (!Buf)
        continue;
      std::string Lead = leadingIncludes(
          (*Buf)->getBuffer(), llvm::sys::path::parent_path(J.Filter.MainFile));
      if (!Lead.empty())
        Groups[Lead + '\0' + preambleFlags(J.Commands.front())].push_back(I);
    }
    for (auto &[Key, Members] : Groups)
      if (Members.size() >= 2)
        AddPreamble(Key.substr(0, Key.find('\0')), Members, true);

    // The rest, by flags, with the system headers each reaches first.
    struct FlagsGroup {
      std::vector<size_t> Jobs;
      std::vector<std::vector<std::string>> Leading;
      std::vector<std::string> Union; // in the order first reached
      std::map<std::string, uint64_t> Bytes;
      std::string MeasureHeader;
    };
    std::map<std::string, FlagsGroup> ByFlags;
    for (size_t I : Candidates) {
      const clang::tooling::CompileCommand &C = Jobs[I].Commands.front();
      std::vector<std::string> Lead =
          leadingSystemHeaders(absolute(Jobs[I].File), includeDirs(C));
      if (Lead.empty())
        continue;
      FlagsGroup &G = ByFlags[preambleFlags(C)];
      for (const std::string &H : Lead)
        if (!llvm::is_contained(G.Union, H))
          G.Union.push_back(H);
      G.Jobs.push_back(I);
      G.Leading.push_back(std::move(Lead));
    }
    std::vector<FlagsGroup *> ToMeasure;
    for (auto &[Flags, G] : ByFlags) {
      if (G.Jobs.size() == 1 && Cache && !Hits[G.Jobs.front()]) {
        std::string Text;
        for (const std::string &H : G.Leading.front())
          Text += "#include " + H + "\n";
        AddPreamble(Text, G.Jobs, false, /*Alone=*/true);
        continue;
      }
      if (G.Jobs.size() < 2 ||
          llvm::all_of(G.Jobs, [&](size_t I) { return Hits[I].has_value(); }))
        continue;
      if (PreambleDir.empty() &&
          llvm::sys::fs::createUniqueDirectory("seam-preamble", PreambleDir))
        break;
      G.MeasureHeader = std::string(PreambleDir) + "/measure-" +
                        std::to_string(ToMeasure.size()) + ".h";
      std::error_code EC;
      llvm::raw_fd_ostream OS(G.MeasureHeader, EC);
      if (EC)
        continue;
      for (const std::string &H : G.Union)
        OS << "#include " << H << "\n";
      OS.close();
      if (OS.has_error()) {
        OS.clear_error();
        continue;
      }
      ToMeasure.push_back(&G);
    }
    // What each header brings decides which are worth sharing.
    RunAll(ToMeasure.size(), [&](size_t I) {
      FlagsGroup &G = *ToMeasure[I];
      if (std::optional<std::vector<uint64_t>> B =
              measureIncludes(Jobs[G.Jobs.front()].Commands.front(),
                              Opts.Frontend, G.MeasureHeader))
        for (size_t L = 0; L < G.Union.size() && L < B->size(); ++L)
          G.Bytes[G.Union[L]] = (*B)[L];
    });
    for (FlagsGroup *G : ToMeasure) {
      llvm::sys::fs::remove(G->MeasureHeader);
      for (const SystemPreamble &SP :
           planSystemPreambles(G->Leading, G->Bytes)) {
        std::string Text;
        for (const std::string &H : SP.Headers)
          Text += "#include " + H + "\n";
        std::vector<size_t> Members;
        for (size_t M : SP.Members)
          Members.push_back(G->Jobs[M]);
        AddPreamble(Text, Members, false);
      }
    }
    BuildPreamble = [&](size_t I) {
      Preamble &P = Preambles[I];
      const clang::tooling::CompileCommand &C =
          Jobs[P.CommandJob].Commands.front();
      // Built on its base when that one was built; alone otherwise.
      const Preamble *Base =
          P.Base >= 0 && Preambles[P.Base].Ok ? &Preambles[P.Base] : nullptr;
      std::string Text;
      if (auto Buf = llvm::MemoryBuffer::getFile(P.Header, /*IsText=*/true))
        Text = (*Buf)->getBuffer().str();
      // Kept between runs: everything the PCH depends on but its inputs,
      // whose sizes and times the cache checks.
      std::string &Key = P.Key;
      if (Cache) {
        Key = Parts.seam() + '\0' + Text + '\0' + preambleFlags(C);
        Key += frontendKey(Opts.Frontend);
        if (Base)
          Key += "\x1e" + Base->Key;
        Key = ResultCache::hash(Key);
        std::string Note;
        std::optional<CachedPreamble> Hit = Cache->lookupPreamble(Key, Note);
        if (!Note.empty()) {
          std::lock_guard<std::mutex> G(Lock);
          llvm::errs() << "seam: note: " << Note << "\n";
        }
        if (Hit) {
          P.Reused = true;
          P.Header = Hit->Header;
          P.Pch = Hit->Pch;
          P.Deps = std::move(Hit->Deps);
          P.Inputs = std::move(Hit->Inputs);
          P.Ok = true;
          return;
        }
      }
      if (!P.MayBuild)
        return; // one file: parsing it alone costs no more
      std::string Header = P.Header, Pch = P.Pch;
      std::optional<CachedPreamble> Slot;
      if (Cache) {
        llvm::Expected<CachedPreamble> S = Cache->preparePreamble(Key, Text);
        if (S) {
          Slot = std::move(*S);
          Header = Slot->Header;
          Pch = Slot->Pch;
        } else {
          std::lock_guard<std::mutex> G(Lock);
          if (CacheWarning.empty())
            CacheWarning = llvm::toString(S.takeError());
          else
            llvm::consumeError(S.takeError());
        }
      }
      // Clang cannot recover from a full disk while it writes a PCH (LLVM
      // ends the process): a preamble is built only where there is room.
      {
        llvm::SmallString<256> Dir(Pch);
        llvm::sys::path::remove_filename(Dir);
        llvm::ErrorOr<llvm::sys::fs::space_info> Space =
            llvm::sys::fs::disk_space(Dir);
        constexpr uint64_t MinFree = 256ull << 20;
        if (Space && Space->available < MinFree) {
          std::lock_guard<std::mutex> G(Lock);
          if (SpaceWarning.empty())
            SpaceWarning = "'" + std::string(Dir) + "' has " +
                           std::to_string(Space->available >> 20) +
                           " MiB free: shared preambles are not built there "
                           "(at least 256 MiB; files are parsed without them)";
          return;
        }
      }
      std::vector<PreambleInput> Inputs;
      std::optional<std::string> Err = buildPch(
          C, Opts.Frontend, Header, Pch,
          [&](const clang::SourceManager &SM) {
            // The preamble's own header is this run's, not a source.
            P.Deps = ResultCache::dependencies(SM);
            llvm::erase_if(P.Deps,
                           [&](const auto &D) { return D.first == Header; });
            if (Cache)
              Inputs = ResultCache::inputs(SM);
          },
          Base ? Base->Pch : "");
      if (Base) {
        // What the base read, and the base itself: rebuilt, it is new.
        P.Deps.insert(P.Deps.end(), Base->Deps.begin(), Base->Deps.end());
        llvm::sys::fs::file_status St;
        if (!llvm::sys::fs::status(Base->Pch, St))
          Inputs.push_back({Base->Pch, St.getSize(),
                            ResultCache::modificationTime(Base->Pch)});
        Inputs.insert(Inputs.end(), Base->Inputs.begin(), Base->Inputs.end());
      }
      P.Inputs = Inputs;
      // Without it, each file parses its includes itself, as always.
      P.Ok = !Err;
      if (!Slot)
        return;
      if (!P.Ok) {
        llvm::sys::fs::remove(Pch);
        return;
      }
      Slot->Deps = P.Deps;
      if (std::optional<std::string> E =
              Cache->commitPreamble(Key, *Slot, Inputs)) {
        // Still usable for this run where it was built.
        std::lock_guard<std::mutex> G(Lock);
        if (CacheWarning.empty())
          CacheWarning = *E;
        P.Pch = Pch; // the temporary PCH, removed at the end
        P.Temporary.push_back(Pch);
        return;
      }
      P.Header = Header;
      P.Pch = Cache->preambleDir(Key) + "/preamble.pch";
    };
  }

  std::vector<int> Used(Jobs.size(), -1); // the preamble a parse used
  auto RunJob = [&](size_t I) {
    Job &J = Jobs[I];
    Outcome O;
    std::vector<std::string> Read; // for RunInputs::Read
    if (Hits[I]) {
      for (const auto &D : Hits[I]->Deps)
        Read.push_back(D.first);
      O.Parse = std::move(Hits[I]->Parse);
      O.Analysis = std::move(Hits[I]->Analysis);
      O.Cached = true;
    }
    if (!J.Error && !O.Cached) {
      ApiModel Api(*J.Pack); // its caches are per thread and per AST
      std::vector<std::pair<std::string, std::string>> Deps;
      std::vector<PreambleInput> Inputs;
      bool Analyzed = false;
      // Its preamble, else the one that was to be built on (it holds the
      // system headers the file reaches first).
      int PI = PreambleOf[I];
      if (PI >= 0 && !Preambles[PI].Ok)
        PI = Preambles[PI].Base >= 0 && Preambles[Preambles[PI].Base].Ok
                 ? Preambles[PI].Base
                 : -1;
      const Preamble *P = PI >= 0 ? &Preambles[PI] : nullptr;
      auto Parse = [&](const std::string &Pch) {
        O.Analysis = TUAnalysis();
        Analyzed = false;
        return parseFile(
            J.Commands, Opts.Frontend, J.File,
            [&](clang::ASTContext &Ctx) {
              O.Analysis = analyzeTranslationUnit(Ctx, Api, J.Analysis, J.Cost);
              Deps = ResultCache::dependencies(Ctx.getSourceManager());
              // The project's files are Deps, by content.
              if (Cache)
                Inputs = ResultCache::inputs(Ctx.getSourceManager(),
                                             /*SystemOnly=*/true);
              Analyzed = true;
            },
            Pch);
      };
      O.Parse = Parse(P ? P->Pch : "");
      // A file whose preamble clang refused (changed since it was built,
      // or not loadable) is parsed without it. Errors of the file's own
      // are the same either way: they are not parsed twice.
      auto Refused = [&] {
        if (O.Parse.CompileErrors.empty())
          return true; // the compiler did not run
        for (const Finding &E : O.Parse.CompileErrors)
          // Also a base it was chained on (replaced or evicted by a
          // concurrent run: "PCH file '...' is out of date", "not found").
          if (llvm::StringRef(E.Message).contains(P->Pch) ||
              llvm::StringRef(E.Message).contains("precompiled header") ||
              llvm::StringRef(E.Message).contains("AST file") ||
              llvm::StringRef(E.Message).contains("PCH file") ||
              llvm::StringRef(E.Message).contains("module file") ||
              E.Where.File == P->Header)
            return true;
        return false;
      };
      if (P && !O.Parse.Ok && Refused()) {
        // A cached one clang cannot load is dropped, not tried again.
        if (P->Reused) {
          std::lock_guard<std::mutex> G(Lock);
          if (Cache->dropPreamble(P->Key))
            llvm::errs() << "seam: note: the cached preamble '" << P->Pch
                         << "' could not be loaded; it is built again on the "
                            "next run\n";
        }
        O.Parse = Parse("");
        P = nullptr;
      }
      if (P) {
        Used[I] = PI;
        Inputs.insert(Inputs.end(), P->Inputs.begin(), P->Inputs.end());
        Deps.insert(Deps.end(), P->Deps.begin(), P->Deps.end());
        std::sort(Deps.begin(), Deps.end());
        Deps.erase(std::unique(Deps.begin(), Deps.end()), Deps.end());
      }
      for (const auto &D : Deps)
        Read.push_back(D.first);
      // A TU with compile errors is stored too (its errors are results,
      // and come from the files it read), unless a file was missing: one
      // that appears later would not invalidate the entry.
      bool Missing = !O.Parse.Ok && O.Parse.CompileErrors.empty();
      for (const Finding &E : O.Parse.CompileErrors)
        Missing |= llvm::StringRef(E.Message).ends_with("file not found") ||
                   llvm::StringRef(E.Message).contains("no such file");
      if (Cache && !J.CacheKey.empty() && Analyzed && !Missing)
        if (std::optional<std::string> Err =
                Cache->store(J.CacheKey, {O.Parse, O.Analysis, Deps, Inputs})) {
          std::lock_guard<std::mutex> G(Lock);
          if (CacheWarning.empty())
            CacheWarning = *Err;
        }
    }
    std::lock_guard<std::mutex> G(Lock);
    In.Read.insert(Read.begin(), Read.end());
    Outcomes[I] = std::move(O);
    Outcomes[I].Done = true;
    ++Finished;
    if (Progress && !J.Error) {
      char Secs[32];
      std::snprintf(Secs, sizeof(Secs), "%.1fs", Outcomes[I].Parse.Seconds);
      llvm::errs() << "[" << Finished << "/" << Jobs.size() << "] "
                   << relativeToRoot(absolute(J.File), R.SourceRoot) << " "
                   << (Outcomes[I].Cached ? std::string("cached") : Secs);
      if (Used[I] >= 0)
        llvm::errs() << " (shared preamble " << (Used[I] + 1) << " of "
                     << Preambles.size()
                     << (Preambles[Used[I]].Reused ? ", reused" : "") << ")";
      llvm::errs() << "\n";
    }
    while (NextToEmit < Outcomes.size() && Outcomes[NextToEmit].Done)
      Emit(NextToEmit++);
  };

  // Each file is parsed as soon as its preamble is built: the files of a
  // small preamble, and those without one, do not wait for the largest.
  if (Threads <= 1 || Jobs.size() <= 1) {
    for (bool Chained : {false, true})
      for (size_t I = 0; I < Preambles.size(); ++I)
        if ((Preambles[I].Base >= 0) == Chained)
          BuildPreamble(I);
    for (size_t I = 0; I < Jobs.size(); ++I)
      RunJob(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
    std::function<void(size_t)> Build = [&](size_t I) {
      BuildPreamble(I);
      for (size_t G : Preambles[I].Chained)
        Pool.async([&, G] { Build(G); });
      for (size_t M : Preambles[I].Members)
        Pool.async([&, M] { RunJob(M); });
    };
    for (size_t I = 0; I < Preambles.size(); ++I)
      if (Preambles[I].Base < 0)
        Pool.async([&, I] { Build(I); });
    for (size_t I = 0; I < Jobs.size(); ++I)
      if (PreambleOf[I] < 0)
        Pool.async([&, I] { RunJob(I); });
    Pool.wait();
  }
  for (const Preamble &P : Preambles)
    for (const std::string &F : P.Temporary)
      llvm::sys::fs::remove(F);
  if (!PreambleDir.empty())
    llvm::sys::fs::remove(PreambleDir);

  if (!CacheWarning.empty())
    llvm::errs() << "seam: warning: results were not cached: " << CacheWarning
                 << "\n";
  if (!SpaceWarning.empty())
    llvm::errs() << "seam: warning: " << SpaceWarning << "\n";
  if (Cache)
    Cache->evict();
  if (Accepted) {
    for (const BaselineEntry &E : Accepted->stale(AnalyzedFiles))
      R.Notes.push_back("baseline '" + Accepted->path() + "': the entry for " +
                        E.Rule + " in " + E.File + " ('" + E.Function +
                        "', recorded at line " + std::to_string(E.Line) +
                        ") matches nothing now; remove it");
    for (const BaselineEntry &E : Accepted->expired())
      R.Notes.push_back(
          "baseline '" + Accepted->path() + "': the entry for " + E.Rule +
          " in " + E.File + " ('" + E.Function + "') expired on " + E.Expires +
          "; its result is reported again" +
          (E.Reason.empty() ? "" : " (reason: " + E.Reason + ")"));
  }
  In.AnalyzedFiles = std::move(AnalyzedFiles);
  sortAndDedupe(R.Findings);
  std::stable_sort(
      R.Summary.begin(), R.Summary.end(),
      [](const SummaryRow &A, const SummaryRow &B) { return A.Rank > B.Rank; });
  return 0;
}

int runCheck(const CheckOptions &Opts) {
  if (Opts.ListChecks || Opts.DumpConfig) {
    ConfigFinder Configs(Opts.ConfigFile);
    std::string For =
        Opts.Files.empty() ? "seam-dump-config.cpp" : Opts.Files.front();
    llvm::Expected<FileConfig> C = Configs.forFile(For);
    if (!C) {
      errorLine("invalid configuration: " + llvm::toString(C.takeError()));
      return 2;
    }
    FileConfig Effective = effectiveConfig(*C, Opts);
    if (Opts.ListChecks) {
      llvm::outs() << "Enabled checks:\n";
      for (const std::string &Id : enabledChecks(GlobList(*Effective.Checks)))
        llvm::outs() << "    " << Id << "\n";
      llvm::outs() << "\n";
      return 0;
    }
    if (!Effective.HeaderFilterRegex)
      Effective.HeaderFilterRegex = ".*";
    dumpConfig(llvm::outs(), Effective);
    return 0;
  }
  if (Opts.Files.empty() && Opts.Frontend.BuildDir.empty()) {
    errorLine("no input files: name the files to analyze, or give -p with a "
              "compile database to analyze all of its files (see 'seam check "
              "--help')");
    return 2;
  }

  Report R;
  R.Category = Opts.SarifCategory;
  bool InputError = false;
  // Check the outputs before the (slow) parsing so a bad -o fails fast, and
  // never overwrite an input.
  // A baseline may be refreshed in place (--baseline X --write-baseline X):
  // it is read in full before it is replaced.
  auto Refresh = [&](const std::string &In) {
    return !Opts.WriteBaselinePath.empty() && In == Opts.BaselinePath &&
           llvm::sys::fs::equivalent(Opts.WriteBaselinePath, In);
  };
  auto CheckOutput = [&](llvm::ArrayRef<std::string> Known) {
    for (const std::string *Out :
         {&Opts.OutputPath, &Opts.WriteBaselinePath, &Opts.ExportFixesPath})
      if (!Out->empty()) {
        std::vector<std::string> Inputs;
        for (const std::string &In : Known)
          if (!(Out == &Opts.WriteBaselinePath && Refresh(In)))
            Inputs.push_back(In);
        if (std::optional<std::string> Err = checkOutputPath(*Out, Inputs)) {
          errorLine(*Err);
          return false;
        }
      }
    if (!Opts.OutputPath.empty() && !Opts.WriteBaselinePath.empty() &&
        llvm::sys::fs::equivalent(Opts.OutputPath, Opts.WriteBaselinePath)) {
      errorLine("-o and --write-baseline name the same file ('" +
                Opts.OutputPath + "')");
      return false;
    }
    return true;
  };
  bool Color = Opts.Color == CheckOptions::ColorMode::Always ||
               (Opts.Color == CheckOptions::ColorMode::Auto &&
                Opts.OutputPath.empty() && llvm::outs().has_colors());
  // Text to standard output is printed file by file as each is done.
  bool Stream = Opts.Format == OutputFormat::Text && Opts.OutputPath.empty();
  std::function<void(llvm::ArrayRef<Finding>)> OnFile;
  std::optional<TextPrinter> Printer;
  if (Stream) {
    Printer.emplace(llvm::outs(), Color);
    OnFile = [&](llvm::ArrayRef<Finding> Batch) {
      for (const Finding &F : Batch)
        Printer->print(F);
      llvm::outs().flush();
    };
  }
  RunInputs Inputs;
  int Code = analyze(
      Opts, R, InputError,
      [&](const RunInputs &In) { return CheckOutput(In.Declared); }, OnFile,
      &Inputs);
  if (Stream && llvm::outs().has_error()) {
    std::error_code EC = llvm::outs().error();
    llvm::outs().clear_error();
    errorLine("cannot write to standard output: " + EC.message());
    return 2;
  }
  if (Code)
    return Code;
  // The headers the parses read are known only now; nothing was written.
  if (!CheckOutput(
          std::vector<std::string>(Inputs.Read.begin(), Inputs.Read.end())))
    return 2;
  for (const std::string &N : R.Notes)
    llvm::errs() << "seam: note: " << N << "\n";

  std::optional<std::string> WriteError;
  if (!Stream || Opts.Summary)
    WriteError = writeOutput(Opts.OutputPath, [&](llvm::raw_ostream &OS) {
      switch (Opts.Format) {
      case OutputFormat::Text:
        if (!Stream)
          writeText(OS, R, Color);
        if (Opts.Summary)
          writeSummary(OS, R);
        break;
      case OutputFormat::Json:
        writeJson(OS, R);
        break;
      case OutputFormat::Sarif:
        writeSarif(OS, R);
        break;
      }
    });
  if (WriteError) {
    errorLine(*WriteError);
    return 2;
  }
  if (!Opts.ExportFixesPath.empty()) {
    llvm::SmallString<256> Main, Here;
    if (!Opts.Files.empty()) {
      Main = Opts.Files.front();
      llvm::sys::fs::make_absolute(Main);
    }
    llvm::sys::fs::current_path(Here);
    std::string Yaml =
        exportFixesYaml(R.Findings, std::string(Main), std::string(Here));
    if (std::optional<std::string> Err = writeOutput(
            Opts.ExportFixesPath, [&](llvm::raw_ostream &OS) { OS << Yaml; })) {
      errorLine(*Err);
      return 2;
    }
  }
  if (Opts.Fix) {
    FixOutcome Done = applyFixes(R.Findings, Opts.FormatStyle);
    for (const std::string &N : Done.Notes)
      llvm::errs() << "seam: note: " << N << "\n";
    if (!Opts.Quiet)
      llvm::errs() << "seam: applied " << Done.Applied << " of " << Done.Offered
                   << " fix" << (Done.Offered == 1 ? "" : "es") << " to "
                   << Done.Files.size() << " file"
                   << (Done.Files.size() == 1 ? "" : "s") << "\n";
    if (Done.WriteFailed)
      return 2;
  }
  if (!Opts.WriteBaselinePath.empty()) {
    // Reasons and dates carry over from the baseline in use, else from the
    // file being replaced. Results the baseline in use accepted are kept.
    std::optional<Baseline> Previous;
    for (const std::string &P : {Opts.BaselinePath, Opts.WriteBaselinePath}) {
      if (Previous || P.empty() || !llvm::sys::fs::exists(P))
        continue;
      if (llvm::Expected<Baseline> B = Baseline::load(P))
        Previous = std::move(*B);
      else
        llvm::consumeError(B.takeError());
    }
    sortAndDedupe(R.Unfiltered);
    // A run over part of the project (named files, a shard) keeps the
    // entries of the files it did not analyze, with their reasons.
    size_t Written = 0;
    std::string Text = baselineText(
        R.Unfiltered, R.SourceRoot, Previous ? &*Previous : nullptr,
        Inputs.Partial ? &Inputs.AnalyzedFiles : nullptr, &Written);
    if (std::optional<std::string> Err =
            writeOutput(Opts.WriteBaselinePath,
                        [&](llvm::raw_ostream &OS) { OS << Text; })) {
      errorLine(*Err);
      return 2;
    }
    if (!Opts.Quiet)
      llvm::errs() << "seam: wrote " << Written << " result"
                   << (Written == 1 ? "" : "s") << " to baseline '"
                   << Opts.WriteBaselinePath << "'\n";
    return InputError ? 2 : 0; // what a baseline records is accepted
  }

  if (InputError)
    return 2;
  for (const Finding &F : R.Findings)
    if (F.PromotedToError || (Opts.FailOn && F.Severity >= *Opts.FailOn))
      return 1;
  return 0;
}

} // namespace seam
