//===- CheckJobs.cpp - seam check: what each file is analyzed with --------===//
//
// The second phase (CheckRun.h): per file, its .seam.yaml with the command
// line applied, its packs and profile, filters and compile command, and the
// key of its cached results. A bad configuration costs the files it
// governs, not the run.
//
//===----------------------------------------------------------------------===//
#include "Driver/CheckRun.h"

#include "ApiModel/ApiModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace seam {

namespace {

/// Sets \p J's filters from \p Eff; returns why one is invalid, if one is.
std::optional<std::string> setFilters(Job &J, const FileConfig &Eff,
                                      const CheckOptions &Opts,
                                      const LineFilter &Lines) {
  J.Filter.Checks = GlobList(*Eff.Checks);
  J.Filter.WarningsAsErrors = GlobList(*Eff.WarningsAsErrors);
  J.Filter.MainFile = absolute(J.File);
  J.Filter.Lines = Lines.empty() ? nullptr : &Lines;
  std::optional<std::string> Bad;
  if (Eff.HeaderFilterRegex) {
    J.Filter.HeaderFilter.emplace(filterRegex(*Eff.HeaderFilterRegex));
    std::string ReErr;
    if (!J.Filter.HeaderFilter->isValid(ReErr))
      Bad = "invalid HeaderFilterRegex '" + *Eff.HeaderFilterRegex +
            "': " + ReErr;
  }
  if (Opts.ExcludeHeaderFilter)
    J.Filter.ExcludeHeaderFilter.emplace(
        filterRegex(*Opts.ExcludeHeaderFilter));
  return Bad;
}

/// Sets \p J's analysis and cost options from \p C and \p Eff; returns the
/// first invalid entry, if there is one.
std::optional<std::string> setAnalysis(Job &J, const FileConfig &C,
                                       const FileConfig &Eff,
                                       const CheckOptions &Opts) {
  std::optional<std::string> Bad;
  J.Cost.AllRegionRows = Opts.AllRegionRows;
  J.Analysis = Opts.Analysis;
  // For the project pass (CheckProject.cpp), unless --per-tu.
  J.Analysis.Summarize = !Opts.PerTU;
  J.Analysis.Regions.RegionGlobs = Eff.Regions;
  J.Analysis.AssumeHost = Eff.DefaultResidency.value_or("") == "host";
  for (const std::string &G : C.Regions)
    if (auto E = llvm::GlobPattern::create(G); !E && !Bad)
      Bad = "invalid region pattern '" + G +
            "': " + llvm::toString(E.takeError());
  ApiModel Api(J.Index);
  for (auto &[Name, Count] : Eff.Trips)
    if (auto E = parseTripHint(Name + "=" + Count, J.Cost.Trips); E && !Bad)
      Bad = "invalid Trips entry '" + Name + ": " + Count + "': " + *E;
  for (const std::string &S : Eff.shapeHints())
    if (auto E = parseShapeHint(S, Api, J.Cost.Hints); E && !Bad)
      Bad = "invalid shape '" + S + "': " + *E;
  return Bad;
}

} // namespace

std::string CheckRun::cacheKey(const Job &J, const FileConfig &Eff,
                               const std::vector<std::string> &PackPaths) {
  // Everything but the sources that can change this TU's results.
  std::string K = Parts.seam() + '\0' + absolute(J.File) + '\0';
  for (const clang::tooling::CompileCommand &Cmd : J.Commands)
    K += Cmd.Directory + '\0' + llvm::join(Cmd.CommandLine, "\x1f");
  K += frontendKey(Opts.Frontend);
  K += Opts.Analysis.ReportColdSyncs ? "\x1e"
                                       "cold"
                                     : "\x1e"
                                       "hot";
  // An entry without the summary must not stand in for one with it.
  if (Opts.PerTU)
    K += "\x1eper-tu";
  for (const std::string &P : PackPaths)
    K += '\0' + P + '=' + Parts.file(P);
  K += '\0' + *Eff.Profile + '=' +
       Parts.file(profilePath(*Eff.Profile, ProfilesDir));
  std::string Dump;
  llvm::raw_string_ostream DS(Dump);
  dumpConfig(DS, Eff);
  K += '\0' + DS.str();
  return ResultCache::hash(K);
}

void CheckRun::planJobs() {
  ConfigFinder Configs(Opts.ConfigFile);
  if (Opts.Cache)
    Cache.emplace(Opts.CacheDir, Opts.CacheMaxMB << 20);
  for (const std::string &File : Files)
    Jobs.push_back(planJob(Configs, File, /*Declare=*/true));
  for (auto &[Name, P] : Profiles)
    declare(P.Path);
}

Job CheckRun::planJob(ConfigFinder &Configs, const std::string &File,
                      bool Declare) {
  Job J;
  J.File = File;
  auto Bad = [&](const std::string &Why) {
    if (!J.Error)
      J.Error =
          "invalid configuration: " + Why + "; '" + File + "' was not analyzed";
  };
  llvm::Expected<FileConfig> C = Configs.forFile(File);
  if (!C) {
    Bad(llvm::toString(C.takeError()));
    return J;
  }
  FileConfig Eff = effectiveConfig(*C, Opts);
  if (Declare) {
    declare(absolute(File));
    for (const std::string &S : C->Sources)
      declare(S);
    for (const std::string &P : C->Rules)
      declare(P);
  }
  std::vector<std::string> PackPaths = BasePacks;
  PackPaths.insert(PackPaths.end(), C->Rules.begin(), C->Rules.end());
  llvm::Expected<std::shared_ptr<const ApiIndex>> Pack = Packs.get(PackPaths);
  std::string Err;
  const DeviceProfile *Prof = nullptr;
  if (!Pack) {
    Bad(C->path() + ": " + llvm::toString(Pack.takeError()));
  } else if (!(Prof = profileFor(*Eff.Profile, Err))) {
    Bad(C->path() + ": " + Err);
  } else {
    J.Index = *Pack;
    J.Cost.Profile = *Prof;
    if (std::optional<std::string> E = setAnalysis(J, *C, Eff, Opts))
      Bad(C->path() + ": " + *E);
    if (std::optional<std::string> E = setFilters(J, Eff, Opts, Lines))
      Bad(C->path() + ": " + *E);
  }
  if (J.Error)
    return J;
  if (std::optional<std::string> E = checkSourceFile(*DB, File))
    J.Error = *E;
  else
    J.Commands = commandsFor(*DB, File);
  // A file the database lists twice is analyzed once, with its first
  // command, as clang-tidy does.
  if (J.Commands.size() > 1)
    J.Commands.resize(1);
  if (Opts.Cache)
    J.CacheKey = cacheKey(J, Eff, PackPaths);
  return J;
}

} // namespace seam
