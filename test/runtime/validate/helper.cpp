//===- helper.cpp - A sync at the end of a helper the loop calls ----------===//
//
// For `seam validate` (test/cli/validate-relative.test): the sync is the
// helper's last tensor work, so the next launch is the caller's, in the
// next iteration of its loop. The test compiles it with a relative path,
// as a hand-written build does: the runtime then records the file as
// written on the compiler's command line.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <iostream>

using namespace seam::rt;

float lossOf(const Tensor &W, const Tensor &T) {
  Tensor D = W - T;
  return (D * D).mean().item<float>();
}

int main() {
  const int64_t N = 1 << 14;
  Tensor W = randn({N}, kAccel, 1);
  Tensor T = randn({N}, kAccel, 2);
  Tensor G = randn({N}, kAccel, 3);
  float Sum = 0;
  for (int S = 0; S < 40; ++S) {
    W = W - G * 0.01;
    G = sigmoid(G * W);
    Sum += lossOf(W, T);
  }
  std::cout << "helper " << Sum << "\n";
}
