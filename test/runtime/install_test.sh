#!/usr/bin/env bash
# Installs the seam_rt component into a scratch prefix and builds and runs a
# user project that finds it with find_package(seam CONFIG REQUIRED).
set -euo pipefail
build_dir=$1 source_dir=$2 work=$3
rm -rf "$work"
cmake --install "$build_dir" --component seam_rt --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/include/seam/rt.h"
test -f "$work/prefix/lib/cmake/seam/seamConfig.cmake"
cmake -S "$source_dir" -B "$work/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer"
