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
  Api.forgetAST(); // its caches are keyed by the previous TU's declarations
  FlowCache Flows(Ctx);
  RegionModel Regions(Ctx, Api, Opts.Regions, Flows);
  std::vector<TriggerSite> Sites =
      findTriggerSites(Ctx, Api, Regions, &Out.Incomplete);
  Out.Findings =
      findHazards(Ctx, Api, Regions, Sites, Opts, &Out.NolintProblems);
  estimateCosts(Ctx, Api, Regions, Sites, Out.Findings, Cost, Out.Summary);
  proposeFixes(Ctx, Api, Regions, Sites, Cost.Profile, Out.Findings);
  return Out;
}

} // namespace seam
