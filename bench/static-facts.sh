#!/usr/bin/env bash
# Static facts of the kernels normc picks by default for sm_90 (and sm_80),
# per strategy, from NVRTC's ptxas: registers, static and dynamic shared
# memory, spills, and the bytes each element of [rows, d] moves; from the
# kernel-level IR, the shuffles and barriers a row takes (bench/row-steps.py).
# What a GPU run would measure in time, this says from the compiler alone.
#
#   bench/static-facts.sh [BUILD_DIR] > bench/results/static-facts.md
#
# Needs the full build (normc with LLVM); no GPU.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
normc="$build/bin/normc"
[[ -x "$normc" ]] || { echo "static-facts: no $normc; build first" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# RMSNorm in f32: the shipped bf16 spec with every tensor in f32.
sed -e 's/"bf16"/"f32"/g' -e 's/^name = .*/name = "rmsnorm_f32"/' \
  "$root/specs/llama_rmsnorm.toml" > "$work/rmsnorm_f32.toml"
# Each in reproducible mode too (docs/numerics.md).
for name in llama_rmsnorm rmsnorm_f32; do
  from="$root/specs/$name.toml"
  [[ -f "$from" ]] || from="$work/$name.toml"
  { cat "$from"; printf '\n[numerics]\nreproducible = true\n'; } \
    > "$work/$name.reproducible.toml"
done

cuda="$(/usr/local/cuda/bin/nvcc --version 2>/dev/null |
  sed -n 's/.*release \([0-9.]*\).*/\1/p')"
echo "# Static facts of the default kernels (no GPU run)"
echo
echo "From NVRTC's ptxas (CUDA ${cuda:-?}), made by"
echo "\`bench/static-facts.sh > bench/results/static-facts.md\` on $(date -u +%Y-%m-%d)."
echo "Dynamic shared memory is what the launch asks for (the staged row or"
echo "cluster slice); bytes/element counts x read and y written once (1.5"
echo "times that when a row is re-read from global memory). Shuffles and"
echo "barriers are those a thread executes per row (cluster barriers after"
echo "the +), counted in the kernel-level IR. Mode reproducible is the spec"
echo "with \`[numerics] reproducible = true\`: every sum in one tree over the"
echo "feature index (docs/numerics.md), a butterfly for every chunk."
echo
echo "| spec | mode | d | arch | strategy | schedule | registers | static smem | dynamic smem | spills | bytes/element | shuffles/row | barriers/row |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for spec in "$root/specs/llama_rmsnorm.toml" \
  "$work/llama_rmsnorm.reproducible.toml" "$work/rmsnorm_f32.toml" \
  "$work/rmsnorm_f32.reproducible.toml"; do
  name="$(basename "$spec" .toml)"
  mode=default
  [[ "$name" == *.reproducible ]] && mode=reproducible
  name="${name%.reproducible}"
  for arch in sm_90 sm_80; do
    for d in 256 1024 4096 8192 16384 65536 131072 262144; do
      "$normc" compile "$spec" --emit=cuda --arch=$arch --cols=$d \
        -o "$work/k.cu"
      log="$("$normc" compile "$spec" --emit=cubin --arch=$arch --cols=$d \
        -o "$work/k.cubin" -v 2>&1)"
      read -r shuffles barriers clusterBarriers < <("$normc" compile "$spec" \
        --emit=lowered --arch=$arch --cols=$d | python3 "$root/bench/row-steps.py")
      schedule="$(sed -n 's|^//   schedule: ||p' "$work/k.cu" | head -1)"
      dynamic="$(sed -n 's|^//   launch: .*: \([0-9]*\) bytes$|\1|p' \
        "$work/k.cu" | head -1)"
      strategy="registers"
      case "$schedule" in
        *cluster*) strategy="cluster" ;;
        *row_storage=shared*) strategy="shared (cp.async)" ;;
        *row_storage=global*) strategy="re-read" ;;
      esac
      threads="$(sed -n 's/.*threads_per_row=\([0-9]*\).*/\1/p' <<<"$schedule")"
      if [[ "$strategy" == registers && "$threads" -le 32 ]]; then
        strategy="registers, a warp or less a row"
      fi
      registers="$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' <<<"$log" | head -1)"
      smem="$(sed -n 's/.* \([0-9]*\) bytes smem.*/\1/p' <<<"$log" | head -1)"
      spills="$(sed -n 's/.* \([0-9]*\) bytes spill stores, \([0-9]*\) bytes spill loads.*/\1+\2/p' <<<"$log" | head -1)"
      element=$([[ "$name" == *f32* ]] && echo 4 || echo 2)
      # x read once and y written once; a re-read row reads x twice.
      accesses=2
      [[ "$strategy" == re-read ]] && accesses=3
      moved=$((element * accesses))
      steps="$barriers"
      [[ "$clusterBarriers" != 0 ]] && steps="$barriers+$clusterBarriers"
      echo "| $name | $mode | $d | $arch | $strategy | \`$schedule\` | $registers | ${smem:-0} | ${dynamic:-0} | ${spills:-?} | $moved | $shuffles | $steps |"
    done
  done
done
