#include "detect.h"

void run_steps(const std::function<float(const torch::Tensor &)> &step,
               const torch::Tensor &x) {
  for (int i = 0; i < 100; ++i)
    step(x);
}
