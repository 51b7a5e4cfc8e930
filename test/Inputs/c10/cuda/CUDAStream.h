// Mock of c10/cuda/CUDAStream.h (declared with torch.h in the mock).
#pragma once
#include <torch/torch.h>
