#!/usr/bin/env bash
# normc's forward against PyTorch eager, torch.compile, Liger and QuACK on
# one GPU (bench/gpu/bench.py), from what a build here brings along.
#
#   bench/gpu/run.sh build        # here, with the full build: a kernel pack
#                                 # per norm, type and d (sm_90 candidates,
#                                 # clusters included) in build-bench/packs
#                                 # and packs.tar.xz, and the runtime-only C
#                                 # library for bench.py with the shared
#                                 # libraries it needs in build-bench/lib
#   bench/gpu/run.sh run [ARGS]   # on the GPU machine (PyTorch, no LLVM):
#                                 # bench.py with ARGS; results in
#                                 # bench/results
#   bench/gpu/run.sh --dry        # both, end to end on the CPU device with
#                                 # tiny shapes (what CI runs), with
#                                 # build-runtime's library and .venv's
#                                 # Python; results in build-bench/dry
#
# Carry build-bench/lib and build-bench/packs.tar.xz (and, for Liger, its
# wheel) to the GPU machine, e.g.
#   run(command="bench/gpu/run.sh run", carry=["build-bench/lib",
#       "build-bench/packs.tar.xz"])
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build-bench

full_d="256 1024 4096 8192 16384 65536 131072 262144"
dry_d="256 1024"

# The benchmark's specs: RMSNorm and LayerNorm as PyTorch computes them
# (one rounding, to the storage type), in bf16 and f32.
write_specs() {
  mkdir -p "$out/specs"
  for dtype in bf16 f32; do
    cat >"$out/specs/rmsnorm_$dtype.toml" <<EOF
name = "rmsnorm_$dtype"
[statistics]
center = false
[epsilon]
value = 1e-6
[dtypes]
input = "$dtype"
output = "$dtype"
params = "$dtype"
EOF
    cat >"$out/specs/layernorm_$dtype.toml" <<EOF
name = "layernorm_$dtype"
[statistics]
center = true
[epsilon]
value = 1e-5
[affine]
gain = true
bias = true
[dtypes]
input = "$dtype"
output = "$dtype"
params = "$dtype"
EOF
  done
}

make_packs() {
  local packs=$1 ds=$2
  [ -x build/bin/normc ] || scripts/build.sh
  write_specs
  rm -rf "$packs" && mkdir -p "$packs"
  for spec in "$out"/specs/*.toml; do
    for d in $ds; do
      build/bin/normc compile "$spec" --cols="$d" --arch=sm_90 --emit=pack \
        -o "$packs/$(basename "$spec" .toml)_d$d"
    done
  done
}

build() {
  make_packs "$out/packs" "$full_d"
  tar -C "$out" -cJf "$out/packs.tar.xz" packs
  if [ ! -f "$out/runtime/build.ninja" ]; then
    cmake -G Ninja -S . -B "$out/runtime" -DCMAKE_BUILD_TYPE=Release \
      -DNORMC_RUNTIME_ONLY=ON >/dev/null
  fi
  cmake --build "$out/runtime" --target normc_bench
  # The library links libstdc++ in and finds the rest beside it ($ORIGIN):
  # Boost.Context and TOML++, which a GPU machine without a package
  # registry lacks. NVRTC and the driver are the machine's own.
  rm -rf "$out/lib" && mkdir -p "$out/lib"
  cp "$out/runtime/lib/libnormc_bench.so" "$out/lib/"
  ldd "$out/lib/libnormc_bench.so" | awk '/boost_context|tomlplusplus/ {print $3}' |
    xargs -I{} cp -L {} "$out/lib/"
  echo "bench: carry $out/lib ($(du -sh "$out/lib" | cut -f1)) and" \
    "$out/packs.tar.xz ($(du -sh "$out/packs.tar.xz" | cut -f1))"
}

run() {
  [ -d "$out/packs" ] || tar -C "$out" -xJf "$out/packs.tar.xz"
  python3 bench/gpu/bench.py --lib "$out/lib/libnormc_bench.so" \
    --packs "$out/packs" --out bench/results "$@"
}

dry() {
  make_packs "$out/dry-packs" "$dry_d"
  [ -f build-runtime/lib/libnormc_bench.so ] ||
    { echo "bench: build-runtime has no libnormc_bench.so" >&2; return 1; }
  "${NORMC_VENV:-.venv}/bin/python" bench/gpu/bench.py --dry \
    --lib build-runtime/lib/libnormc_bench.so --packs "$out/dry-packs" \
    --out "$out/dry" "$@"
}

case "${1:-}" in
build) build ;;
run) shift && run "$@" ;;
--dry) shift && dry "$@" ;;
*)
  echo "usage: $0 build | run [bench.py options] | --dry" >&2
  exit 2
  ;;
esac
