// last-value: a scalar read assigned to a host variable in a loop, where
// only the last iteration's value is ever read, stays on the device in a
// tensor and is read once after the loop (docs/fixes.md). Each case that
// withholds the fix sits next to one that gets it.
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
#include <iostream>

torch::Tensor step(const torch::Tensor &x);

float train(torch::Tensor x, int n) {
  x = x.to(torch::kCUDA);
  float last = 0;
  int rounded = -1;
  for (int i = 0; i < n; ++i) {
    torch::Tensor loss = step(x);
    last = loss.item<float>();
    // CHECK: :[[@LINE-1]]:17: warning: host sync: '.item()' reads 'loss'{{.*}}[seam-host-sync]
    // CHECK: note: fix (last-value): keep the last value of 'last' on the device in 'last_device' and read it once after the loop (line [[@LINE+8]]); removes ~{{.*}} of device idle per execution
    // CHECK: fix-it:"{{.*}}":{[[@LINE-7]]:18-[[@LINE-7]]:18}:"\n  torch::Tensor last_device;"
    // CHECK: fix-it:"{{.*}}":{[[@LINE-4]]:5-[[@LINE-4]]:30}:"last_device = loss.detach().reshape({}).clone()"
    // CHECK: fix-it:"{{.*}}":{[[@LINE+5]]:4-[[@LINE+5]]:4}:"\n  if (last_device.defined())\n    last = last_device.item<float>();"
    rounded = static_cast<int>(loss.mean().item().toFloat());
    // CHECK: :[[@LINE-1]]:44: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: fix (last-value): keep the last value of 'rounded' on the device in 'rounded_device'
    // CHECK: fix-it:"{{.*}}":{[[@LINE+2]]:1-[[@LINE+2]]:1}:"  if (rounded_device.defined())\n    rounded = static_cast<int>(rounded_device.item<float>());\n"
  }
  return last + rounded;
}
// APPLIED: seam: applied 2 of 2 fixes to 1 file
// FIXED:      {{^}}  float last = 0;
// FIXED-NEXT: {{^}}  torch::Tensor last_device;
// FIXED-NEXT: {{^}}  int rounded = -1;
// FIXED-NEXT: {{^}}  torch::Tensor rounded_device;
// FIXED:      {{^}}    last_device = loss.detach().reshape({}).clone();
// FIXED:      {{^}}    rounded_device = loss.mean().detach().reshape({}).clone();
// FIXED:      {{^}}  }
// FIXED-NEXT: {{^}}  if (last_device.defined())
// FIXED-NEXT: {{^}}    last = last_device.item<float>();
// FIXED-NEXT: {{^}}  if (rounded_device.defined())
// FIXED-NEXT: {{^}}    rounded = static_cast<int>(rounded_device.item<float>());

// Withheld: the value is read inside the loop.
float watch(torch::Tensor x, int n) {
  x = x.to(torch::kCUDA);
  float last = 0;
  for (int i = 0; i < n; ++i) {
    last = step(x).item<float>();
    // CHECK: :[[@LINE-1]]:20: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: 'last' is read inside the loop at line [[@LINE+2]];
    // AFTER: :20: warning: host sync: '.item()' reads 'step(x)'{{.*}}[seam-host-sync]
    if (last < 0.1f)
      break;
  }
  return last;
}
