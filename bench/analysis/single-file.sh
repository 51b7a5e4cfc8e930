#!/usr/bin/env bash
# One named file per call, as pre-commit and CMAKE_CXX_CLANG_TIDY run Seam
# (not a test): for each file, after an edit, the time of
#   before: the file parsed with no preamble (what every such call did
#           before single files got one; measured with --no-shared-preamble),
#   after:  the second call with a cache, which reuses the preamble of the
#           system headers the file reaches first (the first call builds it),
# measured side by side in one run, interleaved, median of REPS.
# Usage: bench/analysis/single-file.sh BUILD_DIR DB_DIR FILE... [REPS=3 env]
set -euo pipefail
cd "$(dirname "$0")/../.."
SEAM=$PWD/$1/bin/seam; DB=$2; shift 2
REPS=${REPS:-3}
export SEAM_RULES_DIR=$PWD/rules
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
secs() { /usr/bin/time -f '%e' -o "$WORK/t" "$@" > /dev/null 2>&1 || true; tail -1 "$WORK/t"; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
for F in "$@"; do
  cp "$F" "$WORK/orig"
  rm -rf "$WORK/cache"
  FIRST=$(secs "$SEAM" check -p "$DB" --cache-dir "$WORK/cache" --fail-on=none "$F")
  : > "$WORK/b"; : > "$WORK/a"
  for ((i = 0; i < REPS; i++)); do
    echo "// edit $i" >> "$F"
    secs "$SEAM" check -p "$DB" --no-cache --no-shared-preamble --fail-on=none "$F" >> "$WORK/b"
    secs "$SEAM" check -p "$DB" --cache-dir "$WORK/cache" --fail-on=none "$F" >> "$WORK/a"
  done
  cp "$WORK/orig" "$F"
  B=$(median < "$WORK/b"); A=$(median < "$WORK/a")
  printf '%-40s first call %6.2fs | after an edit: before %6.2fs, after %6.2fs, %.2fx faster\n' \
    "$(basename "$F")" "$FIRST" "$B" "$A" "$(echo "$B/$A" | bc -l)"
done
