#!/usr/bin/env bash
# What whole-project analysis (summaries and the project pass,
# docs/whole-project.md) adds to a cold run of a real project: `seam check
# -p build --no-cache` with and without --per-tu, interleaved, REPS times
# each, in one run; prints each time, the medians and their ratio.
# Default project: test/whole-project/Inputs/detect parsed against the real
# LibTorch headers (libtorch-dev), 12 translation units.
# Usage: bench/analysis/whole-project.sh [PROJECT_DIR [REPS [BUILD_DIR]]]
#   PROJECT_DIR holds build/compile_commands.json; -j2.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REPS=${2:-3}
BUILD=${3:-$ROOT/build}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ -n "${1:-}" ]; then
  PROJECT=$(cd "$1" && pwd)
else
  PROJECT=$TMP/detect
  cp -r "$ROOT/test/whole-project/Inputs/detect" "$PROJECT"
  sed "s|@DIR@|$PROJECT|g; s|-isystem @INPUTS@|-DC10_CUDA_NO_CMAKE_CONFIGURE_FILE -isystem /usr/include/torch/csrc/api/include|g" \
    "$PROJECT/compile_commands.json.in" > "$PROJECT/build/compile_commands.json"
fi
cd "$PROJECT"
run() { # mode -> seconds
  local flag=()
  [ "$1" = per-tu ] && flag=(--per-tu)
  local t0 t1
  t0=$(date +%s%N)
  "$BUILD/bin/seam" check -p build -j2 --no-cache --fail-on=none "${flag[@]}" \
    > "$TMP/$1.out" 2> /dev/null || true
  t1=$(date +%s%N)
  python3 -c "print('%.2f' % (($t1 - $t0) / 1e9))"
}
run project > /dev/null # warm the file system's cache
for i in $(seq "$REPS"); do
  for mode in per-tu project; do
    s=$(run $mode)
    echo "$mode $s" | tee -a "$TMP/times"
  done
done
python3 - "$TMP/times" <<'PY'
import statistics, sys
t = {}
for line in open(sys.argv[1]):
    m, s = line.split()
    t.setdefault(m, []).append(float(s))
a, b = statistics.median(t["per-tu"]), statistics.median(t["project"])
print("median per-tu %.2f s, with the project pass %.2f s: ratio %.3f" % (a, b, b / a))
PY
echo "results: per-tu $(grep -c 'warning:' "$TMP/per-tu.out" || true) warnings, whole project $(grep -c 'warning:' "$TMP/project.out" || true)"
