// Hot paths: loops, module forwards, and what they call (helpers, lambdas,
// templates, macros). A one-off sync elsewhere is not a result.
// RUN: not %seam check %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
// RUN: not %seam check --all-syncs %s -- %mock | FileCheck %s --check-prefixes=CHECK,COLD --implicit-check-not='[seam-'
#include <algorithm>
#include <functional>
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(4, 4) {}
  torch::Tensor forward(torch::Tensor x) {
    x = fc(x);
    if (x.sum().item<float>() > 0)
    // CHECK: :[[@LINE-1]]:17: warning: {{.*}} [seam-host-sync]
    // CHECK: :[[@LINE-4]]:17: note: 'NetImpl::forward' is a module forward, a hot path
      x = x * 2;
    return scale(x);
  }
  torch::Tensor scale(torch::Tensor x) {
    float m = x.max().item<float>();
    // CHECK: :[[@LINE-1]]:23: warning: {{.*}} [seam-host-sync]
    // CHECK: :[[@LINE-11]]:17: note: 'NetImpl::forward' is a module forward, a hot path
    // CHECK: :[[@LINE-6]]:12: note: 'NetImpl::scale' called here, from 'NetImpl::forward'
    return x / m;
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

// Not a module: its forward is an ordinary function.
struct Plain {
  torch::Tensor forward(torch::Tensor x) { return x * x.sum().item<float>(); }
  // COLD: :[[@LINE-1]]:63: note: host sync: {{.*}}; not on a hot path{{.*}} [seam-host-sync]
};

float read(const torch::Tensor &t) { return t.item<float>(); }
// CHECK: :[[@LINE-1]]:47: warning: {{.*}} [seam-host-sync]

template <typename T> T read_as(const torch::Tensor &t) { return t.item<T>(); }
// CHECK: :[[@LINE-1]]:68: warning: {{.*}} [seam-host-sync]

template <typename T> T unused_template(const torch::Tensor &t) {
  return t.item<T>();
}

void train(Net &net, int steps) {
  auto x = torch::randn({4}, torch::kCUDA);
  auto log = [&](const torch::Tensor &l) { return l.item<float>(); };
  // CHECK: :[[@LINE-1]]:53: warning: {{.*}} [seam-host-sync]
  for (int i = 0; i < steps; ++i) {
    auto out = net->forward(x);
    read(out);
    read_as<double>(out);
    log(out);
    auto inner = [&] { return out.mean().item<float>(); };
    // CHECK: :[[@LINE-1]]:42: warning: {{.*}} [seam-host-sync]
    inner();
    TORCH_CHECK(out.sum().item<float>() < 1e6, "diverged");
    // CHECK: :[[@LINE-1]]:27: warning: {{.*}} [seam-host-sync]
  }
  int k = 0;
  while (x.sum().item<float>() > 0.1f && k++ < 100)
    // CHECK: :[[@LINE-1]]:18: warning: {{.*}} [seam-host-sync]
    x = x * 0.5;
  do {
    x = x + 1;
  } while (x.any().item<bool>());
  // CHECK: :[[@LINE-1]]:20: warning: {{.*}} [seam-host-sync]
  float once = x.sum().item<float>();
  // COLD: :[[@LINE-1]]:24: note: host sync: {{.*}}; not on a hot path{{.*}} [seam-host-sync]
  Plain p;
  p.forward(x);
  // Range-for: the range expression runs once, the body every time.
  for (auto v : std::vector<float>{x.sum().item<float>()}) {
    // COLD: :[[@LINE-1]]:44: note: host sync: {{.*}} [seam-host-sync]
    (void)v;
  }
}

// Virtual calls reach the overrides defined in this file; lambdas given to
// std::for_each run once per element.
struct Metric {
  virtual ~Metric() = default;
  virtual float compute(const torch::Tensor &t) = 0;
};
struct MeanMetric : Metric {
  float compute(const torch::Tensor &t) override { return t.mean().item<float>(); }
  // CHECK: :[[@LINE-1]]:68: warning: {{.*}} [seam-host-sync]
  // CHECK: note: 'MeanMetric::compute' called here, from 'score'
};
void score(Metric &m, std::vector<torch::Tensor> &outs) {
  auto x = torch::randn({4}, torch::kCUDA);
  for (int i = 0; i < 3; ++i)
    m.compute(x);
  std::for_each(outs.begin(), outs.end(),
                [](const torch::Tensor &t) { t.sum().item<float>(); });
  // CHECK: :[[@LINE-1]]:54: warning: {{.*}} [seam-host-sync]
  // CHECK: :[[@LINE-2]]:17: note: passed to 'std::for_each', which runs it once per element
}

// Destructors of locals run each iteration; std::function variables made
// from lambdas call those lambdas.
struct SyncTimer {
  ~SyncTimer() { torch::cuda::synchronize(); }
  // CHECK: :[[@LINE-1]]:31: warning: host sync: 'synchronize()'{{.*}} [seam-host-sync]
};
void indirect(int n) {
  auto x = torch::randn({4}, torch::kCUDA);
  std::function<float(const torch::Tensor &)> fn =
      [](const torch::Tensor &t) { return t.sum().item<float>(); };
  // CHECK: :[[@LINE-1]]:51: warning: {{.*}} [seam-host-sync]
  for (int i = 0; i < n; ++i) {
    SyncTimer t;
    fn(x);
  }
}
