// A cold sync adds host_cold_sync_us in proportion to the queue it waits
// behind: the device time of its loop's iterations since it last ran, by
// the queue formula (per op max(launch_latency, 2 x bytes / bandwidth)),
// on a log scale against the calibration's queue, host_cold_queue_us.
// Profile cold-queue: cold's parameters (launch 5 us, 1000 GB/s, cold sync
// 7 us, flush 4 us, cold flush 40 us) plus host_cold_queue_us 4 ms and
// transcendental_ns_per_element 20.
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
    // CHECK: note: includes ~7 us (host_cold_sync_us in full: the size of an op its loop runs is not known) because it runs every 10th iteration
  }
  std::cout << last << "\n";
}

// Two guarded syncs in one loop: each run waits behind the iterations since
// the loop's sync before it, not since its own. Three launch-bound ops per
// iteration, 15 us: the print every 50th waits behind the 25 iterations
// since the item() every 25th last ran, 375 us, ln(1 + 3.75) / ln(1 + 40)
// = 0.42 of 7 us. The item() follows the print in the same iteration on
// every other run, warm: the median of 2.94 and 0 us.
void twoPeriods() {
  auto w = torch::randn({1024}, torch::kCUDA);
  for (int s = 0; s < 200; ++s) {
    w = w * 0.5;
    if (s % 50 == 0)
      std::cout << "step " << s << " " << w.sum().item<float>() << "\n";
    // CHECK: :[[@LINE-1]]:51: warning: host sync: {{.*}}; ~24.9 us device idle per execution, every 50th iteration (profile cold-queue)
    // CHECK: note: includes ~2.94 us (host_cold_sync_us x 0.42 for 375 us queued against host_cold_queue_us 4 ms) because it runs every 50th iteration, 25 iterations after the sync before it in its loop
    if (s % 25 == 0)
      std::cout << "mean " << w.mean().item<float>() << "\n";
    // CHECK: :[[@LINE-1]]:40: warning: host sync: {{.*}}; ~23.5 us device idle per execution, every 25th iteration (profile cold-queue)
    // CHECK: note: includes ~1.47 us (host_cold_sync_us, the median of its runs: x 0.42 for 375 us queued on 1 run in 2, nothing on 1 run in 2 (right after another sync); shares against host_cold_queue_us 4 ms) because it runs every 25th iteration: it waits behind the device work since the sync before it in its loop
  }
}

// A sync once per loop (the first step) is left out of the cycle: the
// print every 50th waits behind its own 50 iterations of the body's three
// launch-bound ops (mul, max, sum: the branches' ops count on every
// iteration), 750 us, ln(1 + 7.5) / ln(1 + 40) = 0.58 of 7 us.
void withFirstStep() {
  auto w = torch::randn({1024}, torch::kCUDA);
  for (int s = 0; s < 200; ++s) {
    w = w * 0.5;
    if (s == 0)
      std::cout << "first " << w.max().item<float>() << "\n";
    if (s % 50 == 0)
      std::cout << "step " << s << " " << w.sum().item<float>() << "\n";
    // CHECK: :[[@LINE-1]]:51: note: includes ~4.03 us (host_cold_sync_us x 0.58 for 750 us queued against host_cold_queue_us 4 ms) because it runs every 50th iteration: it waits behind several iterations' device work
  }
}

// A print with std::endl every 60th step right after a print every 20th
// that does not flush: its sync waits behind nothing (the 20th's sync ran
// just before it), but its flush runs on the caches the 20 iterations
// before that sync left: 20 iterations of three launch-bound ops (mul,
// sum, max), 300 us, a share ln(1 + 3) / ln(1 + 40) = 0.37 of the 36 us
// from flush to cold flush, plus the flush's 4 us and the print's 2 us.
void flushAfterPrint() {
  auto w = torch::randn({1024}, torch::kCUDA);
  for (int s = 0; s < 240; ++s) {
    w = w * 0.5;
    if (s % 20 == 0)
      std::cout << "step " << s << " " << w.sum().item<float>() << "\n";
    if (s % 60 == 0)
      std::cout << "max " << w.max().item<float>() << std::endl;
    // CHECK: :[[@LINE-1]]:38: warning: host sync: '.item()' reads 'w.max()' on the host; ~39.4 us device idle per execution, every 60th iteration
    // CHECK-NOT: host_cold_sync_us
    // CHECK: :[[@LINE-3]]:38: note: includes ~19.4 us of host work before the next launch (1 print statement, 1 cold flush behind 300 us of memory traffic queued before it: the syncs just before it in its iteration do not flush) (profile cold-queue)
  }
}

// A transcendental op costs its elements at transcendental_ns_per_element
// when that is longer than its traffic: tanh over 1024 floats, 20.48 us,
// and a launch-bound multiply and sum, 5 us each, 30.48 us an iteration,
// 50 of them 1.52 ms, ln(1 + 15.24) / ln(1 + 40) = 0.75 of 7 us.
void transcendental() {
  auto w = torch::randn({1024}, torch::kCUDA);
  for (int s = 0; s < 200; ++s) {
    w = torch::tanh(w) * 0.5;
    if (s % 50 == 0)
      std::cout << "step " << s << " " << w.sum().item<float>() << "\n";
    // CHECK: :[[@LINE-1]]:51: note: includes ~5.25 us (host_cold_sync_us x 0.75 for 1.52 ms queued against host_cold_queue_us 4 ms) because it runs every 50th iteration
  }
}

// Its flush runs behind the queue's memory traffic alone: 50 iterations of
// three launch-bound ops, 750 us, a share 0.576 of the 36 us from flush to
// cold flush, plus the flush's 4 us and the print's 2 us.
void transcendentalFlush() {
  auto w = torch::randn({1024}, torch::kCUDA);
  for (int s = 0; s < 200; ++s) {
    w = torch::tanh(w) * 0.5;
    if (s % 50 == 0)
      std::cout << "step " << s << " " << w.sum().item<float>() << std::endl;
    // CHECK: :[[@LINE-1]]:51: note: includes ~5.25 us (host_cold_sync_us x 0.75 for 1.52 ms queued against host_cold_queue_us 4 ms)
    // CHECK: :[[@LINE-2]]:51: note: includes ~26.7 us of host work before the next launch (1 print statement, 1 cold flush) (profile cold-queue)
  }
}

// A matrix product's result has the shape its operands make ([16384, 256]
// x [256, 1] gives [16384, 1], [256, 16384] x [16384, 1] gives [256, 1]),
// and it reads both operands whole: (16 MiB + 64 KiB + 1 KiB) / 2 bytes for
// each product, 16.8 us at 1000 GB/s; the multiply, the subtraction and
// the sum are launch-bound, 5 us each. 48.7 us an iteration, 50 of them
// 2.43 ms: ln(1 + 24.3) / ln(1 + 40) = 0.87 of 7 us.
void matrices() {
  auto x = torch::randn({16384, 256}, torch::kCUDA);
  auto xt = torch::randn({256, 16384}, torch::kCUDA);
  auto w = torch::randn({256, 1}, torch::kCUDA);
  float last = 0;
  for (int s = 0; s < 200; ++s) {
    auto err = torch::matmul(x, w);
    w = w - torch::matmul(xt, err) * 0.001;
    if (s % 50 == 0)
      last += err.sum().item<float>();
    // CHECK: :[[@LINE-1]]:25: note: includes ~6.09 us (host_cold_sync_us x 0.87 for 2.43 ms queued against host_cold_queue_us 4 ms) because it runs every 50th iteration
  }
  std::cout << last << "\n";
}

// Operands that do not fit leave the size unknown: the whole parameter.
void mismatched() {
  auto x = torch::randn({16384, 256}, torch::kCUDA);
  auto w = torch::randn({16384, 1}, torch::kCUDA);
  float last = 0;
  for (int s = 0; s < 200; ++s) {
    auto err = torch::matmul(x, w);
    if (s % 50 == 0)
      last += err.sum().item<float>();
    // CHECK: :[[@LINE-1]]:25: note: includes ~7 us (host_cold_sync_us in full: the size of an op its loop runs is not known)
  }
  std::cout << last << "\n";
}
