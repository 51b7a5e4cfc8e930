//===- main.cpp - Smallest program against an installed seam::rt ----------===//

#include <seam/rt.h>

#include <iostream>

int main() {
  using namespace seam::rt;
  auto F = compile([](Tensor X) { return relu(X * 2.0 - 1.0).sum(); });
  std::cout << "result " << F(ones({8}, kAccel)).item<float>() << "\n"
            << stats() << "\n";
}
