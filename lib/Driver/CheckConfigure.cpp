//===- CheckConfigure.cpp - seam check: the command line, checked ---------===//
//
// The first phase of a run (CheckRun.h): every setting the command line
// makes for all files is checked here, before anything is parsed, and the
// files of the run are chosen (database mode, regexes, shards).
//
//===----------------------------------------------------------------------===//
#include "Driver/CheckRun.h"

#include "ApiModel/ApiModel.h"
#include "Driver/Output.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace seam {

std::array<const std::vector<std::string> *, 3>
extraArgs(const FrontendOptions &F) {
  return {&F.ArgsBefore, &F.ArgsAfter, &F.ExtraArgs};
}

std::string frontendKey(const FrontendOptions &F) {
  std::string K;
  for (const std::vector<std::string> *A : extraArgs(F))
    K += '\0' + llvm::join(*A, "\x1f");
  return K + (F.SkipSystemBodies ? "\x1eskip" : "\x1ekeep");
}

std::string absolute(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::string filterRegex(const std::string &Re) {
  return Re.empty() ? std::string("^$") : Re;
}

FileConfig effectiveConfig(const FileConfig &C, const CheckOptions &Opts) {
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

const std::string &KeyParts::seam() {
  if (Seam.empty()) {
    std::string Exe = llvm::sys::fs::getMainExecutable(
        "seam", reinterpret_cast<void *>(&installedRulesDir));
    Seam = std::string(SeamVersion) + ":" + ResultCache::hashFile(Exe);
  }
  return Seam;
}

const std::string &KeyParts::file(const std::string &Path) {
  auto [It, New] = Files.try_emplace(Path);
  if (New)
    It->second = ResultCache::hashFile(Path);
  return It->second;
}

llvm::Expected<std::shared_ptr<const ApiIndex>>
PackCache::get(const std::vector<std::string> &Paths) {
  std::string Key = llvm::join(Paths, "\n");
  if (auto It = Cache.find(Key); It != Cache.end())
    return It->second;
  llvm::Expected<RulePack> Merged = loadPacks(Paths);
  if (!Merged)
    return Merged.takeError();
  return Cache[Key] = std::make_shared<const ApiIndex>(std::move(*Merged));
}

void CheckRun::declare(const std::string &Path) {
  if (!Path.empty())
    In.Declared.push_back(Path);
}

void CheckRun::fail(const std::string &Input, const std::string &Msg) {
  errorExit(Msg);
  R.Errors.push_back({Input, Msg});
  InputError = true;
}

const DeviceProfile *CheckRun::profileFor(const std::string &Name,
                                          std::string &Err) {
  if (auto It = Profiles.find(Name); It != Profiles.end())
    return &It->second;
  llvm::Expected<DeviceProfile> P = loadProfile(Name, ProfilesDir);
  if (!P) {
    Err = "invalid profile: " + llvm::toString(P.takeError());
    return nullptr;
  }
  return &(Profiles[Name] = std::move(*P));
}

namespace {

/// Reports \p Msg and returns false, for `return bad(...)`.
bool bad(const std::string &Msg) {
  errorExit(Msg);
  return false;
}

/// Takes \p V's value into \p Into, or reports its error.
template <typename T> bool take(llvm::Expected<T> V, std::optional<T> &Into) {
  if (!V)
    return bad(llvm::toString(V.takeError()));
  Into = std::move(*V);
  return true;
}

/// The --shape, --trips, --header-filter and --exclude-header-filter values.
bool checkHints(const CheckOptions &Opts,
                std::shared_ptr<const ApiIndex> Base) {
  ApiModel Api(std::move(Base));
  ShapeHints CmdHints;
  for (const std::string &S : Opts.Shapes)
    if (auto Err = parseShapeHint(S, Api, CmdHints))
      return bad("invalid --shape '" + S + "': " + *Err);
  TripHints CmdTrips;
  for (const std::string &S : Opts.Trips)
    if (auto Err = parseTripHint(S, CmdTrips))
      return bad("invalid --trips '" + S + "': " + *Err);
  for (auto [Opt, Name] :
       {std::make_pair(&Opts.HeaderFilter, "--header-filter"),
        std::make_pair(&Opts.ExcludeHeaderFilter, "--exclude-header-filter")})
    if (*Opt) {
      llvm::Regex Re(filterRegex(**Opt));
      std::string Err;
      if (!Re.isValid(Err))
        return bad(std::string("invalid ") + Name + " '" + **Opt + "': " + Err);
    }
  return true;
}

} // namespace

bool CheckRun::configure() {
  if (Opts.DefaultRules)
    BasePacks = defaultPackPaths(Opts.RulesDir);
  BasePacks.insert(BasePacks.end(), Opts.RulePacks.begin(),
                   Opts.RulePacks.end());
  llvm::Expected<std::shared_ptr<const ApiIndex>> Base = Packs.get(BasePacks);
  if (!Base)
    return bad(llvm::toString(Base.takeError()));
  R.RulePacks = BasePacks;
  if (!Opts.SarifRoot.empty() && !llvm::sys::fs::is_directory(Opts.SarifRoot))
    return bad("--sarif-root '" + Opts.SarifRoot + "' is not a directory");
  // As clang-tidy: a check list that enables nothing is an error, not a
  // silent pass (a typo such as -*,seam-hostsync).
  if (Opts.Checks && enabledChecks(GlobList("seam-*," + *Opts.Checks)).empty())
    return bad("no checks enabled by --checks '" + *Opts.Checks +
               "' (known: " + llvm::join(enabledChecks(GlobList("*")), ", ") +
               "; see --list-checks)");
  for (const std::string &P : BasePacks)
    declare(P);
  for (const std::string &F : Opts.Files)
    declare(F);
  declare(Opts.ConfigFile);
  declare(Opts.BaselinePath);
  if (!Opts.Frontend.BuildDir.empty())
    for (const char *Name : {"compile_commands.json", "compile_flags.txt"}) {
      llvm::SmallString<256> P(Opts.Frontend.BuildDir);
      llvm::sys::path::append(P, Name);
      declare(std::string(P));
    }
  for (const std::string &G : Opts.Analysis.Regions.RegionGlobs)
    if (auto E = llvm::GlobPattern::create(G); !E)
      return bad("invalid --region pattern '" + G +
                 "': " + llvm::toString(E.takeError()));
  ProfilesDir = profilesDir(Opts.RulesDir);
  if (std::string Err; !profileFor(Opts.Profile, Err))
    return bad(Err);
  if (!checkHints(Opts, *Base))
    return false;
  if (!Opts.LineFilterJson.empty()) {
    std::optional<LineFilter> LF;
    if (!take(LineFilter::parse(Opts.LineFilterJson), LF))
      return false;
    Lines = std::move(*LF);
  }
  if (!Opts.Shard.empty() && !take(parseShard(Opts.Shard), Split))
    return false;
  if (!Opts.ConfigFile.empty() &&
      !llvm::sys::fs::is_regular_file(Opts.ConfigFile))
    return bad("no such configuration file: '" + Opts.ConfigFile +
               "' (from --config-file)");
  if (!Opts.BaselinePath.empty() &&
      !take(Baseline::load(Opts.BaselinePath), Accepted))
    return false;

  std::string Warning;
  auto Database = makeCompilationDatabase(Opts.Frontend, Warning);
  if (!Database)
    return bad(llvm::toString(Database.takeError()));
  DB = std::move(*Database);
  if (!Warning.empty() && !Opts.Quiet)
    llvm::errs() << "seam: warning: " << Warning << "\n";

  std::vector<std::string> SelectErrors;
  Files = selectFiles(Opts.Frontend.BuildDir.empty() ? nullptr : DB.get(),
                      Opts.Files, SelectErrors);
  for (const std::string &E : SelectErrors)
    fail("", E);
  // A database with no entries analyzes nothing: say so rather than pass.
  // (An empty shard of a database that has files is fine.)
  if (Files.empty() && Opts.Files.empty() && !Opts.Frontend.BuildDir.empty())
    return bad("no file to analyze: the compile database in '" +
               Opts.Frontend.BuildDir + "' lists none");
  R.SourceRoot = projectRoot(Opts.SarifRoot);
  In.Partial = !Opts.Files.empty() || Split.has_value();
  if (Split)
    llvm::erase_if(Files, [&](const std::string &F) {
      return !inShard(relativeToRoot(absolute(F), R.SourceRoot), *Split);
    });
  return true;
}

} // namespace seam
