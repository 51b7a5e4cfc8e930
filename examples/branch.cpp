//===- branch.cpp - A forward with a data-dependent `if` on mean().item() -===//
//
// The branch needs a host value inside the compiled forward: every call is
// cut into two regions (a graph break) and the host waits for the device (a
// host sync). Compare with branch_fixed.cpp.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <iostream>

using namespace seam::rt;

int main() {
  const int64_t N = 1 << 16, Calls = 50;
  Tensor Scale = full({N}, 0.9, kAccel);
  Tensor Bias = randn({N}, kAccel, 7);

  auto Forward = compile([&](Tensor X) {
    Tensor H = relu(X * Scale + Bias);
    Tensor Out;
    if (H.mean().item<float>() > 0.5f) // Graph break + host sync.
      Out = H * 2.0;
    else
      Out = H * 0.5;
    return tanh(Out + 1.0);
  });

  Tensor X = randn({N}, kAccel, 1);
  Forward(X); // Warm-up: compile outside the measured loop.
  synchronize();
  reset_stats();
  for (int I = 0; I < Calls; ++I)
    X = Forward(X);
  std::cout << "checksum " << X.sum().item<float>() << "\n";
  synchronize();
  std::cout << stats() << "\n";
}
