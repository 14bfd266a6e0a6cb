#!/usr/bin/env bash
# The main job on a shipped spec: installs what is missing, builds, compiles
# the spec through every stage (saying where each output went), then runs the
# generated kernel on the CPU device on generated data and prints the worst
# error against the float64 reference and the time taken.
#   scripts/demo.sh [SPEC.toml] [D] [ROWS]
set -euo pipefail
cd "$(dirname "$0")/.."
spec=${1:-specs/llama_rmsnorm.toml}
d=${2:-4096}
rows=${3:-256}
scripts/install-deps.sh
scripts/build.sh >/dev/null

name=$(basename "$spec" .toml)
out=out/$name
mkdir -p "$out"
normc=build/bin/normc
echo "normc: compiling $spec for d = $d"
for stage in mlir sched lowered cuda ptx cubin; do
  case $stage in
    mlir) ext=spec.mlir ;;
    sched) ext=sched.mlir ;;
    lowered) ext=kernel.mlir ;;
    cuda) ext=cu ;;
    *) ext=$stage ;;
  esac
  start=$(date +%s%N)
  "$normc" compile "$spec" --emit=$stage --cols="$d" --arch=sm_90 -o "$out/$name.$ext"
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  printf '  %-8s -> %s (%d ms)\n' "$stage" "$out/$name.$ext" "$ms"
done

# Inputs for the spec: x (and residual) [rows, d], gamma and beta [d].
data=$out/data
mkdir -p "$data"
make=scripts/make-npy.py
inputs=(--x "$data/x.npy")
python3 $make "$data/x.npy" "$rows,$d" --seed 1
if grep -Eq '^[[:space:]]*residual_add[[:space:]]*=[[:space:]]*true' "$spec"; then
  python3 $make "$data/residual.npy" "$rows,$d" --seed 2
  inputs+=(--residual "$data/residual.npy")
fi
if ! grep -Eq '^[[:space:]]*gain[[:space:]]*=[[:space:]]*false' "$spec"; then
  python3 $make "$data/gamma.npy" "$d" --seed 3 --mean 1 --std 0.1
  inputs+=(--gamma "$data/gamma.npy")
fi
if grep -Eq '^[[:space:]]*bias[[:space:]]*=[[:space:]]*true' "$spec"; then
  python3 $make "$data/beta.npy" "$d" --seed 4 --std 0.1
  inputs+=(--beta "$data/beta.npy")
fi
echo "normc: running the generated kernel on the CPU device ($rows x $d)"
"$normc" run "$spec" "${inputs[@]}" --out "$out/run" --device=cpu --check
