#!/usr/bin/env bash
# Analyzer speed, measured side by side in one run (not a test):
#   1. cold, per TU: `seam check --no-cache` vs `clang++-19 -fsyntax-only`,
#      wall time and peak memory, on real-LibTorch TUs;
#   2. a repository of N generated TUs that include torch/torch.h:
#      `seam check -p db -jJ --no-cache` vs `run-clang-tidy-19 -j J` with one
#      cheap check; then warm: a re-run with nothing changed, after editing
#      one .cpp, after editing a header half the TUs include;
#   3. with PROJECT_DB=dir[:dir...], the same on real projects, and a re-run
#      with another configuration (results computed again, preambles reused).
# Usage: [SKIP_COLD=1] [SKIP_GENERATED=1] [PROJECT_DB=dir] bench/analysis/speed.sh [build-dir] [N=16] [J=2] [REPS=3]
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO_ROOT=$PWD
BUILD=${1:-build}; N=${2:-16}; J=${3:-2}; REPS=${4:-3}
SEAM="$REPO_ROOT/$BUILD/bin/seam"
export SEAM_RULES_DIR="$REPO_ROOT/rules"
FLAGS=(-std=c++17 -isystem /usr/include/torch/csrc/api/include -I"$REPO_ROOT/include"
       -isystem "$REPO_ROOT/test/Inputs/cuda-stub")
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
secs() { /usr/bin/time -f '%e %M' -o "$WORK/time" "$@" >/dev/null 2>&1 || true; tail -1 "$WORK/time"; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "== 1. cold, per TU (median of $REPS, interleaved)"
[ "${SKIP_COLD:-0}" = 1 ] && echo "(skipped: SKIP_COLD=1)"
for F in $([ "${SKIP_COLD:-0}" = 1 ] || echo test/integration/training-loop.cpp examples/libtorch/train.cpp); do
  : > "$WORK/c"; : > "$WORK/s"
  for ((i = 0; i < REPS; i++)); do
    secs clang++-19 -fsyntax-only "${FLAGS[@]}" "$F" >> "$WORK/c"
    secs "$SEAM" check --no-cache --fail-on=none "$F" -- "${FLAGS[@]}" >> "$WORK/s"
  done
  CT=$(cut -d' ' -f1 "$WORK/c" | median); CM=$(cut -d' ' -f2 "$WORK/c" | median)
  ST=$(cut -d' ' -f1 "$WORK/s" | median); SM=$(cut -d' ' -f2 "$WORK/s" | median)
  printf '%-38s clang %6.2fs %7d KB | seam %6.2fs %7d KB | time %.3fx memory %.3fx\n' \
    "$F" "$CT" "$CM" "$ST" "$SM" "$(echo "$ST/$CT" | bc -l)" "$(echo "$SM/$CM" | bc -l)"
done

if [ "${SKIP_GENERATED:-0}" != 1 ]; then
echo "== 2. a repository of $N TUs including torch/torch.h, -j$J"
P="$WORK/repo"; mkdir -p "$P/src" "$P/include" "$P/build"
cat > "$P/include/common.h" <<'H'
#pragma once
#include <torch/torch.h>
inline float mean_of(const torch::Tensor &t) { return t.mean().item<float>(); }
H
cat > "$P/include/other.h" <<'H'
#pragma once
#include <torch/torch.h>
inline torch::Tensor twice(const torch::Tensor &t) { return t * 2; }
H
echo '[' > "$P/build/compile_commands.json"
for ((i = 0; i < N; i++)); do
  H=$([ $((i % 2)) -eq 0 ] && echo common.h || echo other.h)
  cat > "$P/src/tu$i.cpp" <<C
#include "$H"
struct Net$i : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  Net$i() { fc = register_module("fc", torch::nn::Linear(8, 8)); }
  torch::Tensor forward(torch::Tensor x) { return torch::relu(fc(x)); }
};
void train$i(int steps) {
  auto net = std::make_shared<Net$i>();
  net->to(torch::kCUDA);
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int s = 0; s < steps; ++s) {
    auto loss = net->forward(torch::randn({4, 8}, torch::kCUDA)).sum();
    opt.zero_grad(); loss.backward(); opt.step();
    if (s % 100 == 0) printf("%f\n", loss.item<float>());
  }
}
C
  SEP=$([ $i -lt $((N - 1)) ] && echo , || true)
  printf '{"directory":"%s","file":"%s","arguments":["clang++-19",%s,"-c","%s"]}%s\n' \
    "$P/build" "$P/src/tu$i.cpp" \
    "$(printf '"%s",' "${FLAGS[@]}" "-I$P/include" | sed 's/,$//')" "$P/src/tu$i.cpp" "$SEP" \
    >> "$P/build/compile_commands.json"
done
echo ']' >> "$P/build/compile_commands.json"
read -r TIDY _ < <(secs run-clang-tidy-19 -j "$J" -p "$P/build" -quiet \
  -checks='-*,readability-braces-around-statements')
read -r COLD _ < <(secs "$SEAM" check -p "$P/build" -j "$J" --no-cache --fail-on=none)
read -r ALONE _ < <(secs "$SEAM" check -p "$P/build" -j "$J" --no-cache --no-shared-preamble --fail-on=none)
printf 'run-clang-tidy-19 -j%s (one check) %7.2fs | seam check -j%s --no-cache %7.2fs: %.2fx faster | without the shared preamble %7.2fs: %.2fx\n' \
  "$J" "$TIDY" "$J" "$COLD" "$(echo "$TIDY/$COLD" | bc -l)" "$ALONE" "$(echo "$TIDY/$ALONE" | bc -l)"

CACHE="$WORK/cache"
read -r FILL _ < <(secs "$SEAM" check -p "$P/build" -j "$J" --cache-dir "$CACHE" --fail-on=none)
read -r WARM _ < <(secs "$SEAM" check -p "$P/build" -j "$J" --cache-dir "$CACHE" --fail-on=none)
echo '// edited' >> "$P/src/tu3.cpp"
read -r ONE _ < <(secs "$SEAM" check -p "$P/build" -j "$J" --cache-dir "$CACHE" --fail-on=none)
echo '// edited' >> "$P/include/common.h"
read -r HDR _ < <(secs "$SEAM" check -p "$P/build" -j "$J" --cache-dir "$CACHE" --fail-on=none)
printf 'cache: first run %.2fs | nothing changed %.2fs (%.3f of cold) | one .cpp edited %.2fs | header of %d TUs edited %.2fs\n' \
  "$FILL" "$WARM" "$(echo "$WARM/$FILL" | bc -l)" "$ONE" $(( (N + 1) / 2 )) "$HDR"
fi

# 3. Real projects' build directories, when PROJECT_DB names them (dir:dir;
# e.g. clones of AidanShipperley/PPO-LibTorch and Omegastick/pytorch-cpp-rl
# with their compile_commands.json).
IFS=: read -r -a PROJECTS <<< "${PROJECT_DB:-}"
for DB in "${PROJECTS[@]}"; do
  echo "== 3. the project in $DB, -j$J"
  read -r TIDY _ < <(secs run-clang-tidy-19 -j "$J" -p "$DB" -quiet \
    -checks='-*,readability-braces-around-statements')
  read -r NOC _ < <(secs "$SEAM" check -p "$DB" -j "$J" --no-cache --fail-on=none)
  CACHE3=$(mktemp -d -p "$WORK")
  read -r FIRST _ < <(secs "$SEAM" check -p "$DB" -j "$J" --cache-dir "$CACHE3" --fail-on=none)
  # Another configuration: every result is computed again, the preambles
  # (system headers only, or unchanged project headers) are reused.
  read -r OTHER _ < <(secs "$SEAM" check -p "$DB" -j "$J" --cache-dir "$CACHE3" --all-syncs --fail-on=none)
  read -r SAME _ < <(secs "$SEAM" check -p "$DB" -j "$J" --cache-dir "$CACHE3" --fail-on=none)
  printf 'run-clang-tidy-19 -j%s (one check) %7.2fs | seam --no-cache %7.2fs: %.2fx faster | empty cache %7.2fs: %.2fx | other configuration, preambles cached %7.2fs: %.2fx | nothing changed %7.2fs\n' \
    "$J" "$TIDY" "$NOC" "$(echo "$TIDY/$NOC" | bc -l)" "$FIRST" "$(echo "$TIDY/$FIRST" | bc -l)" \
    "$OTHER" "$(echo "$TIDY/$OTHER" | bc -l)" "$SAME"
done
