//===- RuleCatalog.cpp - Descriptions of Seam's rules ---------------------===//
#include "Report/Reporters.h"

namespace seam {

const char *const SeamVersion = "0.1.0";

const std::vector<RuleInfo> &ruleCatalog() {
  static const std::vector<RuleInfo> Rules = {
      {"seam-graph-break", "GraphBreak",
       "A host-value request inside a compiled region cuts the region in two.",
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
       Level::Warning},
      {"seam-host-sync", "HostSync",
       "A device value is forced to the host on a hot path.",
       "Reading a device tensor's value on the host (item(), cpu(), "
       "printing, data-dependent shapes, explicit synchronize) blocks the "
       "host until the device has drained its queue and copied the value "
       "back; the device then idles until the host enqueues more work. On "
       "a hot path (a loop body, a module forward, a compiled region, or "
       "code called from them) this repeats every step.",
       "Defer the read: accumulate on the device and read once per epoch or "
       "every N steps, use torch::where instead of a branch on a value, "
       "keep masks as tensors instead of indices, and drop synchronize() "
       "calls that only serve timing. See docs/rules/seam-host-sync.md.",
       Level::Warning},
      {"seam-capture-sync", "CaptureSync",
       "A synchronization inside a CUDA graph capture span fails the capture.",
       "Between capture_begin() and capture_end() every kernel is recorded, "
       "not run; any operation that needs the device to finish (item(), "
       "cpu(), printing, nonzero, synchronize) is illegal there and makes "
       "the capture fail at run time with cudaErrorStreamCaptureUnsupported "
       "or an invalidated capture.",
       "Move the read out of the captured span (capture only the device "
       "work, read results after replay()), or replace it with device-side "
       "logic. See docs/rules/seam-capture-sync.md.",
       Level::Error},
  };
  return Rules;
}

const RuleInfo *findRule(llvm::StringRef Id) {
  for (const RuleInfo &R : ruleCatalog())
    if (R.Id == Id)
      return &R;
  return nullptr;
}

} // namespace seam
