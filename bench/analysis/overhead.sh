#!/usr/bin/env bash
# What Seam's analysis adds to parsing: `seam check` vs `clang++-19
# -fsyntax-only` on the same TUs with the same flags, run side by side,
# interleaved, REPS times each; prints the median wall times and their ratio.
# Not a test. Usage: bench/analysis/overhead.sh [build-dir] [REPS] [files...]
# Defaults: build, 5, the real-LibTorch TUs in test/integration and
# examples/libtorch.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
REPS=${2:-5}
shift $(( $# > 2 ? 2 : $# )) || true
FILES=("$@")
if [ ${#FILES[@]} -eq 0 ]; then
  FILES=(examples/libtorch/train.cpp test/integration/training-loop.cpp)
fi
FLAGS=(-std=c++17 -isystem /usr/include/torch/csrc/api/include -Iinclude
       -isystem test/Inputs/cuda-stub)
SEAM="$BUILD/bin/seam"
export SEAM_RULES_DIR="$PWD/rules"

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

for F in "${FILES[@]}"; do
  : > /tmp/seam-bench-clang.$$; : > /tmp/seam-bench-seam.$$
  for ((i = 0; i < REPS; i++)); do
    t0=$(now); clang++-19 -fsyntax-only "${FLAGS[@]}" "$F"; t1=$(now)
    "$SEAM" check --no-cache "$F" -- "${FLAGS[@]}" >/dev/null 2>&1 || true
    t2=$(now)
    echo "$t1 - $t0" | bc >> /tmp/seam-bench-clang.$$
    echo "$t2 - $t1" | bc >> /tmp/seam-bench-seam.$$
  done
  C=$(median < /tmp/seam-bench-clang.$$); S=$(median < /tmp/seam-bench-seam.$$)
  printf '%-45s clang -fsyntax-only %6.2fs  seam check %6.2fs  ratio %.3f\n' \
    "$F" "$C" "$S" "$(echo "$S / $C" | bc -l)"
done
rm -f /tmp/seam-bench-clang.$$ /tmp/seam-bench-seam.$$
