#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test:
#
#   scripts/test.sh          # what CI runs: every component, strategy,
#                            # program, mutation test, sanitizer and fuzzer
#                            # on representative cases
#   scripts/test.sh --full   # the same, and the exhaustive sweeps: every
#                            # schedule candidate of every shipped spec, the
#                            # whole d x rows matrix of each input type, the
#                            # whole pairwise design, the sanitized repeat
#                            # of all of it (ctest's labels *-full: the
#                            # tests whose names start with `Sweep`)
#
# The stages: the full build's ctest (lit, unit, CPU device, runtime API,
# numerics, a sanitized numerics process whose kernels are instrumented
# too); the runtime-only build (no LLVM) running a kernel pack; the Python
# package (pip install . into .venv, pytest tests/python); the GPU
# benchmark's dry run (bench/gpu/run.sh --dry); the ctest suite but for
# the forward numerics and the NVRTC compile checks again in a clang build
# under ASan+UBSan; each libFuzzer target for a minute. The log ends with
# each stage's wall time.
set -euo pipefail
cd "$(dirname "$0")/.."

full=false
case "${1:-}" in
"") ;;
--full) full=true ;;
-h | --help)
  sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
  ;;
*)
  echo "scripts/test.sh: error: unknown argument '$1' (see --help)" >&2
  exit 2
  ;;
esac
# ctest runs the tests labelled `full` only under --full.
selection=(-LE full)
$full && selection=()

names=() seconds=() current=""
table() {
  local status=$?
  [ -n "$current" ] && names+=("$current (failed)") && seconds+=("$((SECONDS - started))")
  echo
  echo "scripts/test.sh$($full && echo ' --full'): wall time of each stage"
  local total=0
  for i in "${!names[@]}"; do
    printf '  %-48s %5d s\n' "${names[$i]}" "${seconds[$i]}"
    total=$((total + seconds[i]))
  done
  printf '  %-48s %5d s (%d min)\n' "total" "$total" "$((total / 60))"
  exit $status
}
trap table EXIT
# stage NAME COMMAND...: runs COMMAND and records its wall time.
stage() {
  current=$1 started=$SECONDS
  shift
  echo "== $current"
  "$@"
  names+=("$current") seconds+=("$((SECONDS - started))")
  current=""
}

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON

stage "install-deps.sh (apt)" scripts/install-deps.sh
stage "build.sh" scripts/build.sh
stage "ctest" bash -c 'cd build && ctest --output-on-failure -j"$(nproc)" "$@"' \
  ctest "${selection[@]}"

# The runtime without LLVM/MLIR loads, tunes and launches a pack made by the
# full build.
runtime_only() {
  build/bin/normc compile specs/llama_rmsnorm.toml --emit=pack -o build/llama-pack
  if [ ! -f build-runtime/build.ninja ]; then
    cmake -G Ninja -S . -B build-runtime -DCMAKE_BUILD_TYPE=Release \
      -DNORMC_RUNTIME_ONLY=ON -DNORMC_WERROR="$werror" \
      -DNORMC_TEST_PACK="$PWD/build/llama-pack" >/dev/null
  fi
  cmake --build build-runtime
  (cd build-runtime && ctest --output-on-failure)
}
stage "runtime-only build and ctest" runtime_only

# The Python package against torch and transformers from PyPI.
stage "test-python.sh (.venv, pip install ., pytest)" scripts/test-python.sh

# The GPU benchmark end to end on the CPU device: packs, the runtime-only
# build's C library, PyTorch eager and torch.compile (bench/gpu/run.sh).
stage "bench/gpu/run.sh --dry" bench/gpu/run.sh --dry

# The suite under ASan+UBSan, built by clang (scripts/build-asan.sh), but
# for the forward numerics, candidate and fp8 suites, which it does not
# build (their kernels would not be instrumented here; the first build runs
# the forward ones in a sanitized process whose kernels are), the NVRTC-only
# compile checks, whose host code other tests run, and (but under --full)
# the backward's d x rows matrix but for two shipped specs, one with a
# residual and one without: the other backward tests run the same host
# code. LLVM's headers poison their
# allocators' slabs in instrumented code while the prebuilt LLVM and MLIR
# libraries unpoison nothing, so user poisoning is off here.
stage "build-asan.sh (clang, ASan+UBSan)" scripts/build-asan.sh
asan_skipped="EveryBackwardCandidate|PackCompile|DefaultKernels"
$full || asan_skipped+="|Gradient.MeetsTheBound/(layernorm|gemma|prmsnorm|t5|partial|mamba2|qwen3)"
stage "ctest under ASan+UBSan" bash -c 'cd build-asan &&
  ASAN_OPTIONS=allow_user_poisoning=0 ctest --output-on-failure -j"$(nproc)" \
    "${@:1}" -E "$0"' "$asan_skipped" "${selection[@]}"
stage "fuzz.sh 45" scripts/fuzz.sh 45
