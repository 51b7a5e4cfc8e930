// A project header with a hazard, included by two files: reported once.
#pragma once
#include <torch/torch.h>
inline float mean_loss(const torch::Tensor &losses) {
  float total = 0;
  for (int i = 0; i < 4; ++i)
    total += losses[i].item<float>();
  return total / 4;
}
