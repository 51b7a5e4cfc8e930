#!/usr/bin/env bash
# Builds the libFuzzer targets (in build-asan/, by scripts/build-asan.sh)
# and runs each over its seed corpus in fuzz/corpus/: RUNS inputs (default
# 50000) with a fixed SEED (default 1), so a CI run is reproducible, and at
# most SECONDS_PER_TARGET (default 60). Part of CI. New interesting inputs
# go to a scratch directory, not the repository; a crash stops the run and
# leaves its input in build-asan/ (add it to fuzz/corpus/ as a regression
# input once fixed).
# For a longer hunt: RUNS=-1 SEED=0 SECONDS_PER_TARGET=600 scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
SECS=${SECONDS_PER_TARGET:-60}
RUNS=${RUNS:-50000}
SEED=${SEED:-1}
bash scripts/build-asan.sh seam_fuzz_RulePack seam_fuzz_Profile \
  seam_fuzz_Config seam_fuzz_Baseline seam_fuzz_Merge seam_fuzz_CacheEntry \
  seam_fuzz_Summaries
export ASAN_OPTIONS=detect_leaks=1
for T in RulePack:rulepack Profile:profile Config:config Baseline:baseline \
         Merge:merge CacheEntry:cache Summaries:summaries; do
  NAME=${T%%:*}; SEEDS=fuzz/corpus/${T##*:}
  WORK=build-asan/work-$NAME; mkdir -p "$WORK"
  echo "fuzz: $NAME, $RUNS runs (seed $SEED), at most ${SECS}s"
  (cd build-asan && ./bin/seam_fuzz_$NAME -max_total_time="$SECS" \
     -runs="$RUNS" -seed="$SEED" \
     -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 -close_fd_mask=3 \
     "../$WORK" "../$SEEDS")
done
