// branch-to-select: a branch on a tensor value whose arms only assign one
// tensor, from the same tensor by the same side-effect-free ops, becomes a
// select on the device (docs/fixes.md). Each case that withholds the fix
// sits next to one that gets it.
// RUN: not %seam check --no-cache %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
//
// --fix round trip: the file still compiles with the same flags, and Seam
// no longer reports the fixed sites (nor anything new).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/a.cpp
// RUN: not %seam check --no-cache --fix %t/a.cpp -- %mock 2>%t/fix.err >/dev/null
// RUN: FileCheck %s --check-prefix=APPLIED --input-file=%t/fix.err
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t/a.cpp
// RUN: clang++ -fsyntax-only %mock %t/a.cpp
// RUN: not %seam check --no-cache %t/a.cpp -- %mock | FileCheck %s --check-prefix=AFTER --implicit-check-not='[seam-'
#include <torch/torch.h>

torch::Tensor step(const torch::Tensor &x);

torch::Tensor run(torch::Tensor h, torch::Tensor c, torch::Tensor x,
                  double thresh, int n) {
  h = h.to(torch::kCUDA);
  c = c.to(torch::kCUDA);
  x = x.to(torch::kCUDA);
  torch::Tensor acc = torch::zeros({4}).to(torch::kCUDA);
  for (int i = 0; i < n; ++i) {
    torch::Tensor y;
    if (c.item<bool>()) // a comment on the if goes with it
      y = h * 2;
    else
      y = h * 3;
    // CHECK: :[[@LINE-4]]:11: warning: host sync: '.item()' reads 'c'{{.*}}[seam-host-sync]
    // CHECK: note: fix (branch-to-select): select 'y' on the device instead of branching on the host; both branches now run; removes ~{{.*}} of device idle per execution{{.*}}; adds 3 small device ops per execution, launched without a wait (~{{.*}} of launch latency at the profile's figure, hidden while the device has work queued); both arms run: the select, the ops of the arm not taken and the condition's conversions are the ops counted (profile h100)
    // CHECK: fix-it:"{{.*}}":{[[@LINE-6]]:5-[[@LINE-3]]:17}:"y = torch::where(c.detach().reshape({}).to(h.device(), torch::kBool), h * 2, h * 3);"
    acc = acc + y;

    torch::Tensor z;
    if (x.item<float>() > thresh) {
      z = (h * 2.0).relu();
    } else {
      z = h.relu() * 0.5;
    }
    // CHECK: :[[@LINE-5]]:11: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: fix (branch-to-select): select 'z' on the device
    // CHECK: fix-it:"{{.*}}":{[[@LINE-7]]:5-[[@LINE-3]]:6}:"z = torch::where(x.detach().reshape({}).to(h.device(), torch::kFloat).to(torch::kDouble) > thresh, (h * 2.0).relu(), h.relu() * 0.5);"
    acc = acc + z;

    // Withheld: no else branch.
    if (x.item<float>() > 0.5f)
      acc = acc * 2;
    // CHECK: :[[@LINE-2]]:11: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: there is no else branch: 'acc' keeps its value there, and Seam cannot show that the then branch keeps its dtype;
    // Withheld: an arm with a call that may have side effects.
    if (c.item<bool>())
      z = step(h);
    else
      z = h * 2;
    // CHECK: :[[@LINE-4]]:11: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: 'step(h)' is not a side-effect-free element-wise op of the rule pack: both branches would run;
    // Withheld: the arms use different tensors, whose shapes may differ.
    if (c.item<bool>())
      z = h * 2;
    else
      z = acc * 2;
    // CHECK: :[[@LINE-4]]:11: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: Seam cannot show that both branches give the same shape and dtype
    // Withheld: an integer and a floating scalar may give different dtypes.
    if (c.item<bool>())
      z = h * 2;
    else
      z = h * 0.5;
    // CHECK: :[[@LINE-4]]:11: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: Seam cannot show that both branches give the same shape and dtype
    // Withheld: the arms assign different variables.
    if (c.item<bool>())
      z = h * 2;
    else
      y = h * 2;
    // CHECK: :[[@LINE-4]]:11: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: the branches assign different variables;
    acc = acc + z + y;
  }
  return acc;
}
// APPLIED: seam: applied 2 of 2 fixes to 1 file
// FIXED:      torch::Tensor y;
// FIXED-NEXT: y = torch::where(c.detach().reshape({}).to(h.device(), torch::kBool), h * 2, h * 3);
// FIXED-NEXT: // CHECK
// FIXED:      torch::Tensor z;
// FIXED-NEXT: z = torch::where(x.detach().reshape({}).to(h.device(), torch::kFloat).to(torch::kDouble) > thresh, (h * 2.0).relu(), h.relu() * 0.5);
// FIXED-NEXT: // CHECK
// AFTER-COUNT-5: warning: host sync{{.*}}[seam-host-sync]
