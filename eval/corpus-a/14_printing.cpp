// Printing tensors in a loop: stream insertion, torch::print, printf.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>
#include <sstream>

int main() {
  at::Tensor x = at::randn({4, 4}, at::device(at::kCUDA));
  at::Tensor cpu_x = at::randn({4, 4});
  std::ostringstream log;
  for (int i = 0; i < 10; ++i) {
    x = x.matmul(x.t()) / 4.0;
    std::cout << x << std::endl;  //@ hs:<<
    std::cerr << "shape " << x.sizes() << " dev " << x.device() << "\n";
    torch::print(x);  //@ hs:print
    log << "iter " << i << ' ' << x.diag();  //@ hs:<<#4
    std::printf("%.3f\n", x.trace().item<double>());  //@ hs:item
    std::cout << cpu_x << std::endl;
    std::cout << x.dtype() << " " << x.numel() << std::endl;
  }
  std::cout << log.str() << x << std::endl;
}
