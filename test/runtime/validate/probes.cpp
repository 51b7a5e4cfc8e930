//===- probes.cpp - Syncs whose counts Seam must predict exactly ----------===//
//
// Built as validate_probes for test/cli/validate.test: a sync inside a
// helper called from a compiled lambda, one guarded by `i % 10 == 0`, one in
// nested loops. `seam validate` must predict each line's executions and
// breaks exactly.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <iostream>

using namespace seam::rt;

// Called from the compiled step: a graph break and a host sync per call.
static float readScale(const Tensor &T) { return T.item<float>(); }

int main() {
  const int64_t N = 1 << 12;
  Tensor W = randn({N}, kAccel, 1);
  auto Step = compile([&](Tensor X) {
    Tensor H = relu(X * W + 0.5);
    float S = readScale(H.mean());
    return H * double(S > 0 ? 1.0 / S : 1.0);
  });
  Tensor X = randn({N}, kAccel, 2);
  float Sum = 0;
  for (int I = 0; I < 60; ++I) {
    X = Step(X);
    if (I % 10 == 0)
      Sum += X.sum().item<float>(); // every 10th iteration: 6 times
  }
  for (int A = 0; A < 3; ++A)
    for (int B = 0; B < 4; ++B)
      Sum += (X * double(B)).max().item<float>(); // 12 times
  std::cout << "probes " << Sum << "\n";
}
