// A realistic trainer: members, nested module forwards, metrics helpers.
#include <torch/torch.h>
#include <iostream>
#include <map>
#include <string>

struct BlockImpl : torch::nn::Module {
  BlockImpl(int d) : norm(register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})))) {}
  torch::Tensor forward(const torch::Tensor& x) {
    auto y = norm->forward(x);
    return y + x;
  }
  torch::nn::LayerNorm norm;
};
TORCH_MODULE(Block);

struct ModelImpl : torch::nn::Module {
  ModelImpl() {
    for (int i = 0; i < 3; ++i) blocks->push_back(Block(16));
    register_module("blocks", blocks);
  }
  torch::Tensor forward(torch::Tensor x) {
    for (auto& m : *blocks) {
      x = m->as<Block>()->forward(x);
      if (debug_) std::cout << x << "\n";     //@ hs@<< #print in forward loop
    }
    return x;
  }
  torch::nn::ModuleList blocks;
  bool debug_ = false;
};
TORCH_MODULE(Model);

class Trainer {
 public:
  Trainer(Model m, torch::Device d) : model_(std::move(m)), device_(d) { model_->to(device_); }

  void log_metrics(const std::map<std::string, torch::Tensor>& m) {
    for (const auto& [name, value] : m)
      std::cout << name << "=" << value.item<float>() << "\n";   //@ hs@item #loop in a helper; also called from fit loop
  }

  float grad_norm() {
    float total = 0;
    for (auto& p : model_->parameters())
      if (p.grad().defined()) total += p.grad().norm().item<float>();  //@ hs@item
    return total;
  }

  void fit(int steps) {
    torch::optim::Adam opt(model_->parameters());
    auto x = torch::randn({8, 16}).to(device_);
    for (int s = 0; s < steps; ++s) {
      auto loss = model_->forward(x).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      if (s % 10 == 0) log_metrics({{"loss", loss.detach()}, {"gn", torch::tensor(grad_norm())}});
    }
  }

  void report_once() {   // not called from any hot path (only from main, outside loops)
    auto w = model_->parameters()[0];
    std::cout << w.abs().max().item<float>() << "\n";
  }

 private:
  Model model_;
  torch::Device device_;
};

int main() {
  Trainer t{Model(), torch::Device(torch::kCUDA)};
  t.fit(100);
  t.report_once();
  return 0;
}
