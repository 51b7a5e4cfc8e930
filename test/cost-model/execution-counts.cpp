// Execution counts: the guards that decide whether a sync runs set how
// often it runs per iteration, and the cost multiplies by it.
// RUN: not %seam check %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
// RUN: not %seam check --format json %s -- %mock | FileCheck %s --check-prefix=JSON
#include <torch/torch.h>

void log_every(torch::Tensor loss, bool verbose) {
  for (int step = 0; step < 1000; ++step) {
    if (step % 100 == 0)
      printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:25: warning: {{.*}}; ~[[IDLE:[0-9.]+ us]] device idle per execution, every 100th iteration (profile h100) [seam-host-sync]
    // CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 1000 iterations of the loop
    // CHECK: :[[@LINE-5]]:3: note: inside this loop, which runs it every 100th iteration
    // JSON: "executions": 10.0,
    // JSON: "executionsPerIteration": 0.01,
    // JSON: "frequency": "every 100th iteration",
    if ((step + 1) % 250 == 0)
      printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:25: warning: {{.*}} every 250th iteration{{.*}} [seam-host-sync]
    // CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 1000 iterations of the loop
    if (!(step % 500))
      printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:25: warning: {{.*}} every 500th iteration{{.*}} [seam-host-sync]
    if (step % 10 != 0)
      printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:25: warning: {{.*}} device idle per execution, 90% of iterations{{.*}} [seam-host-sync]
    // CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 1000 iterations of the loop
    // Once per loop, in a function nothing calls in a loop: not hot (the
    // same lines in an outer loop are, in once_per_epoch below).
    if (step == 0)
      printf("%f", loss.item<float>());
    if (step == 999)
      printf("%f", loss.item<float>());
    if (step % 10 == 0 && verbose)
      printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:25: warning: {{.*}} every 10th iteration{{.*}} [seam-host-sync]
    // CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 1000 iterations of the loop
    // CHECK: :[[@LINE-4]]:27: note: under this condition, which Seam cannot count; the cost takes it as always true
    if (verbose)
      printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:25: warning: {{.*}} ~[[IDLE]] device idle per iteration{{.*}} [seam-host-sync]
    // CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 1000 iterations of the loop
    // CHECK: :[[@LINE-4]]:9: note: under this condition, which Seam cannot count; the cost takes it as always true
    if (step % 50)
      continue;
    printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:23: warning: {{.*}} every 50th iteration{{.*}} [seam-host-sync]
    // CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 1000 iterations of the loop
  }
}

// Once per run of the inner loop, which runs every epoch.
void once_per_epoch(torch::Tensor loss) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int step = 0; step < 1000; ++step) {
      if (step == 0)
        printf("%f", loss.item<float>());
      // CHECK: :[[@LINE-1]]:27: warning: {{.*}} device idle per execution, once per loop{{.*}} [seam-host-sync]
      // CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 10000 iterations of the loop
      // CHECK: :[[@LINE-6]]:3: note: inside this loop, which runs it every iteration
      if (step == 999)
        printf("%f", loss.item<float>());
      // CHECK: :[[@LINE-1]]:27: warning: {{.*}} once per loop{{.*}} [seam-host-sync]
    }
  }
}

// A helper called every 100th step: the count comes from the call site.
void report(const torch::Tensor &loss) { printf("%f", loss.item<float>()); }
// CHECK: :[[@LINE-1]]:60: warning: {{.*}} every 100th iteration{{.*}} [seam-host-sync]
// CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 1000 iterations of the loop
void train(const torch::Tensor &loss) {
  for (int step = 0; step < 1000; ++step)
    if (step % 100 == 0)
      report(loss);
}
