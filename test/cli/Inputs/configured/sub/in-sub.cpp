// A file with findings, for CLI tests.
#include <torch/torch.h>
void f(torch::Tensor x) {
  for (int i = 0; i < 3; ++i)
    x.item<float>();
}
