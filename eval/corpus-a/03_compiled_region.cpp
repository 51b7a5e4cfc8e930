// Annotated compiled region with a helper and a lambda.
#include <torch/torch.h>
#include <seam/compiled.h>

#include <iostream>

namespace {

float clip_value(const torch::Tensor& grad_norm) {
  return grad_norm.item<float>();  //@ gb:item hs:item
}

}  // namespace

SEAM_COMPILED torch::Tensor fused_step(torch::Tensor x, torch::Tensor w,
                                       torch::Tensor mask) {
  auto h = torch::matmul(x, w);
  const int64_t rows = h.size(0);
  const int64_t cols = h.dim() > 1 ? h.size(1) : 1;
  auto n = h.numel();
  (void)rows; (void)cols; (void)n;

  float c = clip_value(h.norm());
  h = h.clamp(-c, c);

  auto scale = [&](const torch::Tensor& t) {
    return t / t.abs().max().item<double>();  //@ gb:item hs:item
  };
  h = scale(h);

  auto idx = torch::nonzero(mask);  //@ gb:nonzero hs:nonzero
  auto picked = h.masked_select(mask);  //@ gb:masked_select hs:masked_select

  torch::Tensor bias = torch::ones({1});
  if (bias.item<float>() > 0.f) {  //@ gb:item
    h = h + bias;
  }
  return h + picked.sum() + idx.size(0);
}

int main() {
  auto x = torch::randn({4, 4}, torch::kCUDA);
  auto w = torch::randn({4, 4}, torch::kCUDA);
  auto m = torch::rand({4, 4}, torch::kCUDA) > 0.5;
  auto y = fused_step(x, w, m);
  std::cout << y.sizes() << std::endl;
}
