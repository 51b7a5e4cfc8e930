#!/usr/bin/env bash
# Analysis time against the number of syncs in one function (reliability
# sweep 2, item 10): N `x.item<float>()` terms of one expression, one per
# line, in a loop; --no-cache, mock LibTorch headers. Linear is the goal:
# the time per added 1000 syncs should not grow with N.
# Usage: bench/analysis/many-syncs.sh [BUILD_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
for N in 1000 2000 4000 8000; do
  python3 - "$DIR/sum$N.cpp" "$N" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
terms = '+\n'.join(['x.item<float>()'] * n)
open(path, 'w').write('#include <torch/torch.h>\nvoid f(torch::Tensor x) {\n'
                      '  for (int i = 0; i < 3; ++i) { float a = ' + terms +
                      '; }\n}\n')
PY
  /usr/bin/time -f "$N syncs: %e s, %M KB" "$BUILD/bin/seam" check --no-cache \
    "$DIR/sum$N.cpp" -- -std=c++17 -isystem "$ROOT/test/Inputs" \
    > /dev/null 2> "$DIR/time.txt" || true
  tail -1 "$DIR/time.txt"
done
