// Callables run where the function they are handed to runs them: through
// std::function parameters, template F&&, function and member-function
// pointers, std::bind, and std::function members or containers of them.
// RUN: not %seam check %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
#include <functional>
#include <iostream>
#include <thread>
#include <vector>
#include <torch/torch.h>

// A timing helper: runs its callable n times.
void time_it(const char *name, int n, const std::function<void()> &fn) {
  for (int i = 0; i < n; ++i)
    fn();
}
void by_value(std::function<float()> fn) {
  for (int i = 0; i < 3; ++i)
    fn();
}
template <typename F> void repeat(int n, F &&f) {
  for (int i = 0; i < n; ++i)
    f();
}
void each(void (*f)(const torch::Tensor &), const torch::Tensor &t) {
  for (int i = 0; i < 5; ++i)
    f(t);
}
// Runs its callable once: what it does is not on a hot path.
void once(const std::function<void()> &fn) { fn(); }
// Keeps its callable and never calls it.
struct Keeper {
  std::function<void()> kept;
  void keep(std::function<void()> fn) { kept = fn; }
};

void log_value(const torch::Tensor &t) { (void)t.item<float>(); }
// CHECK: :[[@LINE-1]]:50: warning: {{.*}} [seam-host-sync]
// CHECK: :[[@LINE-12]]:5: note: 'log_value' called here through 'f', from 'each'

struct Model {
  float score(const torch::Tensor &t) { return t.sum().item<float>(); }
  // CHECK: :[[@LINE-1]]:56: warning: {{.*}} [seam-host-sync]
};

void benchmarks(torch::Tensor a) {
  time_it("matmul", 50, [&] { (void)a.matmul(a).sum().item<float>(); });
  // CHECK: :[[@LINE-1]]:55: warning: {{.*}} [seam-host-sync]
  // CHECK: note: inside this loop, which runs the call every iteration
  // CHECK: note: 'benchmarks::(lambda at {{.*}})' called here through 'fn', from 'time_it'
  by_value([&] { return a.max().item<float>(); });
  // CHECK: :[[@LINE-1]]:33: warning: {{.*}} [seam-host-sync]
  repeat(4, [&] { (void)a.min().item<float>(); });
  // CHECK: :[[@LINE-1]]:33: warning: {{.*}} [seam-host-sync]
  each(log_value, a);
  Model m;
  auto bound = std::bind(&Model::score, &m, a);
  time_it("bound", 10, [&] { bound(); });
  once([&] { (void)a.mean().item<float>(); });
  Keeper k;
  k.keep([&] { (void)a.mean().item<float>(); });
}

// A callback member, assigned in one function and invoked in another's
// loop; and a container of callbacks run for each step.
struct Trainer {
  std::function<void(const torch::Tensor &)> on_step;
  std::vector<std::function<void(const torch::Tensor &)>> hooks;
  void fit(const torch::Tensor &loss) {
    for (int i = 0; i < 100; ++i) {
      if (on_step)
        on_step(loss);
      for (auto &h : hooks)
        h(loss);
    }
  }
};

void configure(Trainer &tr) {
  tr.on_step = [](const torch::Tensor &l) { (void)l.item<float>(); };
  // CHECK: :[[@LINE-1]]:53: warning: {{.*}} [seam-host-sync]
  // CHECK: note: 'configure::(lambda at {{.*}})' called here through 'on_step', from 'Trainer::fit'
  tr.hooks.push_back([](const torch::Tensor &l) { std::cout << l; });
  // CHECK: :[[@LINE-1]]:61: warning: {{.*}} [seam-host-sync]
}

// Member-function pointers.
struct Runner {
  void step(const torch::Tensor &t) { (void)t.max().item<float>(); }
  // CHECK: :[[@LINE-1]]:53: warning: {{.*}} [seam-host-sync]
  void run_all(void (Runner::*m)(const torch::Tensor &), const torch::Tensor &t) {
    for (int i = 0; i < 3; ++i)
      (this->*m)(t);
  }
  void go(const torch::Tensor &t) { run_all(&Runner::step, t); }
};

// A thread body that loops is a hot path of its own.
void worker(torch::Tensor t) {
  std::thread th([&] {
    for (int i = 0; i < 10; ++i)
      (void)t.sum().item<float>();
    // CHECK: :[[@LINE-1]]:21: warning: {{.*}} [seam-host-sync]
  });
  th.join();
}
