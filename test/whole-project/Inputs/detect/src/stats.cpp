#include "detect.h"

float batch_mean(const torch::Tensor &t) {
  return t.mean().item<float>();
}
