// A user teaches Seam an in-house tensor class with a JSON rule pack only.
// RUN: %seam check %s -- -std=c++17 -isystem %inputs/inhouse | FileCheck %s --check-prefix=UNTAUGHT --allow-empty
// RUN: not %seam check --rules %inputs/inhouse/inhouse.json %s -- -std=c++17 -isystem %inputs/inhouse | FileCheck %s --implicit-check-not='[seam-'
#include <ml.h>

void train(int steps) {
  ml::Array w = ml::make(16, ml::Where::Gpu);
  ml::Array h = ml::make(16);
  ml::Array back = w.to_host();
  auto step = ml::jit([&](const ml::Array &x) { return (x + w).value(); });
  // CHECK: :[[@LINE-1]]:64: warning: graph break: '.value()' reads '(x + w)' on the host inside compiled region 'train::(lambda at 10:23)'{{.*}} [seam-graph-break]
  // CHECK: :[[@LINE-2]]:64: warning: host sync: {{.*}} [seam-host-sync]
  for (int i = 0; i < steps; ++i) {
    float a = w.value();
    // CHECK: :[[@LINE-1]]:17: warning: host sync: '.value()' reads 'w' on the host{{.*}} [seam-host-sync]
    float b = h.value() + back.value() + w.rows();
    auto c = h.upload().value();
    // CHECK: :[[@LINE-1]]:25: warning: host sync: {{.*}} [seam-host-sync]
    ml::barrier();
    // CHECK: :[[@LINE-1]]:9: warning: host sync: 'barrier()' waits for the device{{.*}} [seam-host-sync]
  }
}
// UNTAUGHT-NOT: warning
