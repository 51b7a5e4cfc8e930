#include <torch/torch.h>
void train(torch::Tensor x) {
  for (int step = 0; step < 100; ++step) {
    auto c = x.cpu();
  }
}
