// Compiled region containing a loop, and a compiled function called from a loop.
#include <torch/torch.h>
#include <seam/compiled.h>

#include <iostream>

[[clang::annotate("seam.compiled")]]
torch::Tensor unrolled_rnn(const torch::Tensor& xs, torch::Tensor h,
                           const torch::Tensor& w_ih, const torch::Tensor& w_hh) {
  const int64_t T = xs.size(0);
  for (int64_t t = 0; t < T; ++t) {
    h = torch::tanh(xs[t].matmul(w_ih) + h.matmul(w_hh));
    if (h.abs().max().item<float>() > 50.f) break;  //@ gb:item hs:item
  }
  torch::Tensor steps = torch::tensor({static_cast<int64_t>(T)});
  auto n = steps.item<int64_t>();  //@ gb:item
  return h / static_cast<double>(n);
}

SEAM_COMPILED at::Tensor gelu_block(at::Tensor x) {
  at::Tensor y = at::gelu(x);
  at::Tensor y_host = y.cpu();  //@ gb:cpu hs:cpu
  return y + y_host.sum().to(x.device());
}

int main() {
  auto opt = torch::TensorOptions().device(torch::kCUDA);
  auto xs = torch::randn({20, 4, 16}, opt);
  auto h = torch::zeros({4, 32}, opt);
  auto w_ih = torch::randn({16, 32}, opt);
  auto w_hh = torch::randn({32, 32}, opt);
  for (int epoch = 0; epoch < 3; ++epoch) {
    h = unrolled_rnn(xs, h, w_ih, w_hh).detach();
    h = gelu_block(h);
  }
  std::cout << h.sizes() << std::endl;
}
