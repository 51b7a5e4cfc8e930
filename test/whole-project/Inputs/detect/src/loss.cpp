#include "detect.h"

float compute_loss(const torch::Tensor &pred, const torch::Tensor &target) {
  torch::Tensor diff = pred - target;
  return diff.item<float>();
}
