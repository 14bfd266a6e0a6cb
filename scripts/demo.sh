#!/usr/bin/env bash
# The main job on a shipped spec: installs what is missing, builds, and
# compiles the spec through every stage, saying where each output went.
#   scripts/demo.sh [SPEC.toml] [D]
set -euo pipefail
cd "$(dirname "$0")/.."
spec=${1:-specs/llama_rmsnorm.toml}
cols=${2:-4096}
scripts/install-deps.sh
scripts/build.sh >/dev/null

name=$(basename "$spec" .toml)
out=out/$name
mkdir -p "$out"
normc=build/bin/normc
echo "normc: compiling $spec for d = $cols"
for stage in mlir lowered cuda ptx cubin; do
  case $stage in
    mlir) ext=spec.mlir ;;
    lowered) ext=sched.mlir ;;
    cuda) ext=cu ;;
    *) ext=$stage ;;
  esac
  start=$(date +%s%N)
  "$normc" compile "$spec" --emit=$stage --cols="$cols" --arch=sm_90 -o "$out/$name.$ext"
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  printf '  %-8s -> %s (%d ms)\n' "$stage" "$out/$name.$ext" "$ms"
done
