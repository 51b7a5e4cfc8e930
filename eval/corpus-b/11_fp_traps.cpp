// False-positive traps: CPU-only training, data loader batches, metadata loops.
#include <torch/torch.h>
#include <iostream>
#include <vector>

struct Tiny : torch::nn::Module {
  Tiny() { lin = register_module("lin", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x) { return lin->forward(x); }
  torch::nn::Linear lin{nullptr};
};

int main() {
  auto model = std::make_shared<Tiny>();   // never moved to a device
  torch::optim::SGD opt(model->parameters(), 0.1);
  auto xs = torch::randn({64, 4});
  auto ys = torch::randn({64, 1});
  auto ds = torch::data::datasets::TensorDataset({xs}).map(torch::data::transforms::Stack<torch::data::TensorExample>());
  auto loader = torch::data::make_data_loader(std::move(ds), 16);
  float total = 0;
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (auto& batch : *loader) {
      auto pred = model->forward(batch.data);
      auto loss = torch::mse_loss(pred, ys.narrow(0, 0, pred.size(0)));
      opt.zero_grad();
      loss.backward();
      opt.step();
      total += loss.item<float>();                // CPU-only model, host batch: host
      std::cout << batch.data.sizes() << "\n";     // metadata
      if (batch.data.numel() == 0) continue;
      auto m = batch.data.max().item<float>();     // host batch before .to(device)
      total += m;
    }
  }
  // Metadata-heavy loop over a device tensor.
  auto d = torch::randn({2, 3, 4}, torch::kCUDA);
  int64_t prod = 1;
  for (int64_t i = 0; i < d.dim(); ++i) {
    prod *= d.size(i);
    prod += d.sizes()[i] + d.stride(i) + d.numel();
    if (d.dtype() == torch::kFloat && d.device().is_cuda()) prod ^= 1;
    auto* p = d.data_ptr<float>();
    prod += p != nullptr;
  }
  // CPU copy then repeated reads: only the copy is a sync, and it is outside the loop.
  auto snap = d.cpu();
  for (int64_t i = 0; i < snap.numel(); ++i)
    total += snap.view(-1)[i].item<float>();
  // Host-to-device copy_ inside a loop: not a sync.
  auto dst = torch::empty({2, 3, 4}, torch::kCUDA);
  for (int i = 0; i < 3; ++i) dst.copy_(torch::rand({2, 3, 4}));
  return total > 0 && prod > 0;
}
