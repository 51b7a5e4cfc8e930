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
    static const RuleInfo Info = withTraits(
        {"seam-graph-break", "GraphBreak",
         "A host-value request inside a compiled region cuts the region in "
         "two.",
         "A compiled region is captured as one graph. A request for a host "
         "value inside it (a scalar read, a copy to the host, printing, an op "
         "whose output shape depends on data, an explicit synchronize) stops "
         "capture: the region is split into two pieces with host code between "
         "them, and fusion, reordering and memory planning across the cut are "
         "lost. This happens whether or not the tensor lives on the device.",
         "Keep the value on the device: replace data-dependent branches with "
         "torch::where or masking, move reads and prints out of the region "
         "(return the tensor and read it after the call), or mark the value "
         "so the region can be split deliberately. See docs/rules/"
         "seam-graph-break.md.",
         Level::Warning,
         /*Selectable=*/true,
         "Before:\n"
         "  SEAM_COMPILED torch::Tensor step(torch::Tensor x) {\n"
         "    auto y = x.relu();\n"
         "    if (y.max().item<float>() > 1)    // cuts the region in two\n"
         "      y = y / 2;\n"
         "    return y.exp();\n"
         "  }\n"
         "After:\n"
         "  SEAM_COMPILED torch::Tensor step(torch::Tensor x) {\n"
         "    auto y = x.relu();\n"
         "    y = torch::where(y.max() > 1, y / 2, y);  // stays in the graph\n"
         "    return y.exp();\n"
         "  }"},
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
