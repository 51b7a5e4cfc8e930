#include "detect.h"

int count_kept(const torch::Tensor &keep) {
  return keep.sum().item<int>();
}
