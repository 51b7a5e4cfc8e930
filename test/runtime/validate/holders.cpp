//===- holders.cpp - Counts through holders, parameters and both contexts -===//
//
// Built as validate_holders for test/cli/validate.test: a compiled function
// kept in a std::function and run by a helper whose loop bound is a
// parameter, a helper that syncs both inside a region and outside one, and
// a loop counting down.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <functional>
#include <iostream>

using namespace seam::rt;

// A break and a sync when called from the region; only a sync from main.
static float level(const Tensor &T) { return T.max().item<float>(); }

static Tensor repeat(const std::function<Tensor(Tensor)> &Step, Tensor X,
                     int Times) {
  for (int I = 0; I < Times; ++I)
    X = Step(X);
  return X;
}

int main() {
  auto Body = [](Tensor X) {
    Tensor Y = sigmoid(X * 0.5);
    return Y * double(level(Y));
  };
  std::function<Tensor(Tensor)> Held = compile(Body);
  Tensor X = randn({1024}, kAccel, 4);
  X = repeat(Held, X, 5);
  X = repeat(Held, X, 3);
  float Total = level(X);
  for (int K = 6; K > 0; K -= 2)
    Total += (X * double(K)).sum().item<float>(); // K = 6, 4, 2
  std::cout << "holders " << Total << "\n";
}
