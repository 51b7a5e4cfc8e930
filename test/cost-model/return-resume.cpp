// A sync that is its function's last tensor work: the next launch is the
// caller's, after the call returns (its one call site in the TU), and the
// host work in between is the caller's too. Called from two places, the
// next launch is unknown (host_resume, as before).
// RUN: not %seam check --all-syncs --profile %inputs/profiles/eager.json %s -- %mock | FileCheck %s
#include <iostream>
#include <torch/torch.h>

float lossOf(torch::Tensor w, torch::Tensor t) {
  torch::Tensor d = w - t;
  return (d * d).mean().item<float>();
  // The loop's next iteration starts with an eager op: host_eager.
  // CHECK: :[[@LINE-2]]:25: warning: host sync: {{.*}}; ~16 us device idle per iteration (profile eager) [seam-host-sync]
}

float lossTwice(torch::Tensor w) {
  return w.sum().item<float>();
  // Two call sites: which one the host returns to is unknown.
  // CHECK: :[[@LINE-2]]:18: note: host sync: {{.*}}; ~20 us device idle per call (profile eager) [seam-host-sync]
}

float innerLoss(torch::Tensor w) {
  return w.mean().item<float>();
  // Two calls up, through a print with std::endl, then the loop's eager op.
  // CHECK: :[[@LINE-2]]:19: warning: host sync: {{.*}}; ~16 us device idle per execution, every 10th iteration (profile eager) [seam-host-sync]
  // CHECK: :[[@LINE-3]]:19: note: host work before the next launch (1 print statement, 1 flush) is not costed: profile eager has no host_print_us
}

void logLoss(int s, torch::Tensor w) {
  std::cout << "step " << s << " loss " << innerLoss(w) << std::endl;
}

void train(torch::Tensor w, torch::Tensor t, torch::Tensor g) {
  float sum = 0;
  for (int s = 0; s < 100; ++s) {
    w = w - g * 0.01;
    sum += lossOf(w, t);
    if (s % 10 == 0)
      logLoss(s, w);
  }
  sum += lossTwice(w) + lossTwice(t);
}
