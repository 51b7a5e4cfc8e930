#include "detect.h"

float read_scalar(const torch::Tensor &t) { return t.item<float>(); }

float read_host(const torch::Tensor &t) { return t.item<float>(); }
