//===- seam-graph-break.cpp - A host-value request in a compiled region ---===//
//
// Selects: every trigger site inside a compiled region (or reached from
// one), whatever its operand's residency. Severity: warning. Docs:
// docs/rules/seam-graph-break.md; tests: test/seam-graph-break/.
//
//===----------------------------------------------------------------------===//
#include "Rules/Rule.h"

namespace seam {
namespace {

class GraphBreakRule : public Rule {
public:
  const RuleInfo &info() const override {
    // Its prose is docs/rules/seam-graph-break.md.
    static const RuleInfo Info = withTraits(
        {"seam-graph-break", "GraphBreak",
         "A host-value request inside a compiled region cuts the region in "
         "two.",
         Level::Warning, /*Selectable=*/true},
        Hazard::GraphBreak, /*Validated=*/true);
    return Info;
  }

  bool check(const RuleInput &In, Finding &F) const override {
    if (!In.Where.Region)
      return false;
    F.Severity = Level::Warning;
    F.Region = *In.Where.Region;
    F.Message = "graph break: " + actionPhrase(In.Site) +
                " inside compiled region '" + *In.Where.Region + "'";
    addRuleSource(In.Site, F.Details);
    F.Path = toNotes(In.SM, In.LO, In.Where.RegionPath);
    F.HotReason = "region";
    return true;
  }
};

} // namespace

const Rule &graphBreakRule() {
  static const GraphBreakRule R;
  return R;
}

} // namespace seam
