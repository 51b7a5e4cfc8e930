//===- CheckProject.cpp - seam check: hot paths across files --------------===//
//
// The phase after schedule() (CheckRun.h): every file's summary, from this
// run or from the cache, joined by the project pass (lib/Project). What it
// adds, results in one file hot only through a call from another, goes
// through the same filters, deduplication and baseline as each file's own,
// with the filters of the file whose summary held it. With --summaries-out,
// the summaries are written for `seam merge --summaries`.
//
//===----------------------------------------------------------------------===//
#include "Basic/FindingJson.h"
#include "Driver/CheckRun.h"
#include "Driver/Output.h"
#include "Project/ProjectPass.h"

#include "llvm/Support/raw_ostream.h"
#include <set>

namespace seam {

/// The version of the --summaries-out file (docs/whole-project.md).
static constexpr int SummariesVersion = 1;

void CheckRun::crossFiles() {
  if (Opts.PerTU)
    return;
  Summaries.resize(Jobs.size());
  // What a file's filters drop never comes back through another file.
  for (size_t I = 0; I < Jobs.size(); ++I)
    if (Summaries[I])
      llvm::erase_if(Summaries[I]->Conditional, [&](ConditionalFinding &C) {
        return !Jobs[I].Filter.apply(C.F);
      });
  if (!Opts.SummariesOut.empty()) {
    // What the baseline in use accepts is not reported by the merge either.
    if (Accepted)
      for (std::optional<TUSummary> &S : Summaries)
        if (S)
          llvm::erase_if(S->Conditional, [&](const ConditionalFinding &C) {
            std::vector<Finding> One{C.F};
            assignFingerprints(One, R.SourceRoot);
            return Accepted->filter(One, today()) > 0;
          });
    nlohmann::json Files = nlohmann::json::array();
    for (const std::optional<TUSummary> &S : Summaries)
      if (S)
        Files.push_back(toJson(*S));
    nlohmann::json J = {{"seamSummaries", SummariesVersion},
                        {"root", R.SourceRoot},
                        {"files", std::move(Files)}};
    if (std::optional<std::string> Err =
            writeOutput(Opts.SummariesOut, [&](llvm::raw_ostream &OS) {
              OS << J.dump(-1, ' ', false,
                           nlohmann::json::error_handler_t::replace)
                 << "\n";
            }))
      fail(Opts.SummariesOut, *Err);
  }
  std::vector<const TUSummary *> All;
  for (const std::optional<TUSummary> &S : Summaries)
    All.push_back(S ? &*S : nullptr);
  // After this run's files: what the others hold, not reported.
  std::vector<TUSummary> Others = contextSummaries();
  for (const TUSummary &S : Others)
    All.push_back(&S);
  std::vector<ProjectFinding> Found = runProjectPass(All);
  llvm::erase_if(
      Found, [&](const ProjectFinding &F) { return F.From >= Jobs.size(); });
  for (size_t B = 0; B < Found.size();) {
    size_t E = B;
    std::vector<Finding> Batch;
    for (; E < Found.size() && Found[E].From == Found[B].From; ++E)
      Batch.push_back(std::move(Found[E].F));
    deliver(Jobs[Found[B].From], std::move(Batch));
    B = E;
  }
  Summaries.clear();
}

std::vector<TUSummary> CheckRun::contextSummaries() {
  std::vector<TUSummary> Out;
  // Only some files of a database, with a cache to read: `seam check -p
  // build src/loss.cpp` after a whole-project run. A shard's merge reads
  // the other shards' summaries instead.
  if (!In.Partial || Split || !Cache || Opts.Frontend.BuildDir.empty() || !DB)
    return Out;
  std::set<std::string> Mine;
  for (const Job &J : Jobs)
    Mine.insert(absolute(J.File));
  ConfigFinder Configs(Opts.ConfigFile);
  size_t Others = 0;
  std::set<std::string> Listed;
  for (const std::string &File : DB->getAllFiles()) {
    std::string Abs = absolute(File);
    if (Mine.count(Abs) || !Listed.insert(Abs).second)
      continue;
    ++Others;
    Job J = planJob(Configs, File, /*Declare=*/false);
    if (J.Error || J.CacheKey.empty())
      continue;
    std::string Note; // a corrupt entry is removed and is simply missing
    std::optional<CachedTU> Hit = Cache->lookup(J.CacheKey, Note);
    if (Hit && Hit->Analysis.Project) {
      Out.push_back(std::move(*Hit->Analysis.Project));
      Out.back().Conditional.clear(); // their own results are not asked for
    }
  }
  // Said only to who runs the whole project too: without any summary, a
  // run over some files is the per-TU run it always was.
  if (!Out.empty() && Out.size() < Others)
    llvm::errs() << "seam: note: " << Others - Out.size() << " of the "
                 << Others
                 << " other files of the compile database had no current "
                    "summary in the cache (new or changed since the last "
                    "whole-project run); calls through them are not "
                    "followed\n";
  return Out;
}

} // namespace seam
