// A small LibTorch training script with the hazards Seam looks for; run
// `seam check examples/libtorch/train.cpp -- -std=c++17 -isystem
// /usr/include/torch/csrc/api/include -Iinclude` to see them.
#include <seam/compiled.h>
#include <torch/torch.h>

#include <iostream>

struct MlpImpl : torch::nn::Module {
  MlpImpl() : fc1(32, 64), fc2(64, 1) {
    register_module("fc1", fc1);
    register_module("fc2", fc2);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    // Data-dependent control flow: reads the device on every forward.
    if (x.abs().max().item<float>() > 100.0f)
      x = x / 100.0;
    return fc2->forward(x);
  }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Mlp);

// A compiled step: the print cuts the region in two.
SEAM_COMPILED torch::Tensor loss_step(Mlp &model, const torch::Tensor &x,
                                      const torch::Tensor &y) {
  auto loss = torch::mse_loss(model->forward(x), y);
  std::cout << "loss " << loss << "\n";
  return loss;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  Mlp model;
  model->to(device);
  torch::optim::SGD opt(model->parameters(), /*lr=*/0.01);
  auto x = torch::randn({256, 32}, device);
  auto y = torch::randn({256, 1}, device);
  auto epochs = torch::ones({1}); // host tensor: reading it is free
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    auto loss = loss_step(model, x, y);
    loss.backward();
    opt.step();
    // Reads the loss every step: the host waits for the device each time.
    float l = loss.item<float>();
    if (l < 1e-3f)
      break;
    // Fine: a host tensor.
    epochs += epochs.item<float>() > 0 ? 1 : 0;
  }
  // Once, outside the loop: not a hot path, not reported.
  std::cout << "final " << model->forward(x).mean().item<float>() << "\n";
}
