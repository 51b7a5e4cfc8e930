#pragma once
#include <functional>
#include <torch/torch.h>

// Defined in src/loss.cpp.
float compute_loss(const torch::Tensor &pred, const torch::Tensor &target);
// Defined in src/nms.cpp; it calls count_kept (src/util.cpp).
torch::Tensor nms(const torch::Tensor &boxes);
int count_kept(const torch::Tensor &keep);
// Defined in src/stats.cpp: called in the loop and once from main.
float batch_mean(const torch::Tensor &t);
// Defined in src/scalar.cpp: syncs if its argument is on the device.
float read_scalar(const torch::Tensor &t);
// Defined in src/scalar.cpp: only ever given host tensors.
float read_host(const torch::Tensor &t);
// Defined in src/scalar.cpp: given a host tensor, and moves it to a device
// it cannot see.
float read_moved(const torch::Tensor &t, torch::Device d);
// Defined in src/report.cpp: called once, from main only.
void report_final(const torch::Tensor &t);

struct Head {
  virtual ~Head() = default;
  virtual torch::Tensor score(const torch::Tensor &x) = 0;
};
// Defined in src/heads.cpp.
Head *make_head();

struct Hooks {
  std::function<void(const torch::Tensor &)> on_step;
};
// Defined in src/hooks.cpp: stores a callback in hooks.on_step.
void register_hooks(Hooks &hooks);

void train(Head &head, Hooks &hooks, torch::Tensor x, torch::Tensor y);
void host_stats();

// Defined in src/steps.cpp: runs the step it is given once per step.
void run_steps(const std::function<float(const torch::Tensor &)> &step,
               const torch::Tensor &x);

// A module whose forward is overridden in src/heads.cpp; src/extract.cpp
// calls it in a loop. A forward is hot in its own file: reported once.
struct Backbone : torch::nn::Module {
  virtual torch::Tensor forward(const torch::Tensor &x) = 0;
};
void extract(Backbone &b, const torch::Tensor &x);
