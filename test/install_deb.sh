#!/usr/bin/env bash
# Builds the Debian package with CPack from the build tree, unpacks it into an
# empty root, and checks what a user of the package gets: seam runs from
# <root>/usr/bin and finds its packs and profiles, the plugin and headers are
# there, the package depends on Debian's LLVM 19 runtime libraries, and
# find_package(seam) gives seam::seam, seam::tidy and seam::rt.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work/pkg" > "$work/cpack.log") \
  || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/pkg/seam_*.deb)
deps=$(dpkg-deb -f "$deb" Depends)
echo "$deps" | grep -q "libllvm19" || { echo "Depends: $deps"; exit 1; }
echo "$deps" | grep -q "libclang-cpp19" || { echo "Depends: $deps"; exit 1; }
root=$work/root
dpkg-deb -x "$deb" "$root"
test -x "$root/usr/bin/seam"
test -f "$root/usr/share/seam/rules/libtorch.json"
test -f "$root/usr/include/seam/rt.h"
ls "$root"/usr/lib/*/libSeamTidy.so > /dev/null 2>&1 || ls "$root"/usr/lib/libSeamTidy.so > /dev/null
out=$(cd / && env -u SEAM_RULES_DIR "$root/usr/bin/seam" check --fail-on none \
  "$src/test/cli/Inputs/good.cpp" -- -std=c++17 -isystem "$src/test/Inputs")
echo "$out" | grep -q "\[seam-host-sync\]" || { echo "no finding: $out"; exit 1; }
# A CMake project finds the analyzer and the plugin as imported targets.
mkdir -p "$work/consumer"
cat > "$work/consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(consumer CXX)
find_package(seam CONFIG REQUIRED)
foreach(t seam::seam seam::rt)
  if(NOT TARGET ${t})
    message(FATAL_ERROR "no ${t}")
  endif()
endforeach()
get_target_property(exe seam::seam IMPORTED_LOCATION_RELEASE)
if(NOT exe)
  get_target_property(exe seam::seam LOCATION)
endif()
message(STATUS "seam::seam is ${exe}")
if(TARGET seam::tidy)
  message(STATUS "seam::tidy found")
endif()
CMAKE
cmake -S "$work/consumer" -B "$work/consumer/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$root/usr" > "$work/consumer.log" 2>&1 \
  || { cat "$work/consumer.log"; exit 1; }
grep -q "seam::seam is $root/usr/bin/seam" "$work/consumer.log" \
  || { cat "$work/consumer.log"; exit 1; }
echo "package ok: $(basename "$deb")"
