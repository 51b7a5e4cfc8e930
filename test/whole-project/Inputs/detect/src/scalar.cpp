#include "detect.h"

float read_scalar(const torch::Tensor &t) { return t.item<float>(); }

float read_host(const torch::Tensor &t) { return t.item<float>(); }

float read_moved(const torch::Tensor &t, torch::Device d) {
  return t.to(d).item<float>();
}
