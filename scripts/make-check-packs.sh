#!/usr/bin/env bash
# Kernel packs for normc-pack-check, made with a full build's normc:
#
#   scripts/make-check-packs.sh NORMC OUT
#
#   OUT/candidates/SPEC-COLS  every shipped spec at d = 256, 4096, 16411 and
#                             at run time: every schedule candidate is checked
#   OUT/numerics/SPEC-INPUT   every shipped spec with each input type, d at
#                             run time: the numerics matrix (--matrix)
#
# The input-type variants are written as TOML into OUT/specs. Needs python3
# (3.11 or later, for tomllib).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 NORMC OUT" >&2; exit 2; }
normc=$1 out=$2
root="$(cd "$(dirname "$0")/.." && pwd)"
rm -rf "$out/candidates" "$out/numerics" "$out/specs"
mkdir -p "$out/candidates" "$out/numerics" "$out/specs"

pack() { # SPEC OUTDIR [--cols=D]
  local log
  log=$("$normc" compile "$1" --emit=pack "${@:3}" -o "$2" 2>&1) ||
    { echo "$log" >&2; exit 1; }
}

for spec in "$root"/specs/*.toml; do
  name=$(basename "$spec" .toml)
  for d in 256 4096 16411; do
    pack "$spec" "$out/candidates/$name-$d" --cols="$d"
  done
  pack "$spec" "$out/candidates/$name-runtime"
done

python3 - "$root/specs" "$out/specs" <<'PY'
import pathlib, sys, tomllib

def value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v + '"'
    return repr(v)

source, target = map(pathlib.Path, sys.argv[1:])
for path in sorted(source.glob("*.toml")):
    spec = tomllib.loads(path.read_text(encoding="utf-8"))
    for input_type in ("f32", "f16", "bf16"):
        spec.setdefault("dtypes", {})["input"] = input_type
        lines = [f"name = {value(spec['name'])}"]
        for table, keys in spec.items():
            if isinstance(keys, dict):
                lines.append(f"[{table}]")
                lines += [f"{k} = {value(v)}" for k, v in keys.items()]
        (target / f"{path.stem}-{input_type}.toml").write_text(
            "\n".join(lines) + "\n", encoding="utf-8")
PY
for spec in "$out"/specs/*.toml; do
  pack "$spec" "$out/numerics/$(basename "$spec" .toml)"
done
echo "make-check-packs: $(ls "$out/candidates" | wc -l) candidate packs," \
  "$(ls "$out/numerics" | wc -l) numerics packs in $out"
