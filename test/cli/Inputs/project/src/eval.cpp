#include "metrics.h"
void evaluate(torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    auto y = x.cpu();
  }
  mean_loss(x);
}
