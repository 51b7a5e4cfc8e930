// CPU-only code: a module never moved to a device returns host tensors,
// also as a std::tuple; with DefaultResidency host (--default-residency
// host), a tensor whose origin is not visible is on the host too, and only
// tensors seen moved to a device sync.
// RUN: not %seam check %s -- %mock | FileCheck %s --check-prefix=DEFAULT --implicit-check-not='[seam-'
// RUN: not %seam check --default-residency host %s -- %mock | FileCheck %s --check-prefix=HOST --implicit-check-not='[seam-'
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/cpu-only.cpp && printf 'DefaultResidency: host\n' > %t/.seam.yaml
// RUN: not %seam check --no-cache %t/cpu-only.cpp -- %mock | FileCheck %s --check-prefix=HOST --implicit-check-not='[seam-'
// RUN: printf 'DefaultResidency: cpu\n' > %t/.seam.yaml
// RUN: %expect_exit 2 %seam check --no-cache %t/cpu-only.cpp -- %mock 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: DefaultResidency: 'cpu' (expected 'device' or 'host')
#include <torch/torch.h>
#include <tuple>

struct PairNetImpl : torch::nn::Module {
  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
    return std::make_tuple(fc(x), fc(x) * 2);
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(PairNet);

std::tuple<torch::Tensor, torch::Tensor> free_pair(torch::Tensor x) {
  return std::make_tuple(x, x * 2);
}

void cpu_training(int n) {
  PairNet net;
  auto x = torch::ones({4});
  for (int i = 0; i < n; ++i) {
    auto out = net->forward(x);
    std::get<0>(out).sum().item<float>();
    auto [a, b] = net->forward(x);
    b.sum().item<float>();
    auto [c, d] = net(x);
    d.sum().item<float>();
    auto [e, f] = free_pair(x);
    f.sum().item<float>();
  }
}

void moved_training(int n) {
  PairNet net;
  net->to(torch::kCUDA);
  auto x = torch::ones({4}, torch::kCUDA);
  for (int i = 0; i < n; ++i) {
    auto [a, b] = net->forward(x);
    b.sum().item<float>();
    // DEFAULT: :[[@LINE-1]]:13: warning: {{.*}} [seam-host-sync]
    // HOST: :[[@LINE-2]]:13: warning: {{.*}} [seam-host-sync]
  }
}

// Where the tensor comes from is not visible here: the device by default,
// the host in a CPU-only program.
void unseen(int n, const torch::Tensor &loss) {
  for (int i = 0; i < n; ++i)
    loss.item<float>();
  // DEFAULT: :[[@LINE-1]]:10: warning: {{.*}} [seam-host-sync]
}
