// Mock of libtorch 1.13's ATen/cuda/CUDAGraph.h for Seam's lit tests.
#pragma once
#include <torch/torch.h>
namespace at {
namespace cuda {
struct CUDAGraph {
  CUDAGraph();
  void capture_begin();
  void capture_end();
  void replay();
  void reset();
};
struct CUDAEvent {
  void record();
  void synchronize() const;
  float elapsed_time(const CUDAEvent &other) const;
};
} // namespace cuda
} // namespace at
