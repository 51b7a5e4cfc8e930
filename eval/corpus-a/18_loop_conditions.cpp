// Syncs in loop conditions; metadata in loop conditions.
#include <torch/torch.h>

#include <iostream>

torch::Tensor newton_sqrt(torch::Tensor a, double tol) {
  torch::Tensor x = a.clone();
  while ((x * x - a).abs().max().item<double>() > tol) {  //@ hs:item
    x = 0.5 * (x + a / x);
  }
  return x;
}

int main() {
  torch::Tensor a = torch::rand({1000}, torch::device(torch::kCUDA)) + 1;
  auto r = newton_sqrt(a, 1e-6);

  torch::Tensor budget = torch::full({1}, 10, torch::kInt64).cuda();
  int used = 0;
  do {
    r = r * 1.0001;
    ++used;
  } while (used < budget.item<int64_t>());  //@ hs:item

  for (int64_t i = 0; i < r.size(0); i += 100) {
    r[i] = 0;
  }
  for (int64_t i = 0; i < r.numel() && r.dim() == 1; i += 500) {
    r = r + 1;
  }
  std::cout << used << std::endl;
}
