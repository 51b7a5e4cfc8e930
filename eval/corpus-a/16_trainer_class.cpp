// A trainer class: loop -> step() -> metrics(); members are unknown residency.
#include <torch/torch.h>

#include <iostream>
#include <map>
#include <string>

class Trainer {
 public:
  Trainer(torch::nn::Sequential model, torch::Device device)
      : model_(std::move(model)),
        device_(device),
        opt_(model_->parameters(), torch::optim::SGDOptions(0.1)) {
    model_->to(device_);
  }

  void fit(const torch::Tensor& x, const torch::Tensor& y, int epochs) {
    for (int e = 0; e < epochs; ++e) {
      step(x, y);
    }
    summarize();
  }

 private:
  void step(const torch::Tensor& x, const torch::Tensor& y) {
    opt_.zero_grad();
    last_loss_ = torch::mse_loss(model_->forward(x.to(device_)), y.to(device_));
    last_loss_.backward();
    opt_.step();
    record_metrics();
  }

  void record_metrics() {
    metrics_["loss"] += last_loss_.item<double>();  //@ hs:item
    ++steps_;
  }

  void summarize() {
    std::cout << "final loss tensor " << last_loss_ << "\n";
    std::cout << "mean loss " << metrics_["loss"] / steps_ << "\n";
    std::cout << "final " << last_loss_.item<float>() << std::endl;
  }

  torch::nn::Sequential model_;
  torch::Device device_;
  torch::optim::SGD opt_;
  torch::Tensor last_loss_;
  std::map<std::string, double> metrics_;
  int steps_ = 0;
};

int main() {
  torch::nn::Sequential model(torch::nn::Linear(8, 1));
  Trainer t(model, torch::Device(torch::kCUDA));
  t.fit(torch::randn({64, 8}), torch::randn({64, 1}), 10);
}
