#!/usr/bin/env bash
# Configures (once) and builds normc into ./build. Quick when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release \
    -DNORMC_WERROR="$werror" >/dev/null
fi
cmake --build build
