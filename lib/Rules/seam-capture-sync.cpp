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
    // Its prose is docs/rules/seam-capture-sync.md.
    static const RuleInfo Info = withTraits(
        {"seam-capture-sync", "CaptureSync",
         "A synchronization inside a CUDA graph capture span fails the "
         "capture.",
         Level::Error, /*Selectable=*/true},
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
