//===- train_loop_fixed.cpp - The training loop with deferred loss reads --===//
//
// Same model as train_loop.cpp, but the losses are summed on the device and
// read once at the end, so the host never waits inside the loop and the
// device stream stays full.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <iostream>
#include <utility>

using namespace seam::rt;

int main() {
  const int64_t N = 4096, D = 64, Steps = 50;
  Tensor X = randn({N, D}, kAccel, 1);
  Tensor Xt = X.transpose(0, 1);
  Tensor Y = matmul(X, randn({D, 1}, kAccel, 2));
  Tensor W = zeros({D, 1}, kAccel);

  auto Step = compile([N](Tensor X, Tensor Xt, Tensor Y, Tensor W) {
    Tensor Err = matmul(X, W) - Y;
    Tensor Loss = (Err * Err).mean();
    Tensor Grad = matmul(Xt, Err) * (2.0 / N);
    return std::make_pair(W - Grad * 0.1, Loss);
  });

  Step(X, Xt, Y, W); // Warm-up: compile outside the measured loop.
  synchronize();
  reset_stats();
  Tensor Last;
  for (int I = 0; I < Steps; ++I) {
    auto [NewW, Loss] = Step(X, Xt, Y, W);
    W = NewW;
    Last = Loss; // Stays on the device.
  }
  std::cout << "final loss " << Last.item<float>() << "\n"; // One sync.
  synchronize();
  std::cout << stats() << "\n";
}
