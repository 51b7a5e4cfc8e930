#include "a.h"
void one(torch::Tensor x) {
  for (int i = 0; i < 10; ++i)
    auto y = x.cpu();
}
