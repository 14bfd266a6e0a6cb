"""Grading helpers shared by the tests."""
import torch

def bits_equal_rate(a: torch.Tensor, b: torch.Tensor) -> float:
    """Fraction of elements with exactly the same value (NaN never equal)."""
    assert a.shape == b.shape and a.dtype == b.dtype
    return (a == b).float().mean().item()


def within_bound(y: torch.Tensor, ref: torch.Tensor, tol: float) -> float:
    """Worst |y - ref| / (2 tol (|ref| + 1)) (the bound of docs/numerics.md
    without its conditioned term, which matters for f32 outputs of rows with
    a large mean only)."""
    y, ref = y.double(), ref.double()
    return ((y - ref).abs() / (2 * tol * (ref.abs() + 1))).max().item()


TOL = {torch.float32: 2.0 ** -17, torch.float16: 2.0 ** -10, torch.bfloat16: 2.0 ** -7}


# LayerNorm that also stores its statistics.
LAYERNORM_SAVING = """
name = "layernorm_saving"
[statistics]
center = true
[affine]
bias = true
[fusion]
save_stats = true
"""


# Figures the tests measure, printed at the end of the run (conftest.py).
MEASURED = []


def report(what: str, value: float) -> None:
    MEASURED.append((what, value))
