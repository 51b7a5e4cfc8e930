#!/usr/bin/env bash
# Configures build-asan/ (clang-19; ASan+UBSan on everything Seam compiles,
# and libFuzzer's coverage instrumentation on the libraries the fuzz targets
# in fuzz/ test: fuzz/CMakeLists.txt) and builds the targets named, or all.
# One build serves both scripts/test-sanitizers.sh and scripts/fuzz.sh: the
# fuzz targets link the same sanitized libraries the sanitized tests run, so
# CI compiles the project twice (plain and sanitized), not three times (a
# separate fuzz build took 11 of CI's 50 minutes, 2-core machine,
# 2026-12-07). The coverage callbacks are no-ops outside a fuzzer (the ASan
# runtime defines them).
# Usage: scripts/build-asan.sh [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
# clang-19, not GCC: it builds the sanitized project in about half the time
# (measured per file: 32 s against 62 s for lib/Driver/CheckCommand.cpp),
# and libFuzzer is clang's. A build directory configured with another
# compiler is started afresh.
if [ -f build-asan/CMakeCache.txt ] && \
   ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++-19$' build-asan/CMakeCache.txt; then
  rm -rf build-asan
fi
CC=clang-19 CXX=clang++-19 cmake -S . -B build-asan -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DSEAM_FUZZ=ON \
  -DSEAM_SANITIZE=address,undefined
if [ $# -gt 0 ]; then
  cmake --build build-asan --target "$@"
else
  cmake --build build-asan
fi
