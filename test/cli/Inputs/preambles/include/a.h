#ifndef A_H
#define A_H
// Reached through a project header's guard: still before the file's code.
#include <torch/torch.h>
#include <sysextra.h>
#include "common.h"

inline float first_loss(const torch::Tensor &l) { return l[0].item<float>(); }
#endif
