// Every trigger kind, on device tensors inside a loop: each is one result.
// RUN: not %seam check %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
#include <ATen/cuda/CUDAGraph.h>
#include <cuda_runtime_api.h>
#include <iostream>
#include <torch/torch.h>

void triggers(int steps) {
  auto x = torch::randn({8, 8}, torch::kCUDA);
  auto y = torch::randn({8, 8}, torch::kCUDA);
  auto host = torch::zeros({8, 8});
  auto stream = c10::cuda::getCurrentCUDAStream();
  at::cuda::CUDAEvent event;
  for (int i = 0; i < steps; ++i) {
    float a = x.sum().item<float>();
    // CHECK: :[[@LINE-1]]:23: warning: host sync: '.item()' reads 'x.sum()' on the host{{.*}} [seam-host-sync]
    auto s = x.mean().item();
    // CHECK: :[[@LINE-1]]:23: warning: host sync: '.item()' reads 'x.mean()'{{.*}} [seam-host-sync]
    bool nz = x.is_nonzero();
    // CHECK: :[[@LINE-1]]:17: warning: host sync: '.is_nonzero()' reads 'x'{{.*}} [seam-host-sync]
    bool same = x.equal(y);
    // CHECK: :[[@LINE-1]]:19: warning: host sync: '.equal()' reads 'x'{{.*}} [seam-host-sync]
    bool close = x.allclose(y);
    // CHECK: :[[@LINE-1]]:20: warning: host sync: '.allclose()' reads 'x'{{.*}} [seam-host-sync]
    bool eq2 = torch::equal(x, y);
    // CHECK: :[[@LINE-1]]:23: warning: host sync: 'equal()' reads 'x'{{.*}} [seam-host-sync]
    auto c1 = x.cpu();
    // CHECK: :[[@LINE-1]]:17: warning: host sync: '.cpu()' copies 'x' to the host{{.*}} [seam-host-sync]
    auto c2 = x.to(torch::kCPU);
    // CHECK: :[[@LINE-1]]:17: warning: host sync: '.to()' copies 'x' to the host{{.*}} [seam-host-sync]
    auto c3 = x.to(torch::Device("cpu"));
    // CHECK: :[[@LINE-1]]:17: warning: host sync: '.to()' copies 'x' to the host{{.*}} [seam-host-sync]
    auto c4 = x.to(torch::Device(torch::kCPU), torch::kFloat);
    // CHECK: :[[@LINE-1]]:17: warning: host sync: '.to()' copies 'x' to the host{{.*}} [seam-host-sync]
    host.copy_(x);
    // CHECK: :[[@LINE-1]]:10: warning: host sync: '.copy_()' copies 'x' to the host{{.*}} [seam-host-sync]
    std::cout << "x = " << x << "\n";
    // CHECK: :[[@LINE-1]]:25: warning: host sync: printing 'x' with '<<' copies it to the host{{.*}} [seam-host-sync]
    x.print();
    // CHECK: :[[@LINE-1]]:7: warning: host sync: printing 'x' with '.print()'{{.*}} [seam-host-sync]
    torch::print(y);
    // CHECK: :[[@LINE-1]]:12: warning: host sync: printing 'y' with 'print()'{{.*}} [seam-host-sync]
    auto idx = x.nonzero();
    // CHECK: :[[@LINE-1]]:18: warning: host sync: '.nonzero()' on 'x' has a data-dependent output shape{{.*}} [seam-host-sync]
    auto idx2 = torch::nonzero(x);
    // CHECK: :[[@LINE-1]]:24: warning: host sync: 'nonzero()' on 'x' has a data-dependent output shape{{.*}} [seam-host-sync]
    auto sel = x.masked_select(x > 0);
    // CHECK: :[[@LINE-1]]:18: warning: host sync: '.masked_select()' on 'x' has a data-dependent output shape{{.*}} [seam-host-sync]
    auto sel2 = torch::masked_select(x, y > 0);
    // CHECK: :[[@LINE-1]]:24: warning: host sync: 'masked_select()' on 'x'{{.*}} [seam-host-sync]
    auto u = torch::_unique(x);
    // CHECK: :[[@LINE-1]]:21: warning: host sync: '_unique()' on 'x'{{.*}} [seam-host-sync]
    auto u2 = x.unique_consecutive();
    // CHECK: :[[@LINE-1]]:17: warning: host sync: '.unique_consecutive()' on 'x'{{.*}} [seam-host-sync]
    auto mask = x > 0.5;
    auto picked = x.index({mask});
    // CHECK: :[[@LINE-1]]:21: warning: host sync: '.index()' on 'x' has a data-dependent output shape{{.*}} [seam-host-sync]
    // x[t] takes only a zero-dimensional index and reads it with item():
    // a scalar read of the index, whatever it holds (a mask throws).
    auto picked2 = x[x.sum().argmax()];
    // CHECK: :[[@LINE-1]]:21: warning: host sync: '[]' reads 'x.sum().argmax()' on the host{{.*}} [seam-host-sync]
    x.index_put_({mask}, y);
    // CHECK: :[[@LINE-1]]:7: warning: host sync: '.index_put_()' on 'x' has a data-dependent output shape{{.*}} [seam-host-sync]
    torch::cuda::synchronize();
    // CHECK: :[[@LINE-1]]:18: warning: host sync: 'synchronize()' waits for the device to drain its queue{{.*}} [seam-host-sync]
    // CHECK: note: the device then idles until the host enqueues more work
    cudaDeviceSynchronize();
    // CHECK: :[[@LINE-1]]:5: warning: host sync: 'cudaDeviceSynchronize()' waits for the device{{.*}} [seam-host-sync]
    stream.synchronize();
    // CHECK: :[[@LINE-1]]:12: warning: host sync: '.synchronize()' waits for the device{{.*}} [seam-host-sync]
    event.synchronize();
    // CHECK: :[[@LINE-1]]:11: warning: host sync: '.synchronize()' waits for the device{{.*}} [seam-host-sync]
  }
}

// Not triggers: an integer index, a non-bool index tensor, metadata, masks
// kept as tensors, device-side selection, and moves toward the device.
void not_triggers(int steps) {
  auto x = torch::randn({8, 8}, torch::kCUDA);
  auto idx = torch::arange(4, torch::kCUDA);
  for (int i = 0; i < steps; ++i) {
    auto row = x[0];
    auto rows = x.index({idx});
    // A host index is read without waiting.
    auto gathered = x[torch::tensor({2.0f})];
    // One value into a masked place is a masked_fill: no nonzero.
    x.index_put_({x > 0}, 0.0);
    auto n = x.numel() + x.size(0) + x.dim();
    auto sz = x.sizes();
    auto dt = x.scalar_type();
    auto dev = x.device();
    bool cuda = x.is_cuda();
    float *p = x.data_ptr<float>();
    auto kept = torch::where(x > 0, x, torch::zeros_like(x));
    auto masked = x.masked_fill(x < 0, 0.0);
    auto g = x.to(torch::kCUDA);
    auto h = x.to(torch::kDouble);
    std::cout << "shape " << x.size(0) << "\n";
  }
}
