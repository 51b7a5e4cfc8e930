// CUDA graph capture of a static MLP step.
#include <torch/torch.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime.h>

#include <iostream>

int main() {
  auto opts = torch::TensorOptions().dtype(torch::kFloat).device(torch::kCUDA);
  torch::Tensor static_in = torch::randn({64, 128}, opts);
  torch::Tensor w = torch::randn({128, 128}, opts);
  torch::Tensor static_out;
  torch::Tensor host_scale = torch::ones({1});

  auto side = c10::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard guard(side);
    for (int i = 0; i < 3; ++i) {
      static_out = torch::relu(static_in.matmul(w));
    }
    side.synchronize();
  }
  torch::cuda::synchronize();

  at::cuda::CUDAGraph graph;
  {
    c10::cuda::CUDAStreamGuard guard(side);
    graph.capture_begin();
    static_out = torch::relu(static_in.matmul(w));
    float peak = static_out.max().item<float>();  //@ cs:item
    (void)peak;
    auto n = static_out.numel();
    (void)n;
    float s = host_scale.item<float>();
    static_out = static_out * s;
    cudaDeviceSynchronize();  //@ cs:cudaDeviceSynchronize
    auto nz = static_out.nonzero();  //@ cs:nonzero
    (void)nz;
    graph.capture_end();
  }

  for (int step = 0; step < 100; ++step) {
    static_in.copy_(torch::randn({64, 128}, opts));
    graph.replay();
    side.synchronize();  //@ hs:synchronize
  }
  torch::cuda::synchronize();
  std::cout << static_out.sum() << std::endl;
  return 0;
}
