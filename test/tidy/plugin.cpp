// The same rules as clang-tidy checks, from the plugin.
// REQUIRES: seam-tidy
// RUN: not %clang_tidy_seam -checks='-*,seam-*' %s -- %mock 2>&1 | FileCheck %s --implicit-check-not='[seam-'
// RUN: %clang_tidy_seam -checks='-*,seam-host-sync' %s -- %mock 2>&1 | FileCheck %s --check-prefix=ONLY --implicit-check-not='[seam-'
// RUN: not %clang_tidy_seam -checks='-*,seam-*' -config="{CheckOptions: {seam-graph-break.Regions: 'plain', seam-host-sync.Regions: 'plain', seam-capture-sync.Regions: 'plain'}}" %s -- %mock 2>&1 | FileCheck %s --check-prefix=REGION
// RUN: %clang_tidy_seam -checks='-*,seam-*' -dump-config %s -- %mock | FileCheck %s --check-prefix=CONFIG
// A configuration that analyzes nothing is an error and clang-tidy exits
// non-zero (a CI job must not pass without analysis).
// RUN: not %clang_tidy_seam -checks='-*,seam-host-sync' -config="{CheckOptions: {seam-host-sync.Profile: nosuch}}" %s -- %mock 2>&1 | FileCheck %s --check-prefix=BAD-PROFILE
// BAD-PROFILE: error: invalid profile: unknown profile 'nosuch'{{.*}} [clang-tidy-config]
// RUN: not %clang_tidy_seam -checks='-*,seam-host-sync' -config="{CheckOptions: {seam-host-sync.RulesDir: /nonexistent}}" %s -- %mock 2>&1 | FileCheck %s --check-prefix=BAD-RULES
// BAD-RULES: error: invalid rule pack: cannot read '/nonexistent/libtorch.json'{{.*}} [clang-tidy-config]
// RUN: not %clang_tidy_seam -checks='-*,seam-host-sync' -config="{CheckOptions: {seam-host-sync.Regions: '['}}" %s -- %mock 2>&1 | FileCheck %s --check-prefix=BAD-GLOB
// BAD-GLOB: error: invalid region pattern '[' (from Regions): {{.*}} [clang-tidy-config]
#include <ATen/cuda/CUDAGraph.h>
#include <torch/torch.h>

float plain(const torch::Tensor &x) { return x.sum().item<float>(); }
// CHECK: :[[@LINE-1]]:54: warning: host sync: '.item()' reads 'x.sum()'{{.*}} [seam-host-sync]
// CHECK: note: inside this loop, which runs the call every iteration
// ONLY: :[[@LINE-3]]:54: warning: host sync: {{.*}} [seam-host-sync]
// REGION: :[[@LINE-4]]:54: warning: graph break: {{.*}} inside compiled region 'plain'{{.*}} [seam-graph-break]
// REGION: :[[@LINE-5]]:54: warning: host sync: {{.*}} [seam-host-sync]

void run(int n) {
  auto x = torch::randn({4}, torch::kCUDA);
  for (int i = 0; i < n; ++i)
    plain(x);
  at::cuda::CUDAGraph g;
  g.capture_begin();
  x.cpu();
  // CHECK: :[[@LINE-1]]:5: error: capture sync: '.cpu()'{{.*}} [seam-capture-sync]
  // REGION: :[[@LINE-2]]:5: error: capture sync: {{.*}} [seam-capture-sync]
  g.capture_end();
}
// CONFIG: seam-host-sync.Profile: h100
// CONFIG: seam-host-sync.RulesDir:
