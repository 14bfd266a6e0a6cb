"""The Python package's tests run against the installed normc (pip install .),
never the source tree: scripts/test-python.sh."""
import os
import tempfile

import pytest
import torch

# Kernels compiled for the CPU device go to a cache of the test run's own
# unless the caller chose one (a warm cache makes reruns quick).
os.environ.setdefault("NORMC_CACHE_DIR", os.path.join(tempfile.gettempdir(), "normc-pytest-cache"))

import normc  # noqa: E402


def pytest_report_header(config):
    return f"normc {normc.__version__} from {os.path.dirname(normc.__file__)}, torch {torch.__version__}"


@pytest.fixture
def gen():
    return torch.Generator().manual_seed(1234)


def pytest_terminal_summary(terminalreporter):
    from helpers import MEASURED
    if MEASURED:
        terminalreporter.section("normc: measured")
        for what, value in MEASURED:
            terminalreporter.write_line(f"{what}: {value:.6g}")
