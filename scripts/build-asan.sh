#!/usr/bin/env bash
# Configures (once) and builds normc with clang, AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer's coverage into ./build-asan
# (LLVM's own options, LLVM_USE_SANITIZER), without the forward numerics,
# candidate and fp8 suites, whose kernels would not be instrumented here
# (the first build runs them). scripts/test.sh runs the ctest suite there;
# scripts/fuzz.sh its fuzz targets.
set -euo pipefail
cd "$(dirname "$0")/.."

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
if [ ! -f build-asan/build.ninja ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S . -B build-asan \
    -DCMAKE_BUILD_TYPE=Release -DNORMC_WERROR="$werror" \
    -DLLVM_USE_SANITIZER="Address;Undefined" -DLLVM_USE_SANITIZE_COVERAGE=ON \
    -DLLVM_UBSAN_FLAGS="-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all" \
    -DNORMC_FUZZ=ON -DNORMC_SANITIZED_NUMERICS=OFF -DNORMC_FORWARD_NUMERICS=OFF \
    -DNORMC_BUILD_BENCHMARKS=OFF >/dev/null
fi
cmake --build build-asan
