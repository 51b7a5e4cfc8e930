// Loops that do not repeat a line do not make it hot (docs/rules/
// seam-host-sync.md): a `for` whose trip count is provably 0 or 1, as
// logging macros spell one, is not a loop at all; a line a real loop runs
// at most once (a `break` follows it, or a test of the counter against one
// value) is not made hot by that loop. An outer loop, a forward or a
// caller's loop still can, each next to the case it decides.
// RUN: not %seam check %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
// RUN: not %seam check --format json %s -- %mock | FileCheck %s --check-prefix=JSON
#include <torch/torch.h>

#include <iostream>

#define LOG_EVERY(stream)                                                      \
  for (bool seam_once = true; seam_once; seam_once = false)                    \
  stream

// One-shot `for` statements, as a macro and as written by hand.
void log_loss(torch::Tensor loss) {
  LOG_EVERY(std::cout << loss.item<float>() << "\n");
  for (int i = 0; i < 1; ++i)
    loss.sum().item<float>();
  for (int k = 5; k < 3; ++k)
    loss.max().item<float>();
  for (bool first = true; !first == false; first = false)
    loss.min().item<float>();
}

// Inside a real loop, the macro's line runs every iteration of that loop,
// and a guard around it counts against that loop, not the one-shot one.
void train(torch::Tensor w, int steps) {
  for (int step = 0; step < steps; ++step) {
    if (step % 50 == 0)
      LOG_EVERY(std::cout << w.sum().item<float>() << "\n");
    // CHECK: :[[@LINE-1]]:38: warning: {{.*}} every 50th iteration (profile h100) [seam-host-sync]
    // CHECK-NOT: note: inside this loop
    // CHECK: :[[@LINE-5]]:3: note: inside this loop, which runs it every 50th iteration
    // CHECK-NOT: cannot count
  }
}
// JSON: "frequency": "every 50th iteration"

// Not one-shot: the body writes the flag, or the step keeps it true.
void not_one_shot(torch::Tensor w, bool again) {
  for (bool more = true; more; more = false) {
    w.sum().item<float>();
    // CHECK: :[[@LINE-1]]:13: warning: {{.*}} [seam-host-sync]
    more = again;
  }
  for (bool more = true; more; more = true) {
    w.max().item<float>();
    // CHECK: :[[@LINE-1]]:13: warning: {{.*}} [seam-host-sync]
  }
  for (int i = 0; i < 2; ++i)
    w.min().item<float>();
  // CHECK: :[[@LINE-1]]:13: warning: {{.*}} [seam-host-sync]
}

// At most once per loop: a `break` follows the line, or the counter is
// tested against one value. Called once from main: not hot.
float find_first(torch::Tensor x, int k) {
  float found = 0;
  for (int i = 0; i < 100; ++i) {
    if (i == k) {
      found = x.sum().item<float>();
      break;
    }
  }
  for (int i = 0; i < 100; ++i)
    if (i == 0)
      found += x.max().item<float>();
  return found;
}

// The same line inside an outer loop runs once per outer iteration: hot,
// with the note at the loop that repeats it.
float per_epoch(torch::Tensor x, int k) {
  float found = 0;
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int i = 0; i < 100; ++i) {
      if (i == k) {
        found += x.sum().item<float>();
        // CHECK: :[[@LINE-1]]:26: warning: {{.*}} [seam-host-sync]
        // CHECK: :[[@LINE-5]]:3: note: inside this loop, which runs it every iteration
        break;
      }
    }
  }
  return found;
}

// A helper called at most once per loop is not made hot by that call; one
// called every iteration is.
float report(torch::Tensor x) { return x.mean().item<float>(); }
// CHECK: :[[@LINE-1]]:49: warning: {{.*}} [seam-host-sync]
// CHECK: note: 'report' called here, from 'loop_calls'
float summary(torch::Tensor x) { return x.max().item<float>(); }

void loop_calls(torch::Tensor x, int steps) {
  for (int i = 0; i < steps; ++i) {
    report(x);
    if (i == steps - 1)
      summary(x);
  }
}

// A module forward is a hot path of its own.
struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    for (int i = 0; i < 4; ++i)
      if (i == 0 && x.sum().item<float>() > 0)
        // CHECK: :[[@LINE-1]]:29: warning: {{.*}} [seam-host-sync]
        // CHECK: note: 'Net::forward' is a module forward, a hot path
        x = x * 2;
    return x;
  }
};

int main() {
  auto x = torch::ones({4}).cuda();
  log_loss(x);
  train(x, 100);
  not_one_shot(x, false);
  find_first(x, 3);
  per_epoch(x, 3);
  loop_calls(x, 10);
}
