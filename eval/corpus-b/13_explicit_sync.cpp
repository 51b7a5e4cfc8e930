// Explicit synchronization and copies into host tensors.
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <torch/torch.h>
#include <chrono>

double time_steps(torch::Tensor x, int n) {
  auto stream = c10::cuda::getCurrentCUDAStream();
  at::cuda::CUDAEvent done;
  auto host_buf = torch::empty({x.numel()}, torch::kFloat);   // host buffer
  auto pinned = torch::empty({x.numel()}, torch::TensorOptions().pinned_memory(true));  // still host
  double ms = 0;
  for (int i = 0; i < n; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    x = torch::sin(x) + torch::cos(x);
    done.record(stream);
    done.synchronize();                              //@ hs@synchronize #event synchronize
    stream.synchronize();                            //@ hs@synchronize #stream synchronize
    cudaDeviceSynchronize();                         //@ hs@cudaDeviceSynchronize
    torch::cuda::synchronize();                      //@ hs@synchronize #free function: location at its name
    host_buf.copy_(x.view(-1));                      //@ hs@copy_ #device-to-host copy into a host tensor
    pinned.copy_(host_buf);                          // host-to-host copy: fine
    x.view(-1).copy_(pinned);                        // host-to-device copy: fine
    ms += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return ms;
}

int main() {
  auto x = torch::randn({1024}, torch::kCUDA);
  torch::cuda::synchronize();   // not hot
  return time_steps(x, 10) > 0;
}
