// Real LibTorch and CUDA headers: a CUDA graph capture span, a compiled
// region, and host-tensor traps.
// REQUIRES: libtorch
// RUN: not %seam check %s -- %torch -I%repo/include | FileCheck %s --implicit-check-not='[seam-'
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAStream.h>
#include <seam/compiled.h>
#include <torch/torch.h>

SEAM_COMPILED torch::Tensor step(const torch::Tensor &x) {
  auto y = torch::relu(x) * 2;
  if (y.max().item<float>() > 1.0f)
  // 'step' is also called inside the capture span below: capture-sync
  // replaces host-sync there.
  // CHECK: :[[@LINE-3]]:15: error: capture sync: '.item()' reads 'y.max()'{{.*}} [seam-capture-sync]
  // CHECK: :[[@LINE-4]]:15: warning: graph break: '.item()' reads 'y.max()' on the host inside compiled region 'step'{{.*}} [seam-graph-break]
    y = y / 2;
  return y.view({-1}) * y.numel();
}

void replay_loop(int steps) {
  auto x = torch::randn({32, 32}, torch::device(torch::kCUDA));
  auto stream = c10::cuda::getStreamFromPool();
  at::cuda::CUDAGraph graph;
  graph.capture_begin();
  auto out = step(x);
  auto bad = out.nonzero();
  // CHECK: :[[@LINE-1]]:18: error: capture sync: '.nonzero()'{{.*}} [seam-capture-sync]
  graph.capture_end();
  auto host = torch::ones({4});
  for (int i = 0; i < steps; ++i) {
    graph.replay();
    stream.synchronize();
    // CHECK: :[[@LINE-1]]:12: warning: host sync: '.synchronize()'{{.*}} [seam-host-sync]
    float h = host.sum().item<float>() + host.size(0);
  }
}
