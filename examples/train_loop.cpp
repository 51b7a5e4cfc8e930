//===- train_loop.cpp - Training-like loop that reads the loss every step -===//
//
// Linear regression by gradient descent. The step is compiled, but the host
// logs `loss.item<float>()` after every step, so the host waits for the
// device once per iteration (a host sync on a hot path). Compare with
// train_loop_fixed.cpp.
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
  float Last = 0;
  for (int I = 0; I < Steps; ++I) {
    auto [NewW, Loss] = Step(X, Xt, Y, W);
    W = NewW;
    Last = Loss.item<float>();
  }
  std::cout << "final loss " << Last << "\n";
  synchronize();
  std::cout << stats() << "\n";
}
