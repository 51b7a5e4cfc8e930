// Syncs in setup/teardown code are not on a hot path; one helper is shared.
#include <torch/torch.h>

#include <iostream>

static float to_float(const torch::Tensor& t) {
  return t.item<float>();  //@ hs:item
}

static void report(const torch::Tensor& weights) {
  std::cout << "weights:\n" << weights << std::endl;
  std::cout << "norm " << weights.norm().item<double>() << std::endl;
}

int main() {
  torch::Device cuda(torch::kCUDA);
  auto w = torch::randn({10, 10}, torch::TensorOptions().device(cuda));
  // Setup, not a hot path.
  float init_norm = to_float(w.norm());
  bool warm = w.sum().is_nonzero();
  torch::cuda::synchronize();

  float last = 0.f;
  for (int i = 0; i < 50; ++i) {
    w = w - 0.01 * w.sign();
    last = to_float(w.abs().mean());
  }

  // Teardown.
  report(w);
  auto host = w.cpu();
  std::cout << init_norm << " " << warm << " " << last << " "
            << w.max().item<float>() << std::endl;
  return 0;
}
