#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the full build's
# ctest (lit, unit, CPU device, runtime API, numerics, the numerics also
# under ASan+UBSan), then the runtime-only build (no LLVM) running a kernel
# pack, then the Python package (pip install . into .venv, pytest
# tests/python) and the GPU benchmark's dry run (bench/gpu/run.sh --dry),
# then the ctest suite again, but for its sweeps, in a clang
# build under ASan+UBSan, and each libFuzzer target for a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
(cd build && ctest --output-on-failure -j"$(nproc)")

# The runtime without LLVM/MLIR loads, tunes and launches a pack made by the
# full build.
build/bin/normc compile specs/llama_rmsnorm.toml --emit=pack -o build/llama-pack
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
if [ ! -f build-runtime/build.ninja ]; then
  cmake -G Ninja -S . -B build-runtime -DCMAKE_BUILD_TYPE=Release \
    -DNORMC_RUNTIME_ONLY=ON -DNORMC_WERROR="$werror" \
    -DNORMC_TEST_PACK="$PWD/build/llama-pack" >/dev/null
fi
cmake --build build-runtime
(cd build-runtime && ctest --output-on-failure)

# The Python package against torch and transformers from PyPI.
scripts/test-python.sh

# The GPU benchmark end to end on the CPU device: packs, the runtime-only
# build's C library, PyTorch eager and torch.compile (bench/gpu/run.sh).
bench/gpu/run.sh --dry

# The whole suite under ASan+UBSan, built by clang (scripts/build-asan.sh),
# but for the numerics suite, which the first build already runs sanitized,
# and the sweeps whose kernels are not instrumented here and whose host
# code other tests already run: every schedule candidate (forward, backward,
# fp8), the fp8 suite, and the NVRTC-only compile checks. LLVM's headers
# poison their allocators' slabs in instrumented code while the prebuilt
# LLVM and MLIR libraries unpoison nothing, so user poisoning is off here.
scripts/build-asan.sh
(cd build-asan && ASAN_OPTIONS=allow_user_poisoning=0 \
  ctest --output-on-failure -j"$(nproc)" -LE 'numerics-suite|candidates|fp8' \
    -E 'EveryBackwardCandidate|PackCompile|DefaultKernels')
scripts/fuzz.sh 60
