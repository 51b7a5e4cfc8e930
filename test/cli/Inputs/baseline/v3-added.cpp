#include <torch/torch.h>
void train(torch::Tensor x) {
  for (int step = 0; step < 100; ++step) {
    float l = x.item<float>();
    auto c = x.cpu();
    float again = x.item<float>();
  }
}
