// Real LibTorch headers: the library calls that synchronise at run time
// (rules/libtorch.json, each with its source), next to look-alikes that do
// not. Every line in the loop runs on a device tensor.
// REQUIRES: libtorch
// RUN: %seam check %s --fail-on=none -- %torch | FileCheck %s --implicit-check-not='[seam-'
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

void train(torch::Device device, int steps) {
  auto net = std::make_shared<Net>();
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  auto host = torch::zeros({8, 4});
  for (int i = 0; i < steps; ++i) {
    auto x = torch::randn({8, 4}).to(device);
    auto loss = net->forward(x).sum();
    loss.backward();
    torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
    // CHECK: :[[@LINE-1]]:23: warning: host sync: 'clip_grad_norm_()'{{.*}} [seam-host-sync]
    torch::nn::utils::clip_grad_value_(net->parameters(), 1.0);
    opt.step();
    auto idx = torch::randint(0, 4, {8}, torch::kLong).to(device);
    auto counts = torch::bincount(idx);
    // CHECK: :[[@LINE-1]]:26: warning: host sync: 'bincount()'{{.*}} [seam-host-sync]
    auto rep = x.repeat_interleave(idx.slice(0, 0, 8), 0);
    // CHECK: :[[@LINE-1]]:18: warning: host sync: '.repeat_interleave()'{{.*}} [seam-host-sync]
    auto rep2 = x.repeat_interleave(2, 0);
    auto rep3 = x.repeat_interleave(idx.slice(0, 0, 8), 0, 16);
    auto where1 = torch::where(x > 0);
    // CHECK: :[[@LINE-1]]:26: warning: host sync: 'where()'{{.*}} [seam-host-sync]
    auto where3 = torch::where(x > 0, x, torch::zeros_like(x));
    auto m = torch::eye(4).to(device);
    auto inv = torch::linalg::inv(m);
    // CHECK: :[[@LINE-1]]:31: warning: host sync: 'inv()'{{.*}} [seam-host-sync]
    auto inv2 = at::linalg_inv_ex(m);
    auto chol = torch::linalg_cholesky(m);
    // CHECK: :[[@LINE-1]]:24: warning: host sync: 'linalg_cholesky()'{{.*}} [seam-host-sync]
    auto oh = torch::one_hot(idx);
    // CHECK: :[[@LINE-1]]:22: warning: host sync: 'one_hot()'{{.*}} [seam-host-sync]
    auto oh4 = torch::one_hot(idx, 4);
    auto filled = x.masked_fill(x > 0, loss);
    // CHECK: :[[@LINE-1]]:21: warning: host sync: '.masked_fill()'{{.*}} [seam-host-sync]
    auto filled2 = x.masked_fill(x > 0, 0.5);
    host[i % 8] = loss;
    // CHECK: :[[@LINE-1]]:17: warning: host sync: '=' copies 'loss' to the host{{.*}} [seam-host-sync]
    host.index_put_({i % 8}, x.sum(0));
    // CHECK: :[[@LINE-1]]:10: warning: host sync: '.index_put_()'{{.*}} [seam-host-sync]
    auto dev2 = x.clone();
    dev2[0] = x[1];
    auto sample = torch::softmax(x, 1).multinomial(1);
    // CHECK: :[[@LINE-1]]:40: warning: host sync: '.multinomial()'{{.*}} [seam-host-sync]
    auto many = torch::softmax(x, 1).multinomial(4, /*replacement=*/true);
    if (i % 100 == 0)
      torch::save(net, "net.pt");
    // CHECK: :[[@LINE-1]]:14: warning: host sync: 'save()'{{.*}} [seam-host-sync]
    std::cout << x.size(0) << " " << x.dim() << "\n";
  }
}
