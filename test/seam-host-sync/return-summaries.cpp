// The residency of what an in-file function returns comes from its return
// statements, through std::tie, structured bindings, .first/.second and
// std::get.
// RUN: not %seam check %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
#include <tuple>
#include <utility>
#include <vector>
#include <torch/torch.h>

std::tuple<torch::Tensor, torch::Tensor> host_batch(int i) {
  return std::make_tuple(torch::randn({4}), torch::randn({4}) * i);
}
std::pair<torch::Tensor, torch::Tensor> device_batch() {
  auto x = torch::randn({4}, torch::kCUDA);
  return {x, x * 2};
}

void cpu_only() {
  torch::Tensor x, y;
  for (int i = 0; i < 10; ++i) {
    std::tie(x, y) = host_batch(i);
    (void)x.sum().item<float>();
    auto [a, b] = host_batch(i);
    (void)b.sum().item<float>();
    auto p = std::make_pair(torch::ones({2}), torch::ones({2}));
    (void)p.first.item<float>();
    (void)std::get<1>(p).sum().item<float>();
  }
}

void on_device() {
  torch::Tensor x, y;
  for (int i = 0; i < 10; ++i) {
    std::tie(x, y) = device_batch();
    (void)y.sum().item<float>();
    // CHECK: :[[@LINE-1]]:19: warning: {{.*}} [seam-host-sync]
    auto p = device_batch();
    (void)p.second.item<float>();
    // CHECK: :[[@LINE-1]]:20: warning: {{.*}} [seam-host-sync]
    auto [a, b] = device_batch();
    (void)a.sum().item<float>();
    // CHECK: :[[@LINE-1]]:19: warning: {{.*}} [seam-host-sync]
  }
}

// A helper that fills a vector in a loop returns what it put there.
torch::Tensor features(torch::Tensor x) {
  std::vector<torch::Tensor> xs;
  for (int i = 0; i < 4; ++i)
    xs.push_back(x * (i + 1));
  return torch::cat(xs, 1);
}
void uses_features() {
  auto r = torch::randn({8});
  for (int i = 0; i < 10; ++i)
    (void)features(r).sum().item<float>();
}

// std::forward_as_tuple with a nested std::tie, as LSTM samplers write it.
std::tuple<torch::Tensor, std::tuple<torch::Tensor, torch::Tensor>>
step(const torch::Tensor &x) {
  auto d = x.cuda();
  return std::make_tuple(d, std::make_tuple(d, d));
}
void sample() {
  auto h = torch::zeros({2});
  auto c = torch::zeros({2});
  auto data = torch::zeros({2});
  for (int i = 0; i < 4; ++i) {
    torch::Tensor output;
    std::forward_as_tuple(output, std::tie(h, c)) = step(data);
    (void)output.exp().item<float>();
    // CHECK: :[[@LINE-1]]:24: warning: {{.*}} [seam-host-sync]
    (void)h.sum().item<float>();
    // CHECK: :[[@LINE-1]]:19: warning: {{.*}} [seam-host-sync]
  }
}
