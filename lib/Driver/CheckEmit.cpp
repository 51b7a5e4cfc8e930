//===- CheckEmit.cpp - seam check: results handed on in file order --------===//
//
// The last phase (CheckRun.h): each file's results, as soon as it and every
// file before it are done, are filtered (--checks, header and line filters,
// NOLINT), deduplicated (a header's results come once), fingerprinted,
// matched against the baseline in use and handed on; finish() adds the
// baseline's notes and sorts what the run found.
//
//===----------------------------------------------------------------------===//
#include "Driver/CheckRun.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace seam {

// A header reached through a symlink and through its own path is one file:
// its results are kept once, under the first spelling seen.
const std::string &CheckRun::realFile(const std::string &File) {
  auto [It, New] = RealPaths.try_emplace(File, File);
  llvm::SmallString<256> Real;
  if (New && !llvm::sys::fs::real_path(File, Real))
    It->second = std::string(Real);
  return It->second;
}

void CheckRun::emit(size_t I) {
  Job &J = Jobs[I];
  Outcome &O = Outcomes[I];
  if (J.Error) {
    fail(J.File, *J.Error);
    return;
  }
  if (!O.Parse.Ok)
    fail(J.File, O.Parse.Error);
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
  R.Summary.insert(R.Summary.end(), O.Analysis.Summary.begin(),
                   O.Analysis.Summary.end());
  if (Summaries.size() < Jobs.size())
    Summaries.resize(Jobs.size());
  // A TU with compile errors joins the project with what it defines, but
  // its conditional findings (like its fixes) are not trusted.
  if (O.Analysis.Project && !O.Parse.CompileErrors.empty())
    O.Analysis.Project->Conditional.clear();
  Summaries[I] = std::move(O.Analysis.Project);
  O.Analysis = TUAnalysis();
  deliver(J, std::move(Batch));
}

void CheckRun::deliver(const Job &J, std::vector<Finding> Batch) {
  llvm::erase_if(Batch, [&](Finding &F) { return !J.Filter.apply(F); });
  sortAndDedupe(Batch);
  // A header's results come once, with the first file that includes it.
  llvm::erase_if(Batch, [&](const Finding &F) {
    return !Seen.insert({realFile(F.Where.File), F.Where.Line, F.Where.Column,
                         F.RuleId == rule_ids::CompileError
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
  if (OnFile)
    OnFile(Batch);
  R.Findings.insert(R.Findings.end(), std::make_move_iterator(Batch.begin()),
                    std::make_move_iterator(Batch.end()));
}

void CheckRun::finish() {
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
}

} // namespace seam
