// Residency: host tensors never sync; device and unknown ones do.
// RUN: not %seam check %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
#include <iostream>
#include <memory>
#include <torch/torch.h>

struct Counter {
  int item() const;
};

void host_values(int n) {
  auto ones = torch::ones({1});
  auto lit = torch::tensor({1.0f, 2.0f});
  float buf[4];
  auto blob = torch::from_blob(buf, {4});
  auto opts = torch::TensorOptions().dtype(torch::kFloat);
  auto typed = torch::zeros({2}, opts);
  auto on_cpu = torch::zeros({2}, torch::kCPU);
  auto dev = torch::randn({2}, torch::kCUDA);
  auto back = dev.cpu();
  Counter counter;
  for (int i = 0; i < n; ++i) {
    ones.item<float>();
    lit.sum().item<float>();
    blob.item<float>();
    typed.item<float>();
    on_cpu.item<float>();
    back.item<float>();
    (ones + lit).item<float>();
    std::cout << ones << back << "\n";
    counter.item();
    auto again = dev.to(torch::kCPU);
    // CHECK: :[[@LINE-1]]:22: warning: host sync: '.to()' copies 'dev' to the host{{.*}} [seam-host-sync]
    again.item<float>();
  }
}

void device_values(int n, torch::Device device, const torch::Tensor &param) {
  auto a = torch::ones({2}).cuda();
  auto b = torch::ones({2}).to(torch::kCUDA);
  auto c = torch::zeros({2}, torch::TensorOptions().device(torch::kCUDA));
  auto d = torch::zeros({2}, device);
  auto e = torch::full({2}, 1.0, torch::Device("cuda:0"));
  auto opts = torch::TensorOptions().dtype(torch::kFloat).device(torch::kCUDA);
  auto f = torch::empty({2}, opts);
  auto g = torch::ones_like(a);
  for (int i = 0; i < n; ++i) {
    a.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: host sync: '.item()' reads 'a' on the host{{.*}} [seam-host-sync]
    b.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: {{.*}} [seam-host-sync]
    c.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: {{.*}} [seam-host-sync]
    d.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: host sync: '.item()' reads 'd' on the host{{.*}} [seam-host-sync]
    // CHECK: note: 'd' is assumed to be on the device
    e.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: {{.*}} [seam-host-sync]
    f.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: {{.*}} [seam-host-sync]
    g.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: {{.*}} [seam-host-sync]
    param.item<float>();
    // CHECK: :[[@LINE-1]]:11: warning: {{.*}}'param'{{.*}} [seam-host-sync]
    // CHECK: note: 'param' is assumed to be on the device
    (torch::ones({1}) + a).item<float>();
    // CHECK: :[[@LINE-1]]:28: warning: {{.*}} [seam-host-sync]
  }
}

// Flow: reassignment, branches and loop-carried values.
void flow(int n, bool flag) {
  auto x = torch::randn({2}, torch::kCUDA);
  auto y = x;
  y = y.cpu();
  auto z = torch::zeros({2});
  if (flag)
    z = x * 2;
  auto w = torch::zeros({2});
  auto counter = torch::zeros({1});
  for (int i = 0; i < n; ++i) {
    counter += 1; // in place with a scalar: still on the host
    counter = 0;
    counter.item<float>();
    y.item<float>();
    z.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: {{.*}} [seam-host-sync]
    w.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: {{.*}} [seam-host-sync]
    w = x + 1;
  }
}

// Data-loader batches are host tensors until moved.
void loader(torch::Device device) {
  auto data_loader = torch::data::make_data_loader(64);
  for (auto &batch : *data_loader) {
    auto data = batch.data;
    auto target = batch.target.to(device);
    data.sum().item<float>();
    std::cout << batch.target << "\n";
    target.sum().item<float>();
    // CHECK: :[[@LINE-1]]:18: warning: {{.*}} [seam-host-sync]
  }
}

// A device chosen at run time counts as the device.
void runtime_device(int n) {
  torch::Device device = torch::kCPU;
  if (torch::cuda::is_available())
    device = torch::kCUDA;
  auto t = torch::ones({2}, device);
  auto cond = torch::ones({2}, torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  for (int i = 0; i < n; ++i) {
    t.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: {{.*}} [seam-host-sync]
    cond.item<float>();
    // CHECK: :[[@LINE-1]]:10: warning: {{.*}} [seam-host-sync]
  }
}

// Parameters take the origin of what the TU passes them; a parameter with
// no caller in the TU has unknown origin.
float host_only(const torch::Tensor &t) { return t.item<float>(); }
float mixed(const torch::Tensor &t) { return t.item<float>(); }
// CHECK: :[[@LINE-1]]:48: warning: host sync: '.item()' reads 't'{{.*}} [seam-host-sync]
torch::Tensor pass_through(torch::Tensor t) { return t * 2; }
float via(const torch::Tensor &t) { return pass_through(t).item<float>(); }

void callers(int n) {
  auto h = torch::ones({2});
  auto d = torch::ones({2}, torch::kCUDA);
  for (int i = 0; i < n; ++i) {
    host_only(h);
    host_only(h.sum());
    mixed(h);
    mixed(d);
    via(h);
  }
}

// A module made in this function lives on the host until moved; module
// members and parameters of unknown origin count as the device.
struct Tiny : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * 2; }
};
void modules(int n, torch::Device device, torch::nn::Linear &given) {
  torch::nn::Linear cpu_fc(4, 4);
  auto moved = torch::nn::Linear(4, 4);
  moved->to(device);
  Tiny tiny;
  Tiny tiny_dev;
  tiny_dev.to(torch::kCUDA);
  auto x = torch::ones({4});
  for (int i = 0; i < n; ++i) {
    cpu_fc(x).sum().item<float>();
    cpu_fc->weight.sum().item<float>();
    tiny.forward(x).sum().item<float>();
    moved(x).sum().item<float>();
    // CHECK: :[[@LINE-1]]:20: warning: {{.*}} [seam-host-sync]
    tiny_dev.forward(x).sum().item<float>();
    // CHECK: :[[@LINE-1]]:31: warning: {{.*}} [seam-host-sync]
    given(x).sum().item<float>();
    // CHECK: :[[@LINE-1]]:20: warning: {{.*}} [seam-host-sync]
  }
}

// A module parameter lives where the modules the file passes it live: a
// trainer template called with a local module never moved runs on the
// host; called with one moved to the device, on the device.
template <typename M> float trainWith(M &model, int n) {
  auto x = torch::ones({4});
  float total = 0;
  for (int i = 0; i < n; ++i)
    total += model.forward(x).sum().template item<float>();
  return total;
}
float stepHost(Tiny &model, int n) {
  auto x = torch::ones({4});
  float total = 0;
  for (int i = 0; i < n; ++i)
    total += model.forward(x).sum().item<float>();
  return total;
}
float stepMoved(Tiny &model, int n) {
  auto x = torch::ones({4});
  float total = 0;
  for (int i = 0; i < n; ++i)
    total += model.forward(x).sum().item<float>();
  // CHECK: :[[@LINE-1]]:37: warning: {{.*}} [seam-host-sync]
  return total;
}
float moduleCallers(int n) {
  Tiny host_model;
  Tiny dev_model;
  dev_model.to(torch::kCUDA);
  return trainWith(host_model, n) + stepHost(host_model, n) +
         stepMoved(dev_model, n);
}

// A module's method that writes back through a tensor reference writes
// what it computes from its parameters: host for a module never moved.
struct RefNet : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  torch::Tensor forward(torch::Tensor &x) {
    x = fc->forward(x);
    return x;
  }
};
void refForward(int n) {
  RefNet host_net;
  RefNet dev_net;
  dev_net.to(torch::kCUDA);
  for (int i = 0; i < n; ++i) {
    auto x = torch::ones({4});
    host_net.forward(x);
    x.sum().item<float>();
    auto y = torch::ones({4});
    dev_net.forward(y);
    y.sum().item<float>();
    // CHECK: :[[@LINE-1]]:13: warning: {{.*}} [seam-host-sync]
  }
}

// Pairs, tuples and structured bindings carry their tensors' residency.
std::pair<torch::Tensor, torch::Tensor> host_pair() {
  auto a = torch::ones({2});
  return std::make_pair(a, a * 2);
}
std::pair<torch::Tensor, torch::Tensor> dev_pair(const torch::Tensor &d) {
  return std::make_pair(d, d + 1);
}
void bundles(int n) {
  auto d = torch::ones({2}, torch::kCUDA);
  torch::Tensor hx, hy, dx, dy;
  for (int i = 0; i < n; ++i) {
    std::tie(hx, hy) = host_pair();
    hx.item<float>();
    std::tie(dx, dy) = dev_pair(d);
    dy.item<float>();
    // CHECK: :[[@LINE-1]]:8: warning: {{.*}} [seam-host-sync]
    auto [p, q] = host_pair();
    q.item<float>();
    auto [r, s] = dev_pair(d);
    s.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: {{.*}} [seam-host-sync]
  }
}

// Options naming only a dtype, pointers to tensors, and modules made with
// make_shared.
struct Small : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * 2; }
};
void more_residency(int n) {
  auto x = torch::randn({4}, torch::kCUDA);
  auto host_buf = torch::empty({4}, torch::kFloat);
  auto longs = at::ones({4}, at::kLong);
  torch::Tensor *p = &x;
  torch::Tensor *hp = &host_buf;
  auto net = std::make_shared<Small>();
  for (int i = 0; i < n; ++i) {
    host_buf.copy_(x);
    // CHECK: :[[@LINE-1]]:14: warning: host sync: '.copy_()' copies 'x'{{.*}} [seam-host-sync]
    longs.sum().item<float>();
    p->sum().item<float>();
    // CHECK: :[[@LINE-1]]:14: warning: {{.*}} [seam-host-sync]
    hp->sum().item<float>();
    (*p).sum().item<float>();
    // CHECK: :[[@LINE-1]]:16: warning: {{.*}} [seam-host-sync]
    net->forward(host_buf).sum().item<float>();
  }
}

// Local containers of tensors: elements live where what was put in lives;
// passed by non-const reference, they may hold anything.
void fill(std::vector<torch::Tensor> &v);
void out_param(torch::Tensor &t) { t = torch::ones({1}, torch::kCUDA); }
void containers(int n) {
  std::vector<torch::Tensor> hosts{torch::ones({2}), torch::zeros({2})};
  std::vector<torch::Tensor> devs;
  devs.push_back(torch::ones({2}, torch::kCUDA));
  std::vector<torch::Tensor> filled;
  fill(filled);
  auto r = torch::zeros({1});
  out_param(r);
  for (int i = 0; i < n; ++i) {
    hosts[0].item<float>();
    for (auto &t : hosts)
      t.sum().item<float>();
    devs[0].item<float>();
    // CHECK: :[[@LINE-1]]:13: warning: {{.*}} [seam-host-sync]
    for (auto &t : devs)
      t.sum().item<float>();
    // CHECK: :[[@LINE-1]]:15: warning: {{.*}} [seam-host-sync]
    filled.front().item<float>();
    // CHECK: :[[@LINE-1]]:20: warning: {{.*}} [seam-host-sync]
    r.item<float>();
    // CHECK: :[[@LINE-1]]:7: warning: {{.*}} [seam-host-sync]
  }
}

// A container parameter: its elements are of unknown origin.
using TensorVec = std::vector<torch::Tensor>;
double sum_all(const TensorVec &xs) {
  double s = 0;
  for (const torch::Tensor &x : xs)
    s += x.sum().item<double>();
  // CHECK: :[[@LINE-1]]:18: warning: {{.*}} [seam-host-sync]
  return s;
}
void call_sum_all() { sum_all({torch::ones({1})}); }
