/* The first header differs from one.cpp's, the system headers it reaches
   first do not. */
#include "b.h"
void two(torch::Tensor x) {
  for (int i = 0; i < 10; ++i)
    if (twice(x).item<float>() > 1.0f)
      break;
}
