#!/usr/bin/env bash
# Checks the generated kernels on a GPU (or, without one, on the CPU device)
# against the float64 reference, for every shipped spec.
#
#   scripts/gpu-check.sh build   # here, with the full build: kernel packs
#                                # (packs.tar.xz) and a portable runtime-only
#                                # build (Boost, TOML++, GoogleTest and
#                                # libstdc++ linked in) whose programs go to
#                                # build-gpu-check/bin
#   scripts/gpu-check.sh run [--device=cuda|cpu]
#                                # on the GPU machine (no LLVM, no package
#                                # registry), from what `build` left
#   scripts/gpu-check.sh         # both, on the CPU device unless a GPU is here
#
# `run` runs, and summarizes:
#   1. the CUDA driver layer's unit tests;
#   2. the numerics matrix through the kernels users get (Norm::forward and
#      Norm::backward, tuned on CUDA): every shipped spec with each input
#      type, d in {1, 7, 64, 127, 1000, 4096, 4097, 12288, 65536} x rows
#      {0, 1, 3, 257} (normc-pack-check --matrix);
#   3. every schedule candidate, forward and backward, of every shipped spec
#      at d = 256, 4096, 16411 and 1001 at run time (normc-pack-check).
# It exits 1 when anything fails. Carry two paths (under 10 MB) to the
# device machine, e.g.
#   run(command="scripts/gpu-check.sh run --device=cuda",
#       carry=["build-gpu-check/bin", "build-gpu-check/packs.tar.xz"])
set -euo pipefail
cd "$(dirname "$0")/.."
out=build-gpu-check

build() {
  [ -x build/bin/normc ] || scripts/build.sh
  scripts/make-check-packs.sh build/bin/normc "$out/packs"
  tar -C "$out/packs" -cJf "$out/packs.tar.xz" candidates numerics
  if [ ! -f "$out/runtime/build.ninja" ]; then
    cmake -G Ninja -S . -B "$out/runtime" -DCMAKE_BUILD_TYPE=Release \
      -DNORMC_RUNTIME_ONLY=ON -DNORMC_PORTABLE=ON >/dev/null
  fi
  cmake --build "$out/runtime" --target normc-pack-check normc-cuda-tests
  mkdir -p "$out/bin"
  cp "$out/runtime/tools/normc-pack-check/normc-pack-check" \
    "$out/runtime/tests/runtime-only/cuda/normc-cuda-tests" "$out/bin/"
  echo "gpu-check: carry $out/bin ($(du -sh "$out/bin" | cut -f1))" \
    "and $out/packs.tar.xz ($(du -sh "$out/packs.tar.xz" | cut -f1))"
}

run() {
  local device=${1:-}
  if [ -z "$device" ]; then
    device=--device=cpu
    command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
      device=--device=cuda
  fi
  if [ ! -x "$out/bin/normc-pack-check" ] || [ ! -f "$out/packs.tar.xz" ]; then
    echo "gpu-check: nothing to run in $out (run '$0 build' first)" >&2
    return 1
  fi
  [ -d "$out/packs/numerics" ] ||
    { mkdir -p "$out/packs" && tar -C "$out/packs" -xJf "$out/packs.tar.xz"; }
  local status=0
  export NORMC_CACHE_DIR="$out/cache"
  echo "gpu-check: $device on $(uname -n)"
  "$out/bin/normc-cuda-tests" --gtest_brief=1 || status=1
  for check in numerics candidates; do
    local flags=() rc=0
    [ "$check" = numerics ] && flags=(--matrix)
    "$out/bin/normc-pack-check" "$device" "${flags[@]}" \
      "$out/packs/$check"/* >"$out/$check.log" || rc=$?
    grep -v '^ok' "$out/$check.log" || true
    [ "$rc" -eq 0 ] || status=1 # 77: --device=cuda without a GPU
    echo "gpu-check: $check: $(grep -c '^ok' "$out/$check.log") runs ok," \
      "log in $out/$check.log"
  done
  return $status
}

case "${1:-}" in
build) build ;;
run) shift; run "$@" ;;
"") build && run ;;
*) echo "usage: $0 [build | run [--device=cuda|cpu]]" >&2; exit 2 ;;
esac
