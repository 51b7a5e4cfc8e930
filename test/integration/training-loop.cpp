// Real LibTorch headers: a training loop and an evaluation loop in the
// style of pytorch/examples (cpp/mnist), with a module forward.
// REQUIRES: libtorch
// RUN: not %seam check %s -- %torch | FileCheck %s --implicit-check-not='[seam-'
#include <torch/torch.h>
#include <iostream>

struct Net : torch::nn::Module {
  Net() : fc1(784, 64), fc2(64, 10) {
    register_module("fc1", fc1);
    register_module("fc2", fc2);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x.view({-1, 784})));
    if (x.mean().item<float>() > 10.0f)
    // CHECK: :[[@LINE-1]]:18: warning: host sync: '.item()' reads 'x.mean()'{{.*}} [seam-host-sync]
      x = x / 10.0;
    return torch::log_softmax(fc2->forward(x), /*dim=*/1);
  }
  torch::nn::Linear fc1, fc2;
};

template <typename DataLoader>
void train(Net &model, torch::Device device, DataLoader &loader,
           torch::optim::Optimizer &optimizer) {
  model.train();
  size_t batch_idx = 0;
  for (auto &batch : loader) {
    auto data = batch.data.to(device), targets = batch.target.to(device);
    optimizer.zero_grad();
    auto output = model.forward(data);
    auto loss = torch::nll_loss(output, targets);
    AT_ASSERT(!std::isnan(loss.template item<float>()));
    // CHECK: :[[@LINE-1]]:41: warning: host sync: '.item()' reads 'loss'{{.*}} [seam-host-sync]
    loss.backward();
    optimizer.step();
    if (batch_idx++ % 10 == 0)
      std::printf("loss: %.4f\n", loss.template item<float>());
    // CHECK: :[[@LINE-1]]:49: warning: host sync: '.item()' reads 'loss'{{.*}} [seam-host-sync]
    auto host_batch = batch.data;
    std::cout << host_batch.sizes() << host_batch.sum().template item<float>() << "\n";
  }
}

template <typename DataLoader>
void test(Net &model, torch::Device device, DataLoader &loader) {
  torch::NoGradGuard no_grad;
  model.eval();
  double loss = 0;
  int32_t correct = 0;
  for (const auto &batch : loader) {
    auto data = batch.data.to(device), targets = batch.target.to(device);
    auto output = model.forward(data);
    loss += torch::nll_loss(output, targets, {}, torch::Reduction::Sum)
                .template item<float>();
    // CHECK: :[[@LINE-1]]:27: warning: host sync: '.item()'{{.*}} [seam-host-sync]
    auto pred = output.argmax(1);
    correct += pred.eq(targets).sum().template item<int64_t>();
    // CHECK: :[[@LINE-1]]:48: warning: host sync: '.item()'{{.*}} [seam-host-sync]
  }
  std::printf("loss %.4f, correct %d\n", loss, correct);
}

struct SyntheticDataset : torch::data::datasets::Dataset<SyntheticDataset> {
  SyntheticDataset(std::vector<torch::Tensor> x, std::vector<torch::Tensor> y)
      : x(std::move(x)), y(std::move(y)) {}
  torch::data::Example<> get(size_t i) override { return {x[i], y[i]}; }
  torch::optional<size_t> size() const override { return x.size(); }
  std::vector<torch::Tensor> x, y;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model.to(device);
  std::vector<torch::Tensor> images, labels;
  for (int i = 0; i < 64; ++i) {
    images.push_back(torch::randn({784}));
    labels.push_back(torch::tensor(i % 10));
  }
  auto dataset = SyntheticDataset(images, labels)
                     .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(dataset), 16);
  torch::optim::SGD optimizer(model.parameters(), torch::optim::SGDOptions(0.01));
  train(model, device, *loader, optimizer);
  test(model, device, *loader);
  auto zeros = torch::zeros({3});
  for (int epoch = 0; epoch < 2; ++epoch) {
    std::cout << "epoch " << epoch << " " << zeros << "\n";
    auto w = model.fc1->weight;
    std::cout << w.norm() << "\n";
    // CHECK: :[[@LINE-1]]:15: warning: host sync: printing{{.*}} [seam-host-sync]
  }
}
