#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the full build's
# ctest (lit, unit, CPU device, runtime API, numerics, also under
# ASan+UBSan), then the runtime-only build (no LLVM) running a kernel pack,
# then the Python package (pip install . into .venv, pytest tests/python).
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
