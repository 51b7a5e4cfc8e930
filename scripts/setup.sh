#!/usr/bin/env bash
# Installs Seam's build and test dependencies from Debian (idempotent).
set -euo pipefail
PKGS=(cmake ninja-build g++ llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19 clang-tidy-19
      llvm-19-tools clang-format-19 libclang-rt-19-dev nlohmann-json3-dev libcli11-dev libgtest-dev googletest
      libtorch-dev libthrust-dev python3 python3-jsonschema python3-yaml zlib1g-dev libzstd-dev
      libedit-dev libxml2-dev libcurl4-openssl-dev clang-tools-19)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "seam setup: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
