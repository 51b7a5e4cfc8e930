//===- loops.cpp - Counts through while loops, filled vectors and guards --===//
//
// Built as validate_loops for test/cli/validate.test: a while loop over a
// counter, a range loop over a vector filled by push_back, and a compiled
// function whose loop breaks on every other iteration only. `seam
// validate` must predict each line's executions, breaks and the region's
// pieces exactly.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <iostream>
#include <vector>

using namespace seam::rt;

int main() {
  std::vector<Tensor> Batches;
  for (int I = 0; I < 4; ++I)
    Batches.push_back(randn({1024}, kAccel, I + 1));
  auto Body = compile([](Tensor X) {
    Tensor Y = sigmoid(X);
    for (int K = 0; K < 4; ++K)
      if (K % 2 == 0)
        Y = Y + Y.mean().item<float>(); // a break on K = 0 and 2
    return Y;
  });
  float Sum = 0;
  int Step = 0;
  while (Step < 6) {
    for (const Tensor &B : Batches)
      Sum += Body(B).sum().item<float>(); // 24 times
    if (Step % 3 == 0)
      std::cout << "step " << Step << " " << Batches[0].max().item<float>()
                << "\n"; // 2 times
    ++Step;
  }
  std::cout << "loops " << Sum << "\n";
}
