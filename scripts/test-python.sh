#!/usr/bin/env bash
# The Python package's tests: makes .venv (scripts/install-python.sh),
# installs the package into it with `pip install .` (its build folder,
# build/python, is kept, so a second run rebuilds only what changed) and runs
# pytest on tests/python from outside the source tree, so the installed
# package is what is tested.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
venv="$(realpath -m "${NORMC_VENV:-.venv}")"
scripts/install-python.sh
"$venv/bin/python" -m pip install -q --no-build-isolation "$root"
cd "$(mktemp -d)"
"$venv/bin/python" -m pytest -p no:cacheprovider -q "$root/tests/python" "$@"
