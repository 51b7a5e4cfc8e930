// Debian libtorch-dev lacks this generated header; ATen/cuda/CUDAGraph.h needs it.
#pragma once
