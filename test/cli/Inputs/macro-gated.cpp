// Its hazard is compiled out with -DSEAM_TEST_HIDE.
#include <torch/torch.h>
void f(torch::Tensor x) {
  for (int i = 0; i < 3; ++i) {
#ifndef SEAM_TEST_HIDE
    x.item<float>();
#endif
  }
}
