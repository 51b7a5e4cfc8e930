//===- TranslationUnit.cpp - The pipeline on one translation unit ---------===//
#include "Pipeline/TranslationUnit.h"

#include "Fixes/FixEngine.h"
#include "Flow/FunctionFlow.h"
#include "Regions/RegionModel.h"
#include "Rules/Rule.h"

namespace seam {

TUAnalysis analyzeTranslationUnit(clang::ASTContext &Ctx, const ApiModel &Api,
                                  const AnalysisOptions &Opts,
                                  const CostOptions &Cost) {
  TUAnalysis Out;
  FlowCache Flows(Ctx);
  RegionModel Regions(Ctx, Api, Opts.Regions, Flows);
  std::vector<TriggerSite> Sites =
      findTriggerSites(Ctx, Api, Regions, &Out.Incomplete);
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
  Out.Findings.reserve(Found.size());
  for (SiteFinding &SF : Found)
    Out.Findings.push_back(std::move(SF.F));
  return Out;
}

} // namespace seam
