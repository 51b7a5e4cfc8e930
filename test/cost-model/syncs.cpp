// Host-sync and capture-sync idle: round trip + host resume + launch (+
// region entry when it is also a break), times constant trip counts.
// RUN: not %seam check --profile %inputs/profiles/test.json --summary %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
#include <ATen/cuda/CUDAGraph.h>
#include <algorithm>
#include <torch/torch.h>

void loops(int n) {
  auto x = torch::randn({8}, torch::kCUDA);
  for (int e = 0; e < 10; ++e) {
    for (int s = 0; s < 100; s += 2) {
      x.sum().item<float>();
      // CHECK: :[[@LINE-1]]:15: warning: host sync: {{.*}}; ~20 us device idle per iteration (profile test) [seam-host-sync]
      // CHECK: note: ~10 ms device idle per 500 iterations of the loop
    }
    x.cpu();
    // CHECK: :[[@LINE-1]]:7: warning: host sync: {{.*}}; ~20 us device idle per iteration (profile test) [seam-host-sync]
    // CHECK: note: ~200 us device idle per 10 iterations of the loop
  }
  for (int i = 0; i <= n; ++i)
    torch::cuda::synchronize();
  // CHECK: :[[@LINE-1]]:18: warning: host sync: {{.*}}; ~20 us device idle per iteration (profile test) [seam-host-sync]
}

// A lambda run by std::for_each repeats per element: per iteration.
void each(std::vector<torch::Tensor> &outs) {
  std::for_each(outs.begin(), outs.end(),
                [](const torch::Tensor &t) { t.sum().item<float>(); });
  // CHECK: :[[@LINE-1]]:54: warning: host sync: {{.*}}; ~20 us device idle per iteration (profile test) [seam-host-sync]
}

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x * x.max().item<float>();
    // CHECK: :[[@LINE-1]]:24: warning: host sync: {{.*}}; ~20 us device idle per call (profile test) [seam-host-sync]
  }
};

void capture() {
  auto x = torch::randn({8}, torch::kCUDA);
  at::cuda::CUDAGraph g;
  g.capture_begin();
  auto y = x.nonzero();
  // CHECK: :[[@LINE-1]]:14: error: capture sync: {{.*}}; ~20 us device idle per call (profile test) [seam-capture-sync]
  g.capture_end();
}

// CHECK: summary (profile test), most expensive first:
// CHECK: rank kind   name
// CHECK-NEXT: 67   loop   loops -      -         2     1.02 ms    10      10.2 ms
// CHECK-NEXT: at {{.*}}syncs.cpp:10:3
// CHECK-NEXT: 55   loop   loops -      -         1     20 us      ?       -
