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
  std::vector<ProjectFinding> Found = runProjectPass(All);
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

} // namespace seam
