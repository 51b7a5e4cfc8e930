//===- CheckRun.h - One `seam check` run, phase by phase ------------------===//
//
// analyze() (CheckCommand.cpp) runs a check as a sequence of phases over one
// CheckRun. Each phase is a file, and reads only what the phases before it
// left here:
//
//   configure()       CheckConfigure.cpp  the command line, checked; the files
//   planJobs()        CheckJobs.cpp       per file: configuration, packs,
//                                         profile, filters, cache key
//   lookUpCache()     CheckSchedule.cpp   the results of unchanged files
//   planPreambles()   CheckPreambles.cpp  which files share a precompiled
//                                         preamble (SharedPreamble.h)
//   schedule()        CheckSchedule.cpp   preambles built, files parsed and
//                                         analyzed on one thread pool
//   emit(), finish()  CheckEmit.cpp       results filtered, deduplicated,
//                                         fingerprinted, in file order
//   crossFiles()      CheckProject.cpp    the project pass over every file's
//                                         summary (before finish())
//
// Internal to lib/Driver.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_CHECKRUN_H
#define SEAM_DRIVER_CHECKRUN_H

#include "ApiModel/ApiModel.h"
#include "Driver/Baseline.h"
#include "Driver/CheckCommand.h"
#include "Driver/Config.h"
#include "Driver/ResultCache.h"
#include "Driver/Selection.h"
#include "Pipeline/TranslationUnit.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <tuple>

namespace seam {

/// What the command line adds to every compile command.
std::array<const std::vector<std::string> *, 3>
extraArgs(const FrontendOptions &F);
/// The part of a cache key that the frontend options make: the extra
/// arguments, and whether system bodies are skipped.
std::string frontendKey(const FrontendOptions &F);
/// \p Path made absolute, without "." and "..".
std::string absolute(llvm::StringRef Path);
/// A regex as clang-tidy reads its filters: the empty one matches no path
/// (an empty llvm::Regex would match every one).
std::string filterRegex(const std::string &Re);
/// \p C with the command line applied as clang-tidy applies it: check lists
/// appended to Seam's default and the file's, header filter and profile
/// replaced, regions, shapes and packs added (the command line's first).
FileConfig effectiveConfig(const FileConfig &C, const CheckOptions &Opts);

/// Everything one translation unit needs, fixed before the workers start.
struct Job {
  std::string File;
  std::vector<clang::tooling::CompileCommand> Commands;
  /// The merged packs, shared by the jobs with the same list of packs.
  std::shared_ptr<const ApiIndex> Index;
  CostOptions Cost;
  AnalysisOptions Analysis;
  ResultFilter Filter;
  std::optional<std::string> Error; ///< not parsed: this says why
  std::string CacheKey;             ///< "" = not cached
};

/// What became of one job.
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
  const std::string &seam();
  const std::string &file(const std::string &Path);

private:
  std::string Seam;
  std::map<std::string, std::string> Files;
};

/// Merged rule packs, indexed once per distinct list of pack paths.
class PackCache {
public:
  llvm::Expected<std::shared_ptr<const ApiIndex>>
  get(const std::vector<std::string> &Paths);

private:
  std::map<std::string, std::shared_ptr<const ApiIndex>> Cache;
};

/// A precompiled preamble shared by files that begin alike, or holding the
/// system headers they reach first.
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

struct CheckRun {
  CheckRun(const CheckOptions &Opts, Report &R, bool &InputError, RunInputs &In,
           std::function<void(llvm::ArrayRef<Finding>)> OnFile)
      : Opts(Opts), R(R), InputError(InputError), In(In),
        OnFile(std::move(OnFile)) {}

  // The phases, in the order analyze() runs them.
  bool configure(); ///< false: a configuration error, reported
  void planJobs();
  void lookUpCache();
  void planPreambles();
  void schedule();
  void crossFiles();
  void finish();

  const CheckOptions &Opts;
  Report &R;
  bool &InputError;
  RunInputs &In;
  std::function<void(llvm::ArrayRef<Finding>)> OnFile;

  /// Records \p Path as an input of the run.
  void declare(const std::string &Path);
  /// Reports an input that could not be analyzed; the run goes on.
  void fail(const std::string &Input, const std::string &Msg);

  // configure()
  std::vector<std::string> BasePacks;
  PackCache Packs;
  llvm::SmallString<256> ProfilesDir;
  std::map<std::string, DeviceProfile> Profiles;
  LineFilter Lines;
  std::optional<Shard> Split;
  std::optional<Baseline> Accepted;
  std::unique_ptr<clang::tooling::CompilationDatabase> DB;
  std::vector<std::string> Files;
  /// The profile named \p Name, loaded once; null with \p Err set if bad.
  const DeviceProfile *profileFor(const std::string &Name, std::string &Err);

  // planJobs()
  KeyParts Parts;
  std::optional<ResultCache> Cache;
  std::vector<Job> Jobs;
  /// One file's job; \p Declare: its inputs are this run's (not for the
  /// files whose summaries a partial run only reads from the cache).
  Job planJob(ConfigFinder &Configs, const std::string &File, bool Declare);
  std::string cacheKey(const Job &J, const FileConfig &Eff,
                       const std::vector<std::string> &PackPaths);

  // lookUpCache()
  std::vector<std::optional<CachedTU>> Hits;

  // planPreambles()
  std::vector<Preamble> Preambles;
  std::vector<int> PreambleOf, Stage1Of;
  llvm::SmallString<128> PreambleDir;
  void addPreamble(const std::string &Text, const std::vector<size_t> &All,
                   bool Stage1, bool Alone = false);
  void planSystemPreambleGroups(const std::vector<size_t> &Candidates);
  void buildPreamble(size_t I); // CheckPreambles.cpp, run by schedule()

  // schedule()
  unsigned Threads = 1;
  bool Progress = false;
  std::mutex Lock;
  std::vector<Outcome> Outcomes;
  std::vector<int> Used; // the preamble a parse used
  size_t NextToEmit = 0, Finished = 0;
  std::string CacheWarning; // the first reason a result was not cached
  std::string SpaceWarning; // a preamble directory without room for a PCH
  void runAll(size_t N, const std::function<void(size_t)> &Fn);
  void runJob(size_t I);
  void parseJob(size_t I, Outcome &O, std::vector<std::string> &Read);
  void reportProgress(size_t I);
  void warnOnce(std::string &Slot, std::string Msg);

  // emit()
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Seen;
  std::set<std::string> AnalyzedFiles;
  std::map<std::string, std::string> RealPaths;
  const std::string &realFile(const std::string &File);
  void emit(size_t I);
  /// Filters, deduplicates, fingerprints and hands on \p Batch, results of
  /// job \p J.
  void deliver(const Job &J, std::vector<Finding> Batch);

  // crossFiles()
  /// Each job's summary for the project pass, kept by emit().
  std::vector<std::optional<TUSummary>> Summaries;
  /// A run over some files of a database: the current summaries of the
  /// others, from the cache (never parsed; what is stale is left out).
  std::vector<TUSummary> contextSummaries();
};

} // namespace seam

#endif
