//===- select.cpp - Selecting elements through nonzero() ------------------===//
//
// Picks the scores above a threshold with nonzero()/masked_select(): the
// output size depends on the data, so every call waits for the device and
// breaks the compiled region. Compare with select_fixed.cpp.
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
    int64_t Count = nonzero(Mask).size(0);  // Data-dependent shape.
    Tensor Picked = masked_select(S, Mask); // And again.
    return Picked.sum() / double(Count > 0 ? Count : 1);
  });

  Score(randn({N}, kAccel, 0)); // Warm-up (later shapes still vary).
  synchronize();
  reset_stats();
  Tensor Total = zeros({}, kAccel);
  for (int I = 0; I < Calls; ++I)
    Total = Total + Score(randn({N}, kAccel, I));
  std::cout << "mean selected score " << Total.item<float>() / Calls << "\n";
  synchronize();
  std::cout << stats() << "\n";
}
