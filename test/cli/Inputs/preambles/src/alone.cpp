// A macro before the first include: no preamble may go before it.
#define ALONE_CONFIG 1
#include <torch/torch.h>
void alone(torch::Tensor x) {
  for (int i = 0; i < 3; ++i)
    auto n = x.nonzero();
}
