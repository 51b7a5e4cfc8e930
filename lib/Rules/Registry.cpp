//===- Registry.cpp - The list of Seam's rules, and applying them ---------===//
#include "Basic/SourcePoint.h"
#include "Rules/Rule.h"
#include "Rules/Suppressions.h"

namespace seam {

// One line per rule, defined in lib/Rules/<rule id>.cpp.
const Rule &graphBreakRule();  // seam-graph-break.cpp
const Rule &hostSyncRule();    // seam-host-sync.cpp
const Rule &captureSyncRule(); // seam-capture-sync.cpp

llvm::ArrayRef<const Rule *> ruleRegistry() {
  static const Rule *const Rules[] = {&graphBreakRule(), &hostSyncRule(),
                                      &captureSyncRule()};
  return Rules;
}

std::vector<Finding> findHazards(clang::ASTContext &Ctx, const ApiModel &Api,
                                 const RegionModel &Regions,
                                 const std::vector<TriggerSite> &Sites,
                                 const AnalysisOptions &Opts,
                                 std::vector<Finding> *NolintProblems) {
  (void)Api;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  const clang::LangOptions &LO = Ctx.getLangOpts();
  std::vector<Finding> Out;
  Suppressions Nolint(SM);
  for (size_t I = 0; I < Sites.size(); ++I) {
    const TriggerSite &S = Sites[I];
    SiteContext C = Regions.contextAt(S.Node, S.Call, S.Match.Loc);
    Finding Base;
    Base.SiteIndex = static_cast<int>(I);
    Base.Where = makePoint(SM, LO, S.Match.Loc, S.Call->getEndLoc());
    Base.Trigger = triggerName(S.Match.Rule->What).str();
    Base.Residency = residencyName(S.Where).str();
    Base.Function = Regions.functions()[S.Node].Name;
    Base.Api = S.Match.Spelling;
    RuleInput In{S, C, SM, LO, Opts};
    for (const Rule *R : ruleRegistry()) {
      Finding F = Base;
      F.RuleId = R->info().Id;
      if (R->check(In, F) && !Nolint.suppressed(S.Match.Loc, F.RuleId))
        Out.push_back(std::move(F));
    }
  }
  if (NolintProblems)
    *NolintProblems = Nolint.problems();
  return Out;
}

} // namespace seam
