// Residency decisions docs/getting-started.md states ("What Seam looks
// at"): standard containers, local modules and modules from elsewhere,
// members of class templates; each decided case next to its counterpart.
// RUN: not %seam check %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
#include <torch/torch.h>

#include <map>
#include <vector>

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * 2; }
};
std::shared_ptr<Net> make_net(); // defined in another file

// A std::vector keeps where its elements live; a std::map is not followed.
void containers(int steps) {
  std::vector<torch::Tensor> dev, host;
  std::map<int, torch::Tensor> byKey;
  for (int i = 0; i < steps; ++i) {
    dev.push_back(torch::ones({2}).cuda());
    host.push_back(torch::ones({2}));
    byKey[i] = torch::ones({2});
    float a = dev.back().item<float>();
    // CHECK: :[[@LINE-1]]:26: warning: host sync: '.item()' reads 'dev.back()'{{.*}} [seam-host-sync]
    // CHECK-NOT: assumed
    float b = host.back().item<float>();
    float c = byKey[i].item<float>();
    // CHECK: :[[@LINE-1]]:24: warning: host sync: '.item()' reads 'byKey[i]'{{.*}} [seam-host-sync]
    // CHECK: note: 'byKey[i]' is assumed to be on the device
  }
}

// A module made here and never moved is on the host; one from another
// translation unit is unknown.
void modules(int steps) {
  auto local = std::make_shared<Net>();
  auto other = make_net();
  for (int i = 0; i < steps; ++i) {
    float a = local->forward(torch::ones({2})).item<float>();
    float b = other->forward(torch::ones({2})).item<float>();
    // CHECK: :[[@LINE-1]]:48: warning: host sync: '.item()' reads 'other->forward(torch::ones({2}))'{{.*}} [seam-host-sync]
    // CHECK: note: 'other->forward(torch::ones({2}))' is assumed to be on the device
  }
}

// A class template's members are analysed once per line, with a tensor
// member's residency unknown, instantiated or not.
template <typename T> struct Trainer {
  torch::Tensor w;
  void step(int n) {
    for (int i = 0; i < n; ++i)
      w.sum().item<float>();
    // CHECK: :[[@LINE-1]]:15: warning: host sync: '.item()' reads 'w.sum()'{{.*}} [seam-host-sync]
    // CHECK: note: 'w.sum()' is assumed to be on the device
  }
};

void use_trainer() {
  Trainer<int> t;
  t.w = torch::ones({2});
  t.step(3);
}
