//@args: --region Policy::forward
// --region on a method; explicit syncs in a benchmark loop.
#include <torch/torch.h>
#include <cuda_runtime.h>

#include <chrono>
#include <iostream>

struct Policy : torch::nn::Module {
  Policy() : body(register_module("body", torch::nn::Linear(16, 4))) {}
  torch::Tensor forward(torch::Tensor obs) {
    auto logits = body->forward(obs);
    auto actions = logits.argmax(-1);
    const int64_t first = actions[0].item<int64_t>();  //@ gb:item hs:item
    return logits.select(0, 0) + static_cast<double>(first);
  }
  torch::nn::Linear body;
};

int main() {
  auto policy = std::make_shared<Policy>();
  policy->to(torch::kCUDA);
  torch::Tensor obs = torch::randn({32, 16}, torch::device(torch::kCUDA));

  torch::cuda::synchronize();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 100; ++i) {
    auto out = policy->forward(obs);
    torch::cuda::synchronize();  //@ hs:synchronize
  }
  for (int i = 0; i < 10; ++i) {
    obs = obs * 1.0f;
    cudaDeviceSynchronize();  //@ hs:cudaDeviceSynchronize
  }
  auto t1 = std::chrono::steady_clock::now();
  std::cout << std::chrono::duration<double>(t1 - t0).count() << std::endl;
}
