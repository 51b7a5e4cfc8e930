//===- select_fixed.cpp - Selection as a masked reduction on the device ---===//
//
// Same computation as select.cpp without materializing the selection: the
// mask weights a sum and counts itself, so the shapes stay static and each
// call is one fused region with no host wait. Written by hand, following
// Seam's suggestion: no automatic fix changes a data-dependent shape.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <iostream>

using namespace seam::rt;

int main() {
  const int64_t N = 1 << 16, Calls = 50;

  auto Score = compile([](Tensor X) {
    Tensor S = sigmoid(X * 3.0);
    Tensor Mask = S > 0.9;
    Tensor Count = where(Mask, 1.0, zeros({N}, kAccel)).sum();
    Tensor PickedSum = where(Mask, S, 0.0).sum();
    return PickedSum / where(Count > 0.0, Count, 1.0);
  });

  Score(randn({N}, kAccel, 0)); // Warm-up: compile outside the loop.
  synchronize();
  reset_stats();
  Tensor Total = zeros({}, kAccel);
  for (int I = 0; I < Calls; ++I)
    Total = Total + Score(randn({N}, kAccel, I));
  std::cout << "mean selected score " << Total.item<float>() / Calls << "\n";
  synchronize();
  std::cout << stats() << "\n";
}
