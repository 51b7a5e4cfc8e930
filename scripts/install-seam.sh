#!/usr/bin/env bash
# Builds Seam from this checkout and installs it, for a CI runner or a
# workstation (Debian bookworm or Ubuntu 24.04 with LLVM 19 from the archive).
#
#   scripts/install-seam.sh                    # build, install into /usr/local
#   scripts/install-seam.sh --prefix DIR       # ... into DIR (no sudo needed)
#   scripts/install-seam.sh --deb              # build a .deb with CPack and install it
#   scripts/install-seam.sh --build-dir DIR    # where to build (default: build-install;
#                                              # cache it between CI runs: only what
#                                              # changed is rebuilt)
#
# Installs only what building Seam needs (no LibTorch, no test tools), and is
# safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/usr/local build=build-install deb=0
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --deb) deb=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "install-seam: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
# The package installs under /usr, and the plugin knows its packs' folder.
[ "$deb" = 1 ] && prefix=/usr
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo > /dev/null && SUDO=sudo
PKGS=(cmake ninja-build g++ llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19 clang-tidy-19
      nlohmann-json3-dev libcli11-dev zlib1g-dev libzstd-dev libedit-dev libxml2-dev
      libcurl4-openssl-dev dpkg-dev file)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-seam: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSEAM_BUILD_TESTS=OFF \
  -DCMAKE_INSTALL_PREFIX="$prefix" > /dev/null
cmake --build "$build" --target seam SeamTidy seam_rt
if [ "$deb" = 1 ]; then
  (cd "$build" && cpack -G DEB > /dev/null)
  pkg=$(ls "$build"/seam_*.deb | head -1)
  echo "install-seam: built $pkg"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "./$pkg"
else
  w=""
  [ -w "$prefix" ] || [ ! -e "$prefix" -a -w "$(dirname "$prefix")" ] || w=$SUDO
  $w cmake --install "$build" > /dev/null
fi
echo "install-seam: $("${prefix%/}/bin/seam" --version 2>/dev/null || seam --version)"
