//===- seam-capture-sync.cpp - A sync inside a CUDA graph capture span ----===//
//
// Selects: a trigger site whose operand may be on the device, inside a
// capture span (capture_begin() .. capture_end(), cudaStreamBeginCapture ..
// EndCapture) or reached from one. Severity: error; it replaces
// seam-host-sync there. Docs: docs/rules/seam-capture-sync.md; tests:
// test/seam-capture-sync/.
//
//===----------------------------------------------------------------------===//
#include "Rules/Rule.h"

namespace seam {
namespace {

class CaptureSyncRule : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo Info = withTraits(
        {"seam-capture-sync", "CaptureSync",
         "A synchronization inside a CUDA graph capture span fails the "
         "capture.",
         "Between capture_begin() and capture_end() every kernel is recorded, "
         "not run; any operation that needs the device to finish (item(), "
         "cpu(), printing, nonzero, synchronize) is illegal there and makes "
         "the capture fail at run time with cudaErrorStreamCaptureUnsupported "
         "or an invalidated capture.",
         "Move the read out of the captured span (capture only the device "
         "work, read results after replay()), or replace it with device-side "
         "logic. See docs/rules/seam-capture-sync.md.",
         Level::Error,
         /*Selectable=*/true,
         "Before:\n"
         "  graph.capture_begin();\n"
         "  auto out = model->forward(x);\n"
         "  if (out.isnan().any().item<bool>())   // capture fails here\n"
         "    throw std::runtime_error(\"nan\");\n"
         "  graph.capture_end();\n"
         "After:\n"
         "  graph.capture_begin();\n"
         "  auto out = model->forward(x);\n"
         "  auto bad = out.isnan().any();          // a tensor, captured\n"
         "  graph.capture_end();\n"
         "  graph.replay();\n"
         "  if (bad.item<bool>()) throw std::runtime_error(\"nan\");"},
        Hazard::HostSync, /*Validated=*/true);
    return Info;
  }

  bool check(const RuleInput &In, Finding &F) const override {
    if (!maySync(In.Site.Where) || !In.Where.Capture)
      return false;
    F.Severity = Level::Error;
    F.Message = "capture sync: " + actionPhrase(In.Site) +
                " inside a CUDA graph capture; the capture fails at run time";
    F.Details.push_back(
        "a synchronization is not allowed while a stream is "
        "captured: CUDA reports cudaErrorStreamCaptureUnsupported "
        "and the graph is invalidated");
    addRuleSource(In.Site, F.Details);
    F.Path = toNotes(In.SM, In.LO, In.Where.CapturePath);
    F.HotReason = "capture";
    return true;
  }
};

} // namespace

const Rule &captureSyncRule() {
  static const CaptureSyncRule R;
  return R;
}

} // namespace seam
