// A sync whose next launch is a compiled call adds host_input_us per tensor
// argument of the call beyond the one host_resume_us was measured with:
// the function's tensor parameters and a lambda's tensor captures
// (docs/cost-model.md, "seam-host-sync"). inputs.json: sync 10, resume 5,
// launch 5, host_op 1, host_input 2 us; test.json has no host_input_us.
// RUN: not %seam check --all-syncs --profile %inputs/profiles/inputs.json %s -- -std=c++17 -I%repo/include 2>&1 | FileCheck %s
// RUN: not %seam check --all-syncs --profile %inputs/profiles/test.json %s -- -std=c++17 -I%repo/include 2>&1 | FileCheck %s --check-prefix=NOPARAM
#include <seam/rt.h>

using namespace seam::rt;

// Three parameters and one capture, four ops: 20 + 2 x 3.
float fourInputs(Tensor X, Tensor Y, Tensor W, Tensor B) {
  auto Step = compile(
      [B](Tensor X, Tensor Y, Tensor W) { return relu(X * W + B - Y); });
  float S = 0;
  for (int I = 0; I < 10; ++I)
    S += Step(X, Y, W).sum().item<float>();
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: host sync: {{.*}}; ~26 us device idle per iteration (profile inputs) [seam-host-sync]
  // NOPARAM: :[[@LINE-2]]:{{[0-9]+}}: warning: host sync: {{.*}}; ~20 us device idle per iteration (profile test) [seam-host-sync]
  return S;
}

// One tensor parameter (a scalar one is no input): as measured, 20.
float oneInput(Tensor X, double K) {
  auto Step = compile([](Tensor X, double K) { return relu(X * K + 1 - X); });
  float S = 0;
  for (int I = 0; I < 10; ++I)
    S += Step(X, K).sum().item<float>();
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: host sync: {{.*}}; ~20 us device idle per iteration (profile inputs) [seam-host-sync]
  return S;
}
