// CPU-only linear regression; all tensors are host, nothing can sync.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>

int main() {
  torch::manual_seed(0);
  torch::Tensor X = torch::randn({256, 3});
  torch::Tensor true_w = torch::tensor({2.0, -1.0, 0.5}).reshape({3, 1});
  torch::Tensor Y = X.matmul(true_w) + 0.1 * torch::randn({256, 1});

  torch::Tensor w = torch::zeros({3, 1}, torch::requires_grad());
  torch::Tensor b = torch::zeros({1}, torch::requires_grad());
  const double lr = 0.05;

  for (int it = 0; it < 200; ++it) {
    torch::Tensor pred = X.matmul(w) + b;
    torch::Tensor loss = (pred - Y).pow(2).mean();
    loss.backward();
    {
      torch::NoGradGuard ng;
      w -= lr * w.grad();
      b -= lr * b.grad();
      w.grad().zero_();
      b.grad().zero_();
    }
    if (it % 20 == 0) {
      std::printf("iter %d loss %.5f\n", it, loss.item<float>());
      std::cout << w.t() << std::endl;
    }
    if (loss.item<double>() < 1e-3) break;
    auto big = torch::nonzero(w.abs() > 1.0);
    if (torch::allclose(w, true_w, 1e-2, 1e-2)) break;
    (void)big;
  }
  std::cout << "b = " << b.item<float>() << std::endl;
}
