#!/usr/bin/env bash
# Installs the Debian packages normc builds with. Idempotent: when every
# package is present it returns at once without touching apt.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 python3-venv python3-dev
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libtomlplusplus-dev libgtest-dev libgmock-dev libbenchmark-dev
  libboost-context-dev
  clang-22 libclang-rt-22-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "normc: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -f /usr/local/cuda/include/nvrtc.h ] && [ -z "${CUDAToolkit_ROOT:-}" ]; then
  echo "normc: error: the CUDA toolkit (NVRTC) was not found in /usr/local/cuda;" >&2
  echo "  install it there or set CUDAToolkit_ROOT to its location." >&2
  exit 1
fi
