// No hazard here.
#include <torch/torch.h>
torch::Tensor scale(torch::Tensor x) { return x * 2; }
