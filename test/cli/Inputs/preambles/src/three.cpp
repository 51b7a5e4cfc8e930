#include <sysextra.h>
#include <torch/torch.h>
float three(torch::Tensor x) { return x.sum().item<float>(); }
