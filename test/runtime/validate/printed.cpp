//===- printed.cpp - Syncs followed by host work the model must include ---===//
//
// Built as validate_printed for test/cli/validate.test: a training-like loop
// that prints a device value every 50th step (the print is the sync, and
// formatting it is host work before the next launch), prints a scalar it
// read every 25th step, and sums a copy on the host once per run. `seam
// validate` must predict each line's idle with the print and the host loop
// in it.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <iostream>

using namespace seam::rt;

int main() {
  const int64_t N = 1 << 14;
  Tensor W = randn({N}, kAccel, 1);
  Tensor G = randn({N}, kAccel, 2);
  for (int S = 0; S < 200; ++S) {
    W = W - G * 0.01;
    G = sigmoid(G * W);
    if (S % 50 == 0)
      std::cout << "step " << S << " sum " << W.sum() << std::endl;
    if (S % 25 == 0) {
      float M = G.mean().item<float>();
      std::cout << "mean " << M << "\n";
    }
  }
  Tensor H = W.cpu();
  const float *P = H.data_ptr<float>();
  double Acc = 0;
  for (int64_t I = 0; I < N; ++I)
    Acc += P[I];
  Tensor Z = W * 2;
  std::cout << "host sum " << Acc << " " << Z.sum().item<float>() << "\n";
}
