#include "detect.h"

void extract(Backbone &b, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i)
    b.forward(x);
}
