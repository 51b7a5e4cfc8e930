// A sync that runs on one iteration in ten or fewer of its loop, as do all
// the loop's syncs, waits behind several iterations' device work, and the
// host resumes cold: host_cold_sync_us is added, and a flushing write
// costs host_cold_flush_us instead of host_flush_us. Profile cold:
// host-work's 20 us per sync, host_print_us 2, host_print_tensor_us 30,
// host_flush_us 4, plus host_cold_sync_us 7 and host_cold_flush_us 40.
// Without the two parameters (profile host-work) nothing changes.
// RUN: not %seam check --all-syncs --profile %inputs/profiles/cold.json %s -- %mock | FileCheck %s
// RUN: not %seam check --all-syncs --profile %inputs/profiles/host-work.json %s -- %mock | FileCheck %s --check-prefix=WARM
#include <iostream>
#include <torch/torch.h>

void rare() {
  auto w = torch::randn({1024}, torch::kCUDA);
  float last = 0;
  for (int s = 0; s < 200; ++s) {
    w = w * 0.5;
    // Every 50th iteration: cold, behind the 10 iterations since the
    // every-10th sync below last ran. 20 + 7, plus 2 + 30 + 40 of host work.
    if (s % 50 == 0)
      std::cout << "step " << s << " sum " << w.sum() << std::endl;
    // CHECK: :[[@LINE-1]]:44: warning: host sync: {{.*}}; ~99 us device idle per execution, every 50th iteration (profile cold) [seam-host-sync]
    // CHECK: note: includes ~7 us (host_cold_sync_us) because it runs every 50th iteration, 10 iterations after the sync before it in its loop: it waits behind several iterations' device work, and the host resumes with cold caches (profile cold)
    // CHECK: note: includes ~72 us of host work before the next launch (1 print statement, 1 tensor printed, 1 cold flush) (profile cold)
    // WARM: :[[@LINE-4]]:44: warning: host sync: {{.*}}; ~56 us device idle per execution, every 50th iteration (profile host-work)
    // WARM-NOT: host_cold_sync_us
    // WARM: note: includes ~36 us of host work before the next launch (1 print statement, 1 tensor printed, 1 flush) (profile host-work)
    // WARM-NOT: host_cold_sync_us

    // Every 10th iteration is cold too: no sync in the loop runs more often.
    // Except where the print above has just synced (1 run in 5): the
    // median of its runs is cold.
    if (s % 10 == 0)
      last = w.max().item<float>();
    // CHECK: :[[@LINE-1]]:22: warning: host sync: {{.*}}; ~27 us device idle per execution, every 10th iteration
    // CHECK: note: includes ~7 us (host_cold_sync_us, the median of its runs: in full on 4 runs in 5, nothing on 1 run in 5 (right after another sync)) because it runs every 10th iteration: it waits behind the device work since the sync before it in its loop
  }
  std::cout << last << "\n";
}

void often() {
  auto w = torch::randn({1024}, torch::kCUDA);
  float last = 0;
  for (int s = 0; s < 200; ++s) {
    w = w * 0.5;
    // Every 20th iteration, but beside a sync every other iteration: the
    // queue ahead of it holds two iterations' work at most.
    if (s % 20 == 0)
      last += w.sum().item<float>();
    // CHECK: :[[@LINE-1]]:23: warning: host sync: {{.*}}; ~20 us device idle per execution, every 20th iteration (profile cold)
    // CHECK-NOT: host_cold_sync_us

    // Every other iteration is not cold either.
    if (s % 2 == 0)
      last += w.max().item<float>();
    // CHECK: :[[@LINE-1]]:23: warning: host sync: {{.*}}; ~20 us device idle per execution, every 2nd iteration
    // CHECK-NOT: host_cold_sync_us

    // Nor two iterations in three (133 of the 200: counted by walking s).
    if (s % 3 != 0)
      last += w.mean().item<float>();
    // CHECK: :[[@LINE-1]]:24: warning: host sync: {{.*}}; ~20 us device idle per execution, 66.5% of iterations
    // CHECK-NOT: host_cold_sync_us
    // CHECK: note: host sync:

    // Once per loop: the first iteration has queued little.
    if (s == 0)
      last += w.min().item<float>();
    // CHECK-SAME: ~22 us device idle per execution, once per loop
    // CHECK-NOT: host_cold_sync_us
  }
  std::cout << last << "\n";
}

// A sync every iteration in a helper keeps the loop's queue short.
static float readLoss(const torch::Tensor &t) { return t.item<float>(); }

void throughHelper() {
  auto w = torch::randn({1024}, torch::kCUDA);
  float last = 0;
  for (int s = 0; s < 200; ++s) {
    w = w * 0.5;
    last += readLoss(w.sum());
    if (s % 10 == 0)
      last += w.max().item<float>();
    // CHECK: :[[@LINE-1]]:23: warning: host sync: {{.*}}; ~20 us device idle per execution, every 10th iteration
    // CHECK-NOT: host_cold_sync_us
  }
  std::cout << last << "\n";
}

// A helper called every 50th iteration: its sync is cold.
static void report(const torch::Tensor &t) {
  std::cout << "loss " << t.sum().item<float>() << "\n";
  // CHECK: :[[@LINE-1]]:35: warning: host sync: {{.*}}; ~29 us device idle per execution, every 50th iteration
  // CHECK: note: includes ~7 us (host_cold_sync_us) because it runs every 50th iteration
}

void guardedHelper() {
  auto w = torch::randn({1024}, torch::kCUDA);
  for (int s = 0; s < 200; ++s) {
    w = w * 0.5;
    if (s % 50 == 0)
      report(w);
  }
}
