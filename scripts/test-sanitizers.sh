#!/usr/bin/env bash
# Sanitizer runs (part of CI, after scripts/test.sh):
#  - ASan+UBSan build of the whole project (scripts/build-asan.sh, shared
#    with scripts/fuzz.sh); runs the unit tests, the runtime
#    tests and the lit suites (the analyzer binary itself sanitized). Left
#    out: the real-LibTorch integration suite (it parses torch.h, much
#    slower under ASan, and its code paths are the lit suites' own), the
#    clang-tidy plugin suite (an instrumented plugin cannot load into
#    Debian's uninstrumented clang-tidy), the second pass of the lit suites
#    with system bodies kept (it includes both of those) and the three
#    install tests (a package of instrumented binaries tests nothing more).
#  - TSan build of seam::rt; runs the runtime tests, two-thread compile()
#    included.
# Usage: scripts/test-sanitizers.sh [asan|tsan|all]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
WHAT=${1:-all}
# use_sigaltstack=0: seam registers LLVM's signal handlers (and their
# alternate signal stack) on its main thread (tool/seam.cpp); a stack LLVM
# made on a worker thread, if any path ever did, would abort ASan's thread
# teardown ("failed to deallocate ... UnsetAlternateSignalStack").
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:use_sigaltstack=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
if [ "$WHAT" = all ] || [ "$WHAT" = asan ]; then
  bash scripts/build-asan.sh
  ctest --test-dir build-asan --output-on-failure -j2 \
    -E '^(lit\.integration|lit\.tidy|lit\.keep-system-bodies|install\.seam|install\.deb|runtime\.install_find_package)$'
fi
if [ "$WHAT" = all ] || [ "$WHAT" = tsan ]; then
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DSEAM_SANITIZE=thread
  cmake --build build-tsan --target seam_rt_tests
  ctest --test-dir build-tsan --output-on-failure -j2 -L runtime \
    -E '^(runtime\.install_find_package|example\..*)$'
fi
