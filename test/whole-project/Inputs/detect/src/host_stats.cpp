#include "detect.h"

void host_stats() {
  torch::Tensor h = torch::zeros({4});
  for (int i = 0; i < 10; ++i) {
    float a = read_host(h);
    float b = read_scalar(h);
    float c = read_moved(h, h.device());
    (void)a; (void)b; (void)c;
  }
  torch::Tensor d = torch::ones({4}).cuda();
  for (int i = 0; i < 10; ++i)
    (void)read_scalar(d);
}
