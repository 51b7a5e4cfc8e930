#include "detect.h"

torch::Tensor nms(const torch::Tensor &boxes) {
  torch::Tensor keep = boxes.nonzero();
  int n = count_kept(keep);
  (void)n;
  return keep;
}
