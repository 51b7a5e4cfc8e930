// Graph-break costs with a fixed profile (test.json: sync 10, resume 5,
// launch 5, region entry 20 us; 1000 GB/s).
// RUN: not %seam check --profile %inputs/profiles/test.json %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
// RUN: not %seam check --profile %inputs/profiles/test.json --shape p=1024x1024 %s -- %mock | FileCheck %s --check-prefix=HINT
#include <iostream>
#include <torch/torch.h>
#define COMPILED [[clang::annotate("seam.compiled")]]

// Straight line: a pointwise chain cut in the middle.
COMPILED torch::Tensor straight() {
  auto x = torch::randn({256, 256}, torch::kCUDA);
  auto y = (x * 2 + 1).relu();
  float s = y.mean().item<float>();
  // The factory is a kernel too: randn, *, +, relu, mean | -, abs, sqrt, exp.
  // CHECK: :[[@LINE-2]]:22: warning: graph break: {{.*}}; region splits into 2 pieces, ~20 us added per region call (profile test) [seam-graph-break]
  // CHECK: note: the pieces have 5 | 4 ops; 0 fusion groups cut, +0 launches
  // CHECK: :[[@LINE-4]]:22: warning: host sync: {{.*}}; ~40 us device idle per call (profile test) [seam-host-sync]
  return (y - s).abs().sqrt().exp();
}

// A break between two pointwise ops cuts their fusion group; the crossing
// tensor (256x256 float32 from a literal shape) is written and read back.
COMPILED torch::Tensor cut(int k) {
  auto x = torch::randn({256, 256}, torch::kCUDA);
  auto y = x * 2;
  std::cout << y;
  // CHECK: :[[@LINE-1]]:13: warning: graph break: {{.*}}; region splits into 3 pieces, ~25.5 us added per region call (profile test) [seam-graph-break]
  // CHECK: note: the pieces have 2 | 1 | 2 ops; 1 fusion group cut, +1 launch, 512 KiB materialized
  // CHECK: :[[@LINE-3]]:13: warning: host sync: {{.*}} [seam-host-sync]
  auto z = y + 1;
  auto idx = z.nonzero();
  // CHECK: :[[@LINE-1]]:16: warning: graph break: {{.*}}; region splits into 3 pieces, ~25.5 us added per region call (profile test) [seam-graph-break]
  // CHECK: note: the pieces have 2 | 1 | 2 ops; 1 fusion group cut, +1 launch, 512 KiB materialized
  // A data-dependent shape syncs for the size, then launches the kernel
  // that fills its output: one eager op next and no region entry (sync 10,
  // resume 5, launch 5).
  // CHECK: :[[@LINE-6]]:16: warning: host sync: {{.*}}; ~20 us device idle per call (profile test) [seam-host-sync]
  return idx.relu() * 3;
}

// Unknown shapes: counted, not guessed. With --shape p=1024x1024 the bytes
// are known.
COMPILED torch::Tensor unknown_shape(torch::Tensor p) {
  auto y = p.exp();
  p.print();
  // CHECK: :[[@LINE-1]]:5: warning: graph break: {{.*}}; region splits into 2 pieces, ~25 us added per region call (profile test) [seam-graph-break]
  // CHECK: note: the pieces have 1 | 1 ops; 1 fusion group cut, +1 launch, unknown size materialized
  // CHECK: :[[@LINE-3]]:5: warning: host sync: {{.*}} [seam-host-sync]
  // HINT: :[[@LINE-4]]:5: warning: graph break: {{.*}}, ~33.4 us added per region call (profile test) [seam-graph-break]
  // HINT: note: the pieces have 1 | 1 ops; 1 fusion group cut, +1 launch, 8 MiB materialized
  // HINT: :[[@LINE-6]]:5: warning: host sync: {{.*}} [seam-host-sync]
  return y.tanh();
}

// A break in a constant loop inside the region: one piece per iteration.
// Helpers are inlined.
float peek(const torch::Tensor &t) { return t.sum().item<float>(); }
// CHECK: :[[@LINE-1]]:53: warning: graph break: {{.*}} inside compiled region 'looped'; region splits into 9 pieces, ~160 us added per region call (profile test) [seam-graph-break]
// CHECK: note: the pieces have 1 | 1 ops; 0 fusion groups cut, +0 launches
// CHECK: :[[@LINE-3]]:53: warning: host sync: {{.*}}; ~40 us device idle per iteration (profile test) [seam-host-sync]
// CHECK: note: ~320 us device idle per 8 iterations of the loop
COMPILED torch::Tensor looped(torch::Tensor x) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      x = x * peek(x);
  return x;
}

// A loop without a constant bound: per iteration.
COMPILED torch::Tensor open_loop(torch::Tensor x, int n) {
  while (n-- > 0)
    x = x / x.max().item<float>();
  // CHECK: :[[@LINE-1]]:21: warning: graph break: {{.*}}; region splits into 2 pieces, {{.*}} [seam-graph-break]
  // CHECK: note: the pieces have 1 | 1 ops, one more piece per iteration of a loop without a constant bound
  // CHECK: :[[@LINE-3]]:21: warning: host sync: {{.*}}; ~40 us device idle per iteration (profile test) [seam-host-sync]
  return x;
}

// A transpose is a view in LibTorch, though the seam::rt pack loaded beside
// it makes its own transpose a copying kernel: the callee's namespace picks
// the pack. randn, *, +, mean | -.
COMPILED torch::Tensor transposed() {
  auto x = torch::randn({256, 256}, torch::kCUDA);
  auto y = (x * 2).transpose(0, 1) + 1;
  float s = y.mean().item<float>();
  // CHECK: :[[@LINE-1]]:22: warning: graph break: {{.*}}; region splits into 2 pieces, ~20 us added per region call (profile test) [seam-graph-break]
  // CHECK: note: the pieces have 4 | 1 ops; 0 fusion groups cut, +0 launches
  // CHECK: :[[@LINE-3]]:22: warning: host sync: {{.*}} [seam-host-sync]
  return y - s;
}
