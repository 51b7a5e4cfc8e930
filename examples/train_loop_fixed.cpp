//===- train_loop_fixed.cpp - The training loop with one loss read --------===//
//
// What `seam check --fix` makes of train_loop.cpp (fix kind last-value; a
// test checks that the code below this comment is exactly that): the loss
// stays on the device in a tensor and is read once after the loop, so the
// host never waits inside the loop and the device stream stays full.
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
  seam::rt::Tensor Last_device;
  for (int I = 0; I < Steps; ++I) {
    auto [NewW, Loss] = Step(X, Xt, Y, W);
    W = NewW;
    Last_device = Loss;
  }
  if (Last_device.defined())
    Last = Last_device.item<float>();
  std::cout << "final loss " << Last << "\n";
  synchronize();
  std::cout << stats() << "\n";
}
