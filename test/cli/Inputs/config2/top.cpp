#include <torch/torch.h>
void f(torch::Tensor x) {
  for (int i = 0; i < 3; ++i)
    x.item<float>();
}
torch::Tensor step_one(torch::Tensor x) {
  x.print();
  return x + 1;
}
