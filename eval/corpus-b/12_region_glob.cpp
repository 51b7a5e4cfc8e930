// Compiled regions selected by --region 'infer::Engine::run*' (see args file).
#include <torch/torch.h>
#include <iostream>

namespace infer {

class Engine {
 public:
  explicit Engine(torch::Tensor w) : w_(std::move(w)) {}

  torch::Tensor run_step(const torch::Tensor& x) {     // region via glob
    auto h = torch::matmul(x, w_);
    auto keep = h.gt(0).any(1);
    if (keep.sum().item<int64_t>() == 0) return h;       //@ gb@item hs@item
    return postprocess(h);
  }

  torch::Tensor run_batch(const torch::Tensor& xs) {    // region via glob
    std::vector<torch::Tensor> outs;
    for (int64_t i = 0; i < xs.size(0); ++i)
      outs.push_back(run_step(xs[i].unsqueeze(0)));
    auto cat = torch::cat(outs);
    torch::print(cat);                                   //@ gb@print hs@print #free function print
    return cat;
  }

  torch::Tensor warmup(const torch::Tensor& x) {        // not matched by the glob, not hot
    auto y = torch::matmul(x, w_);
    std::cout << y.mean().item<float>() << "\n";
    return y;
  }

 private:
  torch::Tensor postprocess(const torch::Tensor& h) {
    auto idx = torch::argmax(h, 1);
    auto cnt = torch::bincount(idx);
    auto hostcnt = cnt.to(torch::kCPU);                  //@ gb@to hs@to
    auto v = hostcnt.max().item<int64_t>();              //@ gb@item #host tensor in region: graph break only
    return h * static_cast<float>(v);
  }
  torch::Tensor w_;
};

}  // namespace infer

int main() {
  infer::Engine e(torch::randn({8, 8}, torch::kCUDA));
  auto x = torch::randn({4, 8}, torch::kCUDA);
  e.warmup(x);
  auto y = e.run_batch(x);
  return y.numel() > 0;
}
