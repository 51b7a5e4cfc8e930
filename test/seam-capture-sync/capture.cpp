// Inside a CUDA graph capture span any sync is seam-capture-sync (an error)
// and never also seam-host-sync.
// RUN: not %seam check %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
#include <ATen/cuda/CUDAGraph.h>
#include <cuda_runtime_api.h>
#include <iostream>
#include <torch/torch.h>

float probe(const torch::Tensor &t) { return t.max().item<float>(); }
// CHECK: :[[@LINE-1]]:54: error: capture sync: '.item()' reads 't.max()' on the host inside a CUDA graph capture; the capture fails at run time{{.*}} [seam-capture-sync]
// CHECK: :[[@LINE+9]]:9: note: CUDA graph capture begins here
// CHECK: :[[@LINE+15]]:3: note: 'probe' called here, from 'capture'

void capture(int steps) {
  auto x = torch::randn({8}, torch::kCUDA);
  auto host = torch::ones({8});
  at::cuda::CUDAGraph graph;
  auto warm = x * 2;
  warm.sum().item<float>(); // before capture, not in a loop: no result
  graph.capture_begin();
  auto y = x * 2 + 1;
  if (y.sum().item<float>() > 0)
  // CHECK: :[[@LINE-1]]:15: error: capture sync: '.item()' reads 'y.sum()' on the host inside a CUDA graph capture; the capture fails at run time{{.*}} [seam-capture-sync]
    y = y * 2;
  std::cout << y;
  // CHECK: :[[@LINE-1]]:13: error: capture sync: printing 'y'{{.*}} [seam-capture-sync]
  probe(y);
  torch::cuda::synchronize();
  // CHECK: :[[@LINE-1]]:16: error: capture sync: 'synchronize()'{{.*}} [seam-capture-sync]
  host.sum().item<float>(); // a host tensor never syncs
  graph.capture_end();
  y.sum().item<float>(); // after capture, not in a loop: no result
  for (int i = 0; i < steps; ++i) {
    graph.replay();
    y.sum().item<float>();
    // CHECK: :[[@LINE-1]]:13: warning: host sync: {{.*}} [seam-host-sync]
  }
}

void raw_capture(cudaStream_t stream) {
  auto x = torch::randn({8}, torch::kCUDA);
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  auto y = x.nonzero();
  // CHECK: :[[@LINE-1]]:14: error: capture sync: '.nonzero()'{{.*}} [seam-capture-sync]
  cudaStreamSynchronize(stream);
  // CHECK: :[[@LINE-1]]:3: error: capture sync: 'cudaStreamSynchronize()'{{.*}} [seam-capture-sync]
  cudaGraph_t g;
  cudaStreamEndCapture(stream, &g);
}
