#include "detect.h"

int main() {
  Head *head = make_head();
  Hooks hooks;
  register_hooks(hooks);
  torch::Tensor x = torch::ones({8}).cuda(), y = torch::zeros({8}).cuda();
  train(*head, hooks, x, y);
  host_stats();
  float m = batch_mean(x);
  report_final(x);
  (void)m;
  run_steps([](const torch::Tensor &t) { return t.sum().item<float>(); }, x);
  return 0;
}
