// Lines moved and code edited elsewhere: the accepted results keep their
// fingerprints.
#include <torch/torch.h>

int unrelated(int a) { return a + 1; }

void train(torch::Tensor x) {
  for (int step = 0; step < 100; ++step) {
      float l = x.item<float>();
    auto c = x.cpu();
  }
}
