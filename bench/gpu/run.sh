#!/usr/bin/env bash
# Measures the h200 profile's parameters on the lent GPU machine.
# Usage (device tool): bash bench/gpu/run.sh   (writes $OUT/*.json)
set -euo pipefail
OUT=${OUT:-/tmp/seam-gpu}
mkdir -p "$OUT"
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/nvidia-smi.txt"
nvcc -O2 -arch=sm_90 -o /tmp/sync_probe sync_probe.cu
/tmp/sync_probe | tee "$OUT/sync_probe.json"
TORCH_DIR=$(python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))')
ABI=$(python3 -c 'import torch; print(int(torch._C._GLIBCXX_USE_CXX11_ABI))')
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc)")")}
g++ -O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI="$ABI" libtorch_probe.cpp -o /tmp/libtorch_probe \
  -I"$TORCH_DIR/include" -I"$TORCH_DIR/include/torch/csrc/api/include" -I"$CUDA_HOME/include" \
  -L"$TORCH_DIR/lib" -Wl,-rpath,"$TORCH_DIR/lib" -ltorch -ltorch_cuda -ltorch_cpu -lc10 -lc10_cuda \
  -L"$CUDA_HOME/lib64" -lcudart
/tmp/libtorch_probe | tee "$OUT/libtorch_probe.json"
