#!/usr/bin/env bash
# Regenerates abi/lib/CudaDeclaredNames.inc, the names NVRTC and the CUDA
# headers declare where a kernel of that name does not compile, from the
# toolkit the build uses (tests/unit/names/ListCudaNames.cpp). Run after a
# CUDA upgrade when normc-name-tests says a name is missing; then rebuild.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cmake --build "$build" --target normc-list-cuda-names
out=$root/abi/lib/CudaDeclaredNames.inc
"$build/tests/unit/names/normc-list-cuda-names" > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out ($(grep -c '^"' "$out") names)"
