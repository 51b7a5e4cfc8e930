// Hot-path reachability edges: virtual calls, std algorithms, Cloneable modules,
// std::function, NOLINT, functions defined elsewhere.
#include <torch/torch.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <memory>
#include <vector>

float external_metric(const torch::Tensor& t);  // defined in another TU

struct Metric {
  virtual ~Metric() = default;
  virtual float compute(const torch::Tensor& t) = 0;
};
struct MeanMetric : Metric {
  float compute(const torch::Tensor& t) override {
    return t.mean().item<float>();  //@ hs:item
  }
};

static float via_function(const torch::Tensor& t) {
  return t.max().item<float>();
}

struct EncoderImpl : torch::nn::Cloneable<EncoderImpl> {
  EncoderImpl() { reset(); }
  void reset() override { lin = register_module("lin", torch::nn::Linear(8, 8)); }
  torch::Tensor forward(const torch::Tensor& x) {
    auto y = lin(x);
    if (y.isnan().any().item<bool>()) {  //@ hs:item
      y = torch::nan_to_num(y);
    }
    return y;
  }
  torch::Tensor predict(const torch::Tensor& x) {
    return forward(x).argmax(-1).cpu();
  }
  torch::nn::Linear lin{nullptr};
};
TORCH_MODULE(Encoder);

int main() {
  torch::Tensor x = torch::randn({4, 8}, torch::kCUDA);
  std::vector<torch::Tensor> outs{x, x + 1, x * 2};
  std::unique_ptr<Metric> metric = std::make_unique<MeanMetric>();
  std::function<float(const torch::Tensor&)> fn = via_function;
  Encoder enc;
  enc->to(torch::kCUDA);
  float total = 0.f;

  for (int i = 0; i < 10; ++i) {
    auto y = enc(x);
    total += metric->compute(y);
    total += fn(y);
    total += external_metric(y);
    total += y.sum().item<float>();  // NOLINT(seam-host-sync)
  }
  std::for_each(outs.begin(), outs.end(), [&](const torch::Tensor& t) {
    total += t.abs().sum().item<float>();  //@ hs:item
  });
  std::cout << total << " " << enc->predict(x).sizes() << std::endl;
}
