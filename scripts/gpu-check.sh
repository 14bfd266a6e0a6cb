#!/usr/bin/env bash
# Checks every kernel the tuner can pick on a GPU (or, without one, on the
# CPU device) against the float64 reference, for every shipped spec.
#
#   scripts/gpu-check.sh build   # here, with the full build: kernel packs and
#                                # a portable runtime-only build (Boost, TOML++,
#                                # GoogleTest and libstdc++ linked in) in
#                                # build-gpu-check/
#   scripts/gpu-check.sh run [--device=cuda|cpu]
#                                # on the GPU machine (no LLVM, no package
#                                # registry), from the carried build-gpu-check/
#   scripts/gpu-check.sh         # both, on the CPU device unless a GPU is here
#
# `run` runs the CUDA driver layer's unit tests, then normc-pack-check over
# every pack, and prints a summary; it exits 1 when anything fails. Carry
# build-gpu-check (a few MB) to the device machine, e.g.
#   run(command="scripts/gpu-check.sh run --device=cuda",
#       carry=["build-gpu-check"])
set -euo pipefail
cd "$(dirname "$0")/.."
out=build-gpu-check

build() {
  [ -x build/bin/normc ] || scripts/build.sh
  rm -rf "$out/packs" && mkdir -p "$out/packs"
  # Shapes: a small and a large fixed d, an odd one above 16K, d at run time.
  for spec in specs/*.toml; do
    name=$(basename "$spec" .toml)
    for cols in 256 4096 16411 runtime; do
      flag=(); [ "$cols" = runtime ] || flag=(--cols="$cols")
      build/bin/normc compile "$spec" --emit=pack "${flag[@]}" \
        -o "$out/packs/$name-$cols" 2>/dev/null
    done
  done
  echo "gpu-check: $(ls "$out/packs" | wc -l) packs in $out/packs"
  if [ ! -f "$out/runtime/build.ninja" ]; then
    cmake -G Ninja -S . -B "$out/runtime" -DCMAKE_BUILD_TYPE=Release \
      -DNORMC_RUNTIME_ONLY=ON -DNORMC_PORTABLE=ON >/dev/null
  fi
  cmake --build "$out/runtime" --target normc-pack-check normc-cuda-tests
}

run() {
  local device=${1:-}
  if [ -z "$device" ]; then
    device=--device=cpu
    command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
      device=--device=cuda
  fi
  local status=0 tests="$out/runtime/tests/runtime-only/cuda/normc-cuda-tests"
  export NORMC_CACHE_DIR="$out/cache"
  echo "gpu-check: $device on $(uname -n)"
  if [ -x "$tests" ]; then
    "$tests" --gtest_brief=1 || status=1
  else
    echo "gpu-check: no CUDA unit tests in $out (run '$0 build' first)"
    status=1
  fi
  "$out/runtime/tools/normc-pack-check/normc-pack-check" "$device" \
    "$out"/packs/* >"$out/pack-check.log" || status=1
  grep -v '^ok' "$out/pack-check.log" || true
  echo "gpu-check: $(grep -c '^ok' "$out/pack-check.log") candidate runs ok," \
    "log in $out/pack-check.log"
  return $status
}

case "${1:-}" in
build) build ;;
run) shift; run "$@" ;;
"") build && run ;;
*) echo "usage: $0 [build | run [--device=cuda|cpu]]" >&2; exit 2 ;;
esac
