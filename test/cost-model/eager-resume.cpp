// A profile with host_eager_us uses it for a sync whose next launch is one
// eager op (sync_roundtrip + host_eager + launch_latency), and host_resume
// otherwise; a profile without it uses host_resume for both.
// RUN: %seam check --all-syncs --profile %inputs/profiles/eager.json %s -- %mock | FileCheck %s
// RUN: %seam check --all-syncs --profile %inputs/profiles/test.json %s -- %mock | FileCheck %s --check-prefix=RESUME
#include <torch/torch.h>

float eagerNext(torch::Tensor x) {
  float v = x.sum().item<float>();
  // CHECK: :[[@LINE-1]]:21: note: host sync: {{.*}}; ~16 us device idle per call (profile eager) [seam-host-sync]
  // RESUME: :[[@LINE-2]]:21: note: host sync: {{.*}}; ~20 us device idle per call (profile test) [seam-host-sync]
  torch::Tensor y = x * 2;
  return v + y.max().item<float>();
  // Nothing launches after this one: host_resume in both.
  // CHECK: :[[@LINE-2]]:22: note: host sync: {{.*}}; ~20 us device idle per call (profile eager) [seam-host-sync]
  // RESUME: :[[@LINE-3]]:22: note: host sync: {{.*}}; ~20 us device idle per call (profile test) [seam-host-sync]
}
