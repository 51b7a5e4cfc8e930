//===- branch_fixed.cpp - The branch as a select that stays on the device -===//
//
// What `seam check --fix` makes of branch.cpp (fix kind branch-to-select; a
// test checks that the code below this comment is exactly that): both arms
// are computed and selected on the device, so each call is one region with
// no host wait.
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
    Out = seam::rt::where(H.mean() > 0.5f, H * 2.0, H * 0.5);
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
