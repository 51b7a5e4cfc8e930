// Compiled lambda, template helpers and generic lambdas called from loops.
#include <torch/torch.h>
#include <seam/compiled.h>

#include <functional>
#include <iostream>

template <typename T>
T read_scalar(const torch::Tensor& t) {
  return t.template item<T>();  //@ hs:item
}

template <typename Fn>
void repeat(int n, Fn&& fn) {
  for (int i = 0; i < n; ++i) fn(i);
}

int main() {
  auto opts = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat32);
  torch::Tensor state = torch::zeros({8, 8}, opts);

  auto step = [&] SEAM_COMPILED (torch::Tensor x) {
    auto y = torch::sigmoid(x) * 2 - 1;
    if (y.sum().item<float>() > 10.f) {  //@ gb:item hs:item
      y = y * 0.5;
    }
    return y + static_cast<float>(y.size(0));
  };

  auto log_every = [](const auto& t, int i) {
    if (i % 10 == 0) std::cout << i << ": " << t.mean() << "\n";  //@ hs:<<#3
  };

  for (int it = 0; it < 100; ++it) {
    state = step(state);
    float m = read_scalar<float>(state.mean());
    double d = read_scalar<double>(state.std());
    log_every(state, it);
    (void)m; (void)d;
  }

  repeat(5, [&](int i) {
    bool ok = state.abs().max().item<float>() < 1e4f;  //@ hs:item
    if (!ok) std::cout << "diverged at " << i << std::endl;
  });
  return 0;
}
