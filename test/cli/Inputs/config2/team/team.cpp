#include <ml.h>
#include <torch/torch.h>
void g(torch::Tensor t) {
  ml::Array w = ml::make(16, ml::Where::Gpu);
  for (int i = 0; i < 3; ++i) {
    float v = w.value();
    t.item<float>();
  }
}
