#include "metrics.h"
void train(torch::Tensor x) {
  for (int step = 0; step < 100; ++step) {
    auto loss = x * 2;
    if (loss.item<float>() > 1.0f)
      break;
  }
  mean_loss(x);
}
