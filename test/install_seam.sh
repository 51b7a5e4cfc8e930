#!/usr/bin/env bash
# Installs the build into a temporary prefix and checks that the installed
# seam finds its bundled rule packs and profiles next to itself.
set -euo pipefail
build=$1 src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > /dev/null
out=$(cd / && env -u SEAM_RULES_DIR "$prefix/bin/seam" check --fail-on none \
  "$src/test/cli/Inputs/good.cpp" -- -std=c++17 -isystem "$src/test/Inputs")
echo "$out" | grep -q "\[seam-host-sync\]" || { echo "no finding: $out"; exit 1; }
echo "$out" | grep -q "(profile h100)" || { echo "no profile: $out"; exit 1; }
test -f "$prefix/include/seam/compiled.h"
echo "installed seam ok"
