#!/usr/bin/env bash
# Installs what is missing, builds Seam, and runs it on the bundled examples.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
TORCH_FLAGS=(-std=c++17 -isystem /usr/include/torch/csrc/api/include -Iinclude)
echo "== seam check examples/libtorch/train.cpp (real LibTorch headers) =="
build/bin/seam check examples/libtorch/train.cpp -- "${TORCH_FLAGS[@]}" || true
if ls examples/*.cpp >/dev/null 2>&1; then
  echo "== seam check examples/*.cpp (seam::rt models) =="
  build/bin/seam check examples/*.cpp -- -std=c++17 -Iinclude || true
fi
