// Logging through a user macro inside a training loop.
#include <torch/torch.h>

#include <iostream>

#define LOG_TENSOR(t) (std::cout << #t << " = " << (t) << std::endl)
#define SCALAR(t) ((t).item<double>())

int main() {
  torch::Device device = torch::kCUDA;
  torch::nn::Linear lin(10, 1);
  lin->to(device);
  torch::optim::SGD sgd(lin->parameters(), 0.01);
  torch::Tensor x = torch::randn({64, 10}).to(device);
  torch::Tensor y = torch::randn({64, 1}).to(device);
  torch::Tensor host_stats = torch::zeros({2});

  for (int epoch = 0; epoch < 20; ++epoch) {
    sgd.zero_grad();
    auto loss = torch::mse_loss(lin->forward(x), y);
    loss.backward();
    sgd.step();
    LOG_TENSOR(loss);  //@ hs:LOG_TENSOR
    double l = SCALAR(loss);  //@ hs:SCALAR
    LOG_TENSOR(host_stats);
    double h = SCALAR(host_stats);
    (void)l; (void)h;
  }
  LOG_TENSOR(lin->weight);
}
