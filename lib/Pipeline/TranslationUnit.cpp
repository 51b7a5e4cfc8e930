//===- TranslationUnit.cpp - The pipeline on one translation unit ---------===//
#include "Pipeline/TranslationUnit.h"

#include "Fixes/FixEngine.h"
#include "Flow/FunctionFlow.h"
#include "Pipeline/Summarize.h"
#include "Regions/RegionModel.h"
#include "Rules/Rule.h"

#include "clang/Basic/SourceManager.h"

namespace seam {

/// The TU's summary for the project pass, with its conditional findings:
/// each cold site that may sync, reported as if its function were hot
/// (entered once per call), priced and fixed as such.
static TUSummary summarize(clang::ASTContext &Ctx, const ApiModel &Api,
                           const RegionModel &Regions,
                           const std::vector<TriggerSite> &Sites,
                           const std::vector<SiteContext> &Contexts,
                           const CallArgResidency &Args,
                           const AnalysisOptions &Opts,
                           const CostOptions &Cost) {
  std::vector<TriggerSite> Cold;
  std::vector<SiteContext> AsHot;
  for (size_t I = 0; I < Sites.size(); ++I) {
    const SiteContext &C = Contexts[I];
    if (C.Hot || C.Capture || !maySync(Sites[I].Where))
      continue;
    Cold.push_back(Sites[I]);
    SiteContext H = C;
    H.Hot = true;
    H.HotPath.clear();
    H.SeedLoops.clear();
    AsHot.push_back(std::move(H));
  }
  AnalysisOptions Hot = Opts;
  Hot.ReportColdSyncs = false;
  std::vector<Finding> Nolint;
  std::vector<SiteFinding> Found =
      findHazards(Ctx, Regions, Cold, AsHot, Hot, &Nolint);
  llvm::erase_if(Found, [](const SiteFinding &SF) {
    return hazardOf(SF.F.RuleId) != Hazard::HostSync;
  });
  std::vector<SummaryRow> Rows; // the TU's own rows are the real ones
  estimateCosts(Ctx, Api, Regions, Found, Cost, Rows);
  proposeFixes(Ctx, Api, Regions, Found, Cost.Profile);
  return summarizeTU(Ctx, Regions, Args, Cost.Trips, Found);
}

namespace {

/// Scopes the ASTContext's traversal (and so its parent map, which the
/// fixes ask) to the TU's own declarations for the analysis: a parent map
/// over every declaration of LibTorch's headers costs a second and 200 MB
/// per TU, and no site of a result is in a system header. The previous
/// scope comes back at the end (clang-tidy's matchers use it).
class UserScope {
public:
  explicit UserScope(clang::ASTContext &Ctx)
      : Ctx(Ctx), Old(Ctx.getTraversalScope()) {
    const clang::SourceManager &SM = Ctx.getSourceManager();
    std::vector<clang::Decl *> Own;
    for (clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
        Own.push_back(D);
    Ctx.setTraversalScope(Own);
  }
  ~UserScope() { Ctx.setTraversalScope(Old); }

private:
  clang::ASTContext &Ctx;
  std::vector<clang::Decl *> Old;
};

} // namespace

TUAnalysis analyzeTranslationUnit(clang::ASTContext &Ctx, const ApiModel &Api,
                                  const AnalysisOptions &Opts,
                                  const CostOptions &Cost) {
  TUAnalysis Out;
  UserScope Scope(Ctx);
  FlowCache Flows(Ctx);
  RegionModel Regions(Ctx, Api, Opts.Regions, Flows);
  CallArgResidency Args;
  std::vector<TriggerSite> Sites = findTriggerSites(
      Ctx, Api, Regions, &Out.Incomplete, Opts.Summarize ? &Args : nullptr);
  // Each site's context (its region, loops, hot path, frequency), computed
  // once: the rules, the cost model and the fixes all read it.
  std::vector<SiteContext> Contexts;
  Contexts.reserve(Sites.size());
  for (const TriggerSite &S : Sites)
    Contexts.push_back(Regions.contextAt(S.Node, S.Call, S.Match.Loc));
  std::vector<SiteFinding> Found =
      findHazards(Ctx, Regions, Sites, Contexts, Opts, &Out.NolintProblems);
  estimateCosts(Ctx, Api, Regions, Found, Cost, Out.Summary);
  proposeFixes(Ctx, Api, Regions, Found, Cost.Profile);
  if (Opts.Summarize)
    Out.Project =
        summarize(Ctx, Api, Regions, Sites, Contexts, Args, Opts, Cost);
  Out.Findings.reserve(Found.size());
  for (SiteFinding &SF : Found)
    Out.Findings.push_back(std::move(SF.F));
  return Out;
}

} // namespace seam
