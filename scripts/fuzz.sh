#!/usr/bin/env bash
# Builds the libFuzzer targets in a sanitized clang build and runs each for
# a bounded time from seeds in the tree; exits 1 on any crash, hang, leak
# or sanitizer report (libFuzzer writes the input to build-asan/fuzz/).
#
#   scripts/fuzz.sh [SECONDS]     # per target, default 45
#
# The same build (build-asan: ASan+UBSan, libFuzzer coverage) runs the
# whole ctest suite in scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-45}
build=build-asan
scripts/build-asan.sh
out="$build/fuzz"
mkdir -p "$out"

# Seeds: the shipped specs, tests/fuzz/seeds and the spec tests' inputs;
# the lit tests' IR, one case per file split at `// -----`; .npy files of
# every dtype.
seed() { # TARGET
  local dir="$out/seeds-$1"
  rm -rf "$dir" && mkdir -p "$dir"
  case $1 in
  spec) cp specs/*.toml tests/fuzz/seeds/spec/*.toml "$dir/"
    find tests/lit -name '*.toml' -exec cp {} "$dir/" \; ;;
  mlir)
    find tests/lit -name '*.mlir' | while read -r f; do
      awk -v d="$dir" -v b="$(basename "$f" .mlir)" \
        'BEGIN{n=0} /^\/\/ -----/{n++; next} {print > (d "/" b "-" n ".mlir")}' "$f"
    done ;;
  npy)
    for dtype in float32 float64 float16; do
      python3 scripts/make-npy.py "$dir/$dtype.npy" 3,5 --dtype "$dtype"
    done ;;
  pack) # manifests of the kernel `k` PackManifestFuzzer.cpp declares
    local info="name=k d=runtime block=256 rows_per_block=1 vector_width=4"
    local params="params=x:rows:f32:r,x_stride:stride::r,gamma:features:f32:r"
    params+=",y:rows:f32:w,y_stride:stride::r,rstd:stats:f32:w"
    params+=",rows:rowcount::r,d:d::r"
    local schedule="strategy=row_group,rows_per_block=1,threads_per_row=256"
    schedule+=",vector_width=4,row_storage=global"
    printf 'normc-pack 2\nnormc 0.1.0\nd runtime\ncandidate candidate-0.cu %s\nprogram forward\ninfo %s launch_order=0 shared= %s\n' \
      "$schedule" "$info" "$params" >"$dir/runtime.txt"
    sed -e 's/d runtime/d 64/; s/d=runtime/d=64/' "$dir/runtime.txt" >"$dir/fixed.txt" ;;
  esac
  echo "$dir"
}

# LLVM's headers poison the slabs of their allocators in instrumented code,
# while the prebuilt LLVM and MLIR libraries unpoison nothing: user
# poisoning is off wherever LLVM's code runs under ASan.
export ASAN_OPTIONS=allow_user_poisoning=0:${ASAN_OPTIONS:-}
status=0
for target in spec mlir npy pack; do
  seeds=$(seed "$target")
  corpus="$out/corpus-$target"
  mkdir -p "$corpus"
  log="$out/$target.log"
  echo "fuzz: normc-fuzz-$target for ${seconds}s ($(ls "$seeds" | wc -l) seeds)"
  if "$build/tests/fuzz/normc-fuzz-$target" "$corpus" "$seeds" \
      -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
      -max_len=65536 -artifact_prefix="$out/$target-" -print_final_stats=1 \
      >"$log" 2>&1; then
    echo "fuzz: $target: $(grep -o 'Done [0-9]* runs in [0-9]* second' "$log")"
  else
    echo "fuzz: $target FAILED; the input is in $out/$target-*; log:" >&2
    tail -40 "$log" >&2
    status=1
  fi
done
exit $status
