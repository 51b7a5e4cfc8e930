// A sync that runs once, right after the first call of a compiled function
// (the call that compiles it), adds host_after_compile_us: the host resumes
// from the compile with cold caches (docs/cost-model.md, "A sync right after
// a compile"). A later call, a call in a loop, or an eager op in between
// does not; when the next launch is one eager op, the profile's
// host_after_compile_eager_us stands instead. A profile without the
// parameters says the term is not costed.
// RUN: not %seam check --all-syncs --profile %inputs/profiles/after-compile.json %s -- -std=c++17 -I%repo/include 2>&1 | FileCheck %s
// RUN: not %seam check --all-syncs --profile %inputs/profiles/test.json %s -- -std=c++17 -I%repo/include 2>&1 | FileCheck %s --check-prefix=NOPARAM
#include <seam/rt.h>

using namespace seam::rt;

Tensor warmUp(Tensor X) {
  auto Step = compile([](Tensor X) { return relu(X * 2); });
  Tensor Y = Step(X);
  synchronize();
  // CHECK: :[[@LINE-1]]:3: note: host sync: {{.*}}; ~45 us device idle per call (profile after-compile) [seam-host-sync]
  // CHECK: :[[@LINE-2]]:3: note: includes ~25 us (host_after_compile_us) because the work it waits for is the first call of 'Step' at line [[@LINE-3]], which compiles it: the host resumes from the compile (profile after-compile)
  // NOPARAM: :[[@LINE-3]]:3: note: host sync: {{.*}}; ~20 us device idle per call (profile test) [seam-host-sync]
  // NOPARAM: :[[@LINE-4]]:3: note: the work it waits for is the first call of 'Step' at line [[@LINE-5]], which compiles it; not costed: profile test has no host_after_compile_us
  Tensor Z = Step(Y);
  synchronize();
  // A second call finds the region compiled.
  // CHECK: :[[@LINE-2]]:3: note: host sync: {{.*}}; ~20 us device idle per call (profile after-compile) [seam-host-sync]
  // CHECK-NOT: which compiles it
  return Z;
}

float eagerBetween(Tensor X) {
  auto Step = compile([](Tensor X) { return sigmoid(X); });
  Tensor Y = Step(X) + 1;
  return Y.sum().item<float>();
  // The last launch before the sync is the eager sum.
  // CHECK: :[[@LINE-2]]:{{[0-9]+}}: note: host sync: {{.*}}(profile after-compile) [seam-host-sync]
  // CHECK-NOT: which compiles it
}

float inLoop(Tensor X) {
  auto Step = compile([](Tensor X) { return (X - 1).sum(); });
  float Total = 0;
  for (int I = 0; I < 10; ++I)
    Total += Step(X).item<float>();
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: host sync: {{.*}}(profile after-compile) [seam-host-sync]
  // CHECK-NOT: which compiles it
  return Total;
}

float operandOfSync(Tensor X) {
  auto Step = compile([](Tensor X) { return (X * X).mean(); });
  return Step(X).item<float>();
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: note: host sync: {{.*}}(profile after-compile) [seam-host-sync]
  // CHECK: :[[@LINE-2]]:{{[0-9]+}}: note: includes ~25 us (host_after_compile_us) because the work it waits for is the first call of 'Step' at line [[@LINE-2]], which compiles it
}

Tensor eagerNext(Tensor X) {
  auto Step = compile([](Tensor X) { return X * 3; });
  Tensor Y = Step(X);
  synchronize();
  // CHECK: :[[@LINE-1]]:3: note: includes ~8 us (host_after_compile_eager_us) because the work it waits for is the first call of 'Step' at line [[@LINE-2]]
  return Y + 1;
}
