// Compiled regions: helpers with loops, host tensors inside regions, lambdas.
#include <seam/compiled.h>
#include <torch/torch.h>
#include <iostream>

namespace model {

torch::Tensor refine(torch::Tensor y, int iters) {
  for (int i = 0; i < iters; ++i) {
    y = y - 0.1 * torch::tanh(y);
    if (y.abs().max().item<float>() < 1e-3f) break;  //@ gb@item hs@item #helper with a loop reached from a region
  }
  return y;
}

torch::Tensor pick(const torch::Tensor& y) {
  return y.index({y > 0});   //@ gb@index hs@index #boolean-mask indexing
}

SEAM_COMPILED torch::Tensor step(const torch::Tensor& x) {
  auto y = torch::relu(x) * 2;
  auto n = y.numel();                                 // metadata
  auto shape = y.sizes();                             // metadata
  auto host_scale = torch::tensor({0.5f});
  float s = host_scale.item<float>();                 //@ gb@item #host tensor: graph break only
  y = refine(y * s, 3);
  if (n > 4 && shape[0] > 1) y = pick(y);
  std::cout << y.device() << " " << y.sizes() << "\n";  // metadata printing: fine
  return y;
}

[[clang::annotate("seam.compiled")]] at::Tensor fused(at::Tensor a, at::Tensor b) {
  auto c = at::mul(a, b);
  auto u = at::unique_consecutive(c);        //@ gb@unique_consecutive hs@unique_consecutive #unique* family, free function
  std::cout << std::get<0>(u) << std::endl;  //@ gb@<< hs@<< #printing a tensor
  return at::where(c > 0, c, at::zeros_like(c));
}

}  // namespace model

int main() {
  auto x = torch::randn({8}, torch::kCUDA);
  auto y = model::step(x);
  auto z = model::fused(x, y);
  auto lam = [&] SEAM_COMPILED (torch::Tensor t) {
    auto sorted = std::get<0>(t.sort());
    return sorted.equal(t);                   //@ gb@equal hs@equal #annotated lambda
  };
  bool same = lam(z);
  return same ? 0 : 1;
}
