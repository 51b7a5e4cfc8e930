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

const std::vector<RuleInfo> &ruleCatalog() {
  // Each rule describes itself in lib/Rules/<rule id>.cpp.
  static const std::vector<RuleInfo> Rules = [] {
    std::vector<RuleInfo> Out;
    for (const Rule *R : ruleRegistry())
      Out.push_back(R->info());
    // Reported by the driver, not by a rule over trigger sites.
    RuleInfo Compile;
    Compile.Id = rule_ids::CompileError;
    Compile.Name = "ClangDiagnosticError";
    Compile.ShortDescription = "The compiler reported an error.";
    Compile.DefaultLevel = Level::Error;
    Compile.Selectable = false;
    Out.push_back(Compile);
    RuleInfo Nolint;
    Nolint.Id = rule_ids::Nolint;
    Nolint.Name = "UnmatchedNolint";
    Nolint.ShortDescription =
        "A NOLINTBEGIN without its NOLINTEND, or the reverse.";
    Nolint.DefaultLevel = Level::Error;
    Nolint.Selectable = false;
    Out.push_back(Nolint);
    return Out;
  }();
  return Rules;
}

const RuleInfo *findRule(llvm::StringRef Id) {
  for (const RuleInfo &R : ruleCatalog())
    if (R.Id == Id)
      return &R;
  return nullptr;
}

Hazard hazardOf(llvm::StringRef Id) {
  const RuleInfo *R = findRule(Id);
  return R ? R->Is : Hazard::None;
}

std::vector<SiteFinding> findHazards(clang::ASTContext &Ctx,
                                     const RegionModel &Regions,
                                     const std::vector<TriggerSite> &Sites,
                                     const std::vector<SiteContext> &Contexts,
                                     const AnalysisOptions &Opts,
                                     std::vector<Finding> *NolintProblems) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  const clang::LangOptions &LO = Ctx.getLangOpts();
  std::vector<SiteFinding> Out;
  Suppressions Nolint(SM);
  for (size_t I = 0; I < Sites.size(); ++I) {
    const TriggerSite &S = Sites[I];
    const SiteContext &C = Contexts[I];
    Finding Base;
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
        Out.push_back({std::move(F), &S, &C});
    }
  }
  if (NolintProblems)
    *NolintProblems = Nolint.problems();
  return Out;
}

} // namespace seam
