//===- params.cpp - Counts through loops and guards that read parameters --===//
//
// Built as validate_params for test/cli/validate.test: a training helper
// whose step count and logging interval are parameters, called with
// different constant arguments, once inside a loop. Its guards read the
// loop counter and the parameters (`s > 0 && s % 7 == 0`, `s == steps -
// 1`, `s % every == 0`); `seam validate` must count each call with its
// own arguments and predict every line's executions exactly. A compiled
// lambda whose loop reads its parameter is counted through the calls of
// its holder, which forward the argument through compile()'s closure.
// Locals that nothing changes after their declaration (`int Batches = 8;`,
// a `Schedule` whose members have initializers) count as their values, in
// loop bounds, guards and arguments.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <iostream>

using namespace seam::rt;

static float train(Tensor &W, const Tensor &X, int Steps, int Every) {
  float Last = 0;
  for (int S = 0; S < Steps; ++S) {
    W = W - X * 0.01f;
    Last = W.mean().item<float>(); // 30 x 2 + 12 + 8 = 80
    if (S > 0 && S % 7 == 0)
      std::cout << W.sum().item<float>() << "\n"; // 4 x 2 + 1 + 1 = 10
    if (S == Steps - 1)
      Last += W.max().item<float>(); // 1 x 2 + 1 + 1 = 4
    if (S % Every == 0)
      Last += W.min().item<float>(); // 6 x 2 + 3 + 2 = 17
  }
  return Last;
}

static float evaluate(const Tensor &W, int Batches) {
  float Sum = 0;
  for (int B = 0; B < 10; ++B)
    if (B % Batches == 0)
      Sum += (W * float(B)).sum().item<float>(); // 10 / 3 -> 4 (0, 3, 6, 9)
  return Sum;
}

struct Schedule {
  int Epochs = 3;
  int LogEvery = 4;
};

int main() {
  Tensor X = randn({4096}, kAccel, 1);
  Tensor W = zeros({4096}, kAccel);
  float L = 0;
  for (int Epoch = 0; Epoch < 2; ++Epoch)
    L += train(W, X, 30, 5);
  L += train(W, X, 12, 4);
  L += evaluate(W, 3);
  auto Refine = compile([](Tensor Y, int K) {
    for (int I = 0; I < K; ++I)
      if (I % 2 == 1)
        Y = Y * Y.mean().item<float>(); // 2 per call x 5 = 10 breaks
    return Y;
  });
  for (int R = 0; R < 5; ++R)
    L += Refine(W, 4).sum().item<float>();
  Schedule Sched;
  int Batches = 8;
  for (int E = 0; E < Sched.Epochs; ++E)
    for (int B = 0; B < Batches; ++B)
      if (B % Sched.LogEvery == 0)
        L += W.sum().item<float>(); // 3 x 2 = 6
  L += train(W, X, Batches, Sched.LogEvery);
  std::cout << "params " << L << "\n";
}
