// A cold sync adds host_cold_sync_us in proportion to the queue it waits
// behind: the device time of its loop's iterations since it last ran, by
// the queue formula (per op max(launch_latency, 2 x bytes / bandwidth)),
// on a log scale against the calibration's queue, host_cold_queue_us.
// Profile cold-queue: cold's parameters (launch 5 us, 1000 GB/s, cold sync
// 7 us, flush 4 us, cold flush 40 us) plus host_cold_queue_us 4 ms.
// RUN: not %seam check --all-syncs --profile %inputs/profiles/cold-queue.json %s -- %mock | FileCheck %s
#include <iostream>
#include <torch/torch.h>

void small() {
  auto w = torch::randn({1024}, torch::kCUDA);
  float last = 0;
  for (int s = 0; s < 200; ++s) {
    w = w * 0.5;
    // Two launch-bound ops per iteration (the mul and the sum), 5 us each:
    // 500 us behind the sync every 50th iteration; ln(1 + 5) / ln(1 + 40)
    // = 0.48 of 7 us.
    if (s % 50 == 0)
      last += w.sum().item<float>();
    // CHECK: :[[@LINE-1]]:23: warning: host sync: {{.*}}; ~23.4 us device idle per execution, every 50th iteration (profile cold-queue)
    // CHECK: note: includes ~3.38 us (host_cold_sync_us x 0.48 for 500 us queued against host_cold_queue_us 4 ms) because it runs every 50th iteration
  }
  std::cout << last << "\n";
}

void large() {
  auto w = torch::randn({1 << 22}, torch::kCUDA);
  for (int s = 0; s < 200; ++s) {
    w = w * 0.5;
    // The mul streams 2 x 16 MiB at 1000 GB/s, 33.6 us, and the sum is
    // launch-bound: 1.93 ms queued, 0.81 of 7 us; the print costs 2 us and
    // its flush 4 us plus 0.81 of the 36 us more a cold one costs.
    if (s % 50 == 0)
      std::cout << "step " << s << " " << w.sum().item<float>() << std::endl;
    // CHECK: :[[@LINE-1]]:51: warning: host sync: {{.*}}; ~60.8 us device idle per execution, every 50th iteration (profile cold-queue)
    // CHECK: note: includes ~5.67 us (host_cold_sync_us x 0.81 for 1.93 ms queued against host_cold_queue_us 4 ms)
    // CHECK: note: includes ~35.2 us of host work before the next launch (1 print statement, 1 cold flush)
  }
}

// Sizes unknown here: the whole parameter, as without host_cold_queue_us.
void unknown(torch::Tensor w) {
  float last = 0;
  for (int s = 0; s < 200; ++s) {
    w = w * 0.5;
    if (s % 10 == 0)
      last += w.max().item<float>();
    // CHECK: :[[@LINE-1]]:23: warning: host sync: {{.*}}; ~27 us device idle per execution, every 10th iteration
    // CHECK: note: includes ~7 us (host_cold_sync_us) because it runs every 10th iteration
  }
  std::cout << last << "\n";
}
