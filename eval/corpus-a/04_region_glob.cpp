//@args: --region model::blocks::*
// Compiled regions selected by --region glob; no annotations.
#include <torch/torch.h>

#include <cstdio>

namespace model {
namespace blocks {

torch::Tensor gated(const torch::Tensor& x, const torch::Tensor& gate) {
  auto g = torch::sigmoid(gate);
  if (g.mean().item<float>() < 0.1f) {  //@ gb:item hs:item
    return x;
  }
  return x * g;
}

torch::Tensor topk_mask(const torch::Tensor& scores) {
  torch::Tensor keep = scores > scores.mean();
  return scores.index({keep});  //@ gb:index hs:index
}

}  // namespace blocks

namespace util {
// Not matched by the glob and not on a hot path.
void dump(const torch::Tensor& t) {
  std::printf("%f\n", t.sum().item<float>());
}
}  // namespace util
}  // namespace model

int main() {
  torch::Device dev(torch::kCUDA, 0);
  auto x = torch::randn({16, 32}, torch::TensorOptions().device(dev));
  auto gate = torch::randn({16, 32}, torch::TensorOptions().device(dev));
  auto y = model::blocks::gated(x, gate);
  auto z = model::blocks::topk_mask(y);
  model::util::dump(z);
  return 0;
}
