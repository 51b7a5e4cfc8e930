// Functions marked SEAM_COMPILED are compiled regions: any trigger inside
// them (or in what they call) is a graph break, whatever the residency.
// RUN: not %seam check %s -- %mock -I%repo/include | FileCheck %s --implicit-check-not='[seam-'
#include <iostream>
#include <seam/compiled.h>
#include <torch/torch.h>

torch::Tensor helper(const torch::Tensor &t) {
  if (t.mean().item<float>() > 0)
  // CHECK: :[[@LINE-1]]:16: warning: graph break: '.item()' reads 't.mean()' on the host inside compiled region 'step'{{.*}} [seam-graph-break]
  // CHECK: :[[@LINE+7]]:29: note: compiled region 'step' begins here (annotated as a compiled region)
  // CHECK: :[[@LINE+15]]:7: note: 'helper' called here, from 'step'
  // CHECK: :[[@LINE-4]]:16: warning: host sync: {{.*}} [seam-host-sync]
    return t * 2;
  return t;
}

SEAM_COMPILED torch::Tensor step(torch::Tensor x) {
  auto host = torch::ones({4});
  float h = host.sum().item<float>();
  // CHECK: :[[@LINE-1]]:24: warning: graph break: '.item()' reads 'host.sum()' on the host inside compiled region 'step'{{.*}} [seam-graph-break]
  auto y = x.relu() + h;
  auto n = y.numel() + y.size(0);
  std::cout << y;
  // CHECK: :[[@LINE-1]]:13: warning: graph break: printing 'y' with '<<'{{.*}} [seam-graph-break]
  // CHECK: :[[@LINE-2]]:13: warning: host sync: {{.*}} [seam-host-sync]
  y = helper(y);
  auto idx = torch::nonzero(y > 0);
  // CHECK: :[[@LINE-1]]:21: warning: graph break: 'nonzero()' on 'y > 0' has a data-dependent output shape inside compiled region 'step'{{.*}} [seam-graph-break]
  // CHECK: :[[@LINE-2]]:21: warning: host sync: {{.*}} [seam-host-sync]
  auto apply = [&](const torch::Tensor &t) { return t.cpu(); };
  // CHECK: :[[@LINE-1]]:55: warning: graph break: '.cpu()'{{.*}} [seam-graph-break]
  // CHECK: :[[@LINE-2]]:55: warning: host sync: {{.*}} [seam-host-sync]
  return apply(y);
}

// Methods can be regions too; a metadata-only region has no breaks.
struct Model : torch::nn::Module {
  SEAM_COMPILED torch::Tensor forward(torch::Tensor x) {
    auto shape = x.sizes();
    return x.view({x.size(0), -1}) * x.dim();
  }
};

// A region that only runs device work, and an unannotated twin that syncs
// once outside any hot path: no results.
SEAM_COMPILED torch::Tensor fused(torch::Tensor x) {
  return torch::where(x > 0, x, x * 0.1);
}
float plain(torch::Tensor x) { return x.sum().item<float>(); }
