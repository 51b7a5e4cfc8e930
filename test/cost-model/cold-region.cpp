// A cold sync (one iteration in ten or fewer) whose next launch is a
// compiled call adds host_cold_region_us, measured with a four-op region,
// times the ops the host records before that launch over four; before an
// eager op it adds host_cold_sync_us. Profile cold-region: 20 us per warm
// sync, host_print_us 2, host_cold_sync_us 7, host_cold_region_us 12.
// Without host_cold_region_us (profile cold) host_cold_sync_us stands for
// both (docs/cost-model.md, "A sync behind several iterations").
// RUN: not %seam check --all-syncs --profile %inputs/profiles/cold-region.json %s -- -std=c++17 -I%repo/include 2>&1 | FileCheck %s
// RUN: not %seam check --all-syncs --profile %inputs/profiles/cold.json %s -- -std=c++17 -I%repo/include 2>&1 | FileCheck %s --check-prefix=NOREGION
#include <seam/rt.h>

#include <iostream>

using namespace seam::rt;

void fourOps(Tensor W) {
  auto Step = compile([](Tensor W) { return relu((W + 1.0) * 2.0 - 3.0); });
  for (int S = 0; S < 200; ++S) {
    W = Step(W);
    if (S % 50 == 0)
      std::cout << W.sum().item<float>() << "\n";
    // CHECK: :[[@LINE-1]]:28: warning: host sync: {{.*}}; ~34 us device idle per execution, every 50th iteration (profile cold-region) [seam-host-sync]
    // CHECK: note: includes ~12 us (host_cold_region_us) because it runs every 50th iteration
    // NOREGION: :[[@LINE-3]]:28: warning: host sync: {{.*}}; ~29 us device idle per execution, every 50th iteration (profile cold) [seam-host-sync]
    // NOREGION: note: includes ~7 us (host_cold_sync_us) because it runs every 50th iteration
  }
}

void eightOps(Tensor W) {
  auto Step = compile([](Tensor W) {
    Tensor A = relu((W + 1.0) * 2.0 - 3.0);
    return sigmoid((A * 0.5 + 1.0) / 2.0);
  });
  for (int S = 0; S < 200; ++S) {
    W = Step(W);
    if (S % 20 == 0)
      std::cout << W.sum().item<float>() << "\n";
    // CHECK: :[[@LINE-1]]:28: warning: host sync: {{.*}}; ~46 us device idle per execution, every 20th iteration (profile cold-region) [seam-host-sync]
    // CHECK: note: includes ~24 us (host_cold_region_us x 8 ops / 4) because it runs every 20th iteration
  }
}

void eagerNext(Tensor W) {
  for (int S = 0; S < 200; ++S) {
    W = W * 0.5;
    if (S % 50 == 0)
      std::cout << W.sum().item<float>() << "\n";
    // CHECK: :[[@LINE-1]]:28: warning: host sync: {{.*}}; ~29 us device idle per execution, every 50th iteration (profile cold-region) [seam-host-sync]
    // CHECK: note: includes ~7 us (host_cold_sync_us) because it runs every 50th iteration
  }
}
