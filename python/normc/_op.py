"""The torch.library custom ops normc::forward and normc::backward.

Both take the spec as a key into the registry of loaded specs (a string, so
torch.compile can trace them as graph constants) and return a fixed tuple
of tensors (forward: y, the fp8 scale or amax, residual_out, mean, rstd):
absent outputs are empty tensors, so that every spec has the same schema.
The fake (meta) implementations give torch.compile the output shapes; the
autograd formula calls normc::backward, which runs the backward kernels
derived from the spec (docs/backward.md).
"""
from typing import Dict, Optional, Tuple

import torch
from torch import Tensor

from . import _runtime

# Loaded specs by key (see _norm.Norm); a key names one canonical spec.
registry: Dict[str, "object"] = {}

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
          "f8e4m3": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}


def rows_view(t: Tensor, d: int) -> Tensor:
    """t as [rows, d] with unit feature stride: a view where one exists
    (row strides are passed to the kernels), else a contiguous copy."""
    rows = t.reshape(-1, d)
    if rows.stride(1) != 1 or (rows.shape[0] > 1 and rows.stride(0) < d):
        rows = rows.contiguous()
    return rows


class _Launch:
    """The addresses and row strides of one launch's tensors; it holds the
    views and copies it makes until the launch is done with them."""

    def __init__(self):
        self.keep = []

    def rows(self, t: Optional[Tensor], d: int) -> Tuple[int, int]:
        if t is None:
            return 0, 0
        rows = rows_view(t, d)
        self.keep.append(rows)
        return rows.data_ptr(), rows.stride(0)

    def vector(self, t: Optional[Tensor]) -> int:
        if t is None or t.numel() == 0:  # absent (an empty output)
            return 0
        t = t.contiguous()
        self.keep.append(t)
        return t.data_ptr()


def _stream(t: Tensor) -> int:
    return torch.cuda.current_stream(t.device).cuda_stream if t.is_cuda else 0


def _absent(like: Tensor) -> Tensor:
    return like.new_empty(0)


def _forward_outputs(key: str, x: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    sig = registry[key].signature
    lead = x.shape[:-1]
    y = x.new_empty(x.shape, dtype=DTYPES[sig.output])
    residual_out = x.new_empty(x.shape) if sig.residual_out else _absent(x)
    stat = lambda on: x.new_empty(lead, dtype=torch.float32) if on else _absent(x)
    # An fp8 output's per-row scale, or with a static scale its amax; block
    # scales are [..., ceil(d / block)].
    if sig.quantize_block:
        block = sig.quantize_block
        groups = (x.shape[-1] + block - 1) // block
        scale = x.new_empty((*lead, groups), dtype=torch.float32)
    else:
        scale = stat(bool(sig.quantize_scale))
    return (y, scale, residual_out, stat(sig.mean), stat(sig.rstd))


def forward_impl(
    key: str,
    x: Tensor,
    residual: Optional[Tensor],
    gamma: Optional[Tensor],
    beta: Optional[Tensor],
    static_scale: Optional[Tensor],
) -> Tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    y, scale, residual_out, mean, rstd = _forward_outputs(key, x)
    d = x.shape[-1]
    rows = x.numel() // d
    if rows:
        a = _Launch()
        static = registry[key].signature.quantize_scale == "static"
        _runtime.kernel(key, x.device).forward(
            rows, d, *a.rows(x, d), *a.rows(residual, d), a.vector(gamma),
            a.vector(beta), a.vector(y), a.vector(residual_out), a.vector(mean),
            a.vector(rstd), _stream(x),
            scale=0 if static else a.vector(scale),
            static_scale=a.vector(static_scale),
            amax=a.vector(scale) if static else 0)
    return y, scale, residual_out, mean, rstd


forward = torch.library.custom_op(
    "normc::forward", forward_impl, mutates_args=(), device_types=("cpu", "cuda"))


@forward.register_fake
def _(key, x, residual, gamma, beta, static_scale):
    return _forward_outputs(key, x)


def _backward_outputs(key: str, x: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    sig = registry[key].signature
    d = x.shape[-1]
    dx = x.new_empty(x.shape)
    dresidual = x.new_empty(x.shape) if sig.residual else _absent(x)
    param = lambda on: x.new_empty(d, dtype=DTYPES[sig.params]) if on else _absent(x)
    return dx, dresidual, param(sig.gamma), param(sig.beta)


def backward_impl(
    key: str,
    x: Tensor,
    residual: Optional[Tensor],
    gamma: Optional[Tensor],
    dy: Tensor,
    dresidual_out: Optional[Tensor],
    mean: Optional[Tensor],
    rstd: Optional[Tensor],
) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    dx, dresidual, dgamma, dbeta = _backward_outputs(key, x)
    d = x.shape[-1]
    rows = x.numel() // d
    if rows == 0:  # no rows: sums of nothing
        dgamma.zero_()
        dbeta.zero_()
        return dx, dresidual, dgamma, dbeta
    a = _Launch()
    _runtime.kernel(key, x.device).backward(
        rows, d, *a.rows(x, d), *a.rows(residual, d), a.vector(gamma),
        *a.rows(dy, d), *a.rows(dresidual_out, d), a.vector(mean), a.vector(rstd),
        a.vector(dx), a.vector(dresidual), a.vector(dgamma), a.vector(dbeta),
        _stream(x))
    return dx, dresidual, dgamma, dbeta


backward = torch.library.custom_op(
    "normc::backward", backward_impl, mutates_args=(), device_types=("cpu", "cuda"))


@backward.register_fake
def _(key, x, residual, gamma, dy, dresidual_out, mean, rstd):
    return _backward_outputs(key, x)


def _setup_context(ctx, inputs, output):
    key, x, residual, gamma, _, _ = inputs
    _, _, _, mean, rstd = output
    sig = registry[key].signature
    ctx.key = key
    # Saved statistics spare the backward their recomputation.
    ctx.save_for_backward(
        x, residual, gamma,
        mean if sig.mean else None,
        rstd if sig.rstd and sig.scaled else None)


def _backward(ctx, dy, dscale, dresidual_out, dmean, drstd):
    # The saved statistics and scales are outputs without a gradient
    # (docs/python.md).
    x, residual, gamma, mean, rstd = ctx.saved_tensors
    sig = registry[ctx.key].signature
    if sig.quantize_scale:
        raise RuntimeError(f"normc: spec '{registry[ctx.key].name}' has an fp8 "
                           f"output ({sig.output}), which has no backward "
                           "(contract section 7)")
    dx, dresidual, dgamma, dbeta = backward(
        ctx.key, x, residual, gamma, dy,
        dresidual_out if sig.residual_out else None, mean, rstd)
    return (None, dx, dresidual if sig.residual else None,
            dgamma if sig.gamma else None, dbeta if sig.beta else None, None)


torch.library.register_autograd("normc::forward", _backward, setup_context=_setup_context)

