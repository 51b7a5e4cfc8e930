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
  torch::nn::EmbeddingBag bagger(
      torch::nn::EmbeddingBagOptions(4, 3).mode(torch::kSum));
  bagger->to(device);
  torch::nn::CTCLoss ctc;
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
    // One sample checks its input with replacement too; so does a written
    // `false`.
    auto one = torch::softmax(x, 1).multinomial(1, /*replacement=*/true);
    // CHECK: :[[@LINE-1]]:37: warning: host sync: '.multinomial()'{{.*}} [seam-host-sync]
    auto drawn = torch::multinomial(torch::softmax(x, 1), 1, true);
    // CHECK: :[[@LINE-1]]:25: warning: host sync: 'multinomial()'{{.*}} [seam-host-sync]
    auto four = torch::softmax(x, 1).multinomial(4, false);
    // CHECK: :[[@LINE-1]]:38: warning: host sync: '.multinomial()'{{.*}} [seam-host-sync]
    auto four2 = torch::multinomial(torch::softmax(x, 1), 4, true);
    constexpr int64_t kDraws = 1;
    auto one2 = torch::softmax(x, 1).multinomial(kDraws, true);
    // CHECK: :[[@LINE-1]]:38: warning: host sync: '.multinomial()'{{.*}} [seam-host-sync]
    int64_t draws = i % 3 + 2;
    auto some = torch::softmax(x, 1).multinomial(draws, true);
    if (i % 100 == 0)
      torch::save(net, "net.pt");
    // CHECK: :[[@LINE-1]]:14: warning: host sync: 'save()'{{.*}} [seam-host-sync]
    // Calls that read a device value inside LibTorch (the audit in
    // docs/rule-packs.md, "What LibTorch reads on the host"), each next to
    // a look-alike that does not.
    auto best = x.sum(1).argmax();
    auto row = x[best];
    // CHECK: :[[@LINE-1]]:17: warning: host sync: '[]'{{.*}} [seam-host-sync]
    auto row3 = x[3];
    auto rowi = x.index({idx});
    auto noisy = at::normal(x, x.abs());
    // CHECK: :[[@LINE-1]]:22: warning: host sync: 'normal()'{{.*}} [seam-host-sync]
    auto noisy2 = at::normal(x, 0.5);
    auto noisy3 = x + x.abs() * torch::randn_like(x);
    auto bag = bagger(idx, torch::arange(0, 8, 2, torch::kLong).to(device));
    // CHECK: :[[@LINE-1]]:16: warning: host sync: 'forward()'{{.*}} [seam-host-sync]
    auto bag2 = bagger(idx.view({2, 4}));
    auto usv = torch::linalg::svd(m, false, c10::nullopt);
    // CHECK: :[[@LINE-1]]:31: warning: host sync: 'svd()'{{.*}} [seam-host-sync]
    auto usv2 = m.svd();
    // CHECK: :[[@LINE-1]]:19: warning: host sync: '.svd()'{{.*}} [seam-host-sync]
    auto fro = m.norm();
    auto nuc = at::nuclear_norm(m);
    // CHECK: :[[@LINE-1]]:20: warning: host sync: 'nuclear_norm()'{{.*}} [seam-host-sync]
    auto filled3 = x.index_fill(0, idx.slice(0, 0, 2), loss);
    // CHECK: :[[@LINE-1]]:22: warning: host sync: '.index_fill()'{{.*}} [seam-host-sync]
    auto filled4 = x.index_fill(0, idx.slice(0, 0, 2), 0.5);
    dev2.fill_(loss);
    // CHECK: :[[@LINE-1]]:10: warning: host sync: '.fill_()'{{.*}} [seam-host-sync]
    dev2.fill_(0.5);
    auto part = x.narrow(0, best, 2);
    // CHECK: :[[@LINE-1]]:19: warning: host sync: '.narrow()'{{.*}} [seam-host-sync]
    auto part2 = x.narrow(0, 1, 2);
    auto c = x.cov();
    // CHECK: :[[@LINE-1]]:16: warning: host sync: '.cov()'{{.*}} [seam-host-sync]
    auto r = torch::corrcoef(x);
    // CHECK: :[[@LINE-1]]:21: warning: host sync: 'corrcoef()'{{.*}} [seam-host-sync]
    auto centred = x - x.mean(1, true);
    auto med = x.nanmedian();
    // CHECK: :[[@LINE-1]]:18: warning: host sync: '.nanmedian()'{{.*}} [seam-host-sync]
    auto med2 = x.nanmedian(0);
    auto med3 = x.median();
    auto e = m.matrix_exp();
    // CHECK: :[[@LINE-1]]:16: warning: host sync: '.matrix_exp()'{{.*}} [seam-host-sync]
    auto e2 = m.exp();
    auto lsq = torch::linalg::lstsq(m, m, c10::nullopt, c10::nullopt);
    // CHECK: :[[@LINE-1]]:31: warning: host sync: 'lstsq()'{{.*}} [seam-host-sync]
    auto sp = torch::sparse_coo_tensor(idx.view({1, 8}), x.sum(1));
    // CHECK: :[[@LINE-1]]:22: warning: host sync: 'sparse_coo_tensor()'{{.*}} [seam-host-sync]
    auto lp = torch::randn({5, 2, 4}).to(device).log_softmax(2);
    auto tl = ctc(lp, idx.view({2, 4}) % 3 + 1, torch::full({2}, 5, torch::kLong).to(device), torch::full({2}, 4, torch::kLong).to(device));
    // CHECK: :[[@LINE-1]]:15: warning: host sync: 'forward()'{{.*}} [seam-host-sync]
    auto tl2 = ctc(lp, idx.view({2, 4}) % 3 + 1, torch::full({2}, 5, torch::kLong), torch::full({2}, 4, torch::kLong));
    std::cout << x.size(0) << " " << x.dim() << "\n";
  }
}
