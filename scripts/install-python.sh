#!/usr/bin/env bash
# Makes the Python virtual environment .venv (or $NORMC_VENV) with what the
# package builds with and its tests use, all from PyPI: torch (with its CUDA
# libraries; it runs on the CPU without a GPU), transformers, pytest,
# scikit-build-core and nanobind. Idempotent: returns at once when all of
# them import.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${NORMC_VENV:-.venv}"
modules="torch, numpy, transformers, pytest, scikit_build_core, nanobind"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
if ! "$venv/bin/python" -c "import $modules" 2>/dev/null; then
  echo "normc: installing the Python test environment in $venv (a few minutes)"
  "$venv/bin/python" -m pip install -q --upgrade pip
  "$venv/bin/python" -m pip install -q "torch>=2.4" numpy "transformers>=4.45" \
    pytest "scikit-build-core>=0.10" "nanobind>=2.0"
fi
