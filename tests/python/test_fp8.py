"""fp8 outputs from Python (docs/python.md, docs/fp8.md): float8 tensors with
their per-row scales or, with a static scale, the amax; against PyTorch's
float64 RMSNorm divided by normc's own scale and rounded by PyTorch's fp8
conversion."""
import pytest
import torch
import torch.nn.functional as F

import normc
from helpers import report

SPEC = """
name = "rms_fp8"
[statistics]
center = false
[epsilon]
value = 1e-6
[dtypes]
input = "bf16"
params = "bf16"
output = "{output}"
[quantize]
scale = "{scale}"
"""

FP8 = {"f8e4m3": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}


def reference(x, w):
    return F.rms_norm(x.double(), (x.shape[-1],), w.double(), 1e-6)


@pytest.mark.parametrize("output", sorted(FP8))
def test_row_scales(gen, output):
    norm = normc.Norm(SPEC.format(output=output, scale="row"))
    x = torch.randn(4, 6, 512, generator=gen).bfloat16()
    w = (1 + 0.1 * torch.randn(512, generator=gen)).bfloat16()
    y, scale = norm(x, gamma=w)
    assert y.dtype == FP8[output] and y.shape == x.shape
    assert scale.dtype == torch.float32 and scale.shape == x.shape[:-1]
    ref = reference(x, w)
    amax = ref.abs().amax(dim=-1)
    fp8_max = torch.finfo(FP8[output]).max
    assert torch.allclose(scale.double(), amax / fp8_max, rtol=2.0 ** -16, atol=0)
    # PyTorch's conversion rounds to nearest even; away from midpoints the
    # values are the same.
    want = (ref / scale.double().unsqueeze(-1)).to(FP8[output])
    share = (y.float() == want.float()).double().mean().item()
    report(f"python fp8 {output} row: share of values equal to PyTorch's rounding", share)
    assert share > 0.999
    assert y.float().abs().amax(dim=-1).eq(fp8_max).all()


@pytest.mark.parametrize("output", sorted(FP8))
def test_block_scales(gen, output):
    # d = 500 in blocks of 128: three whole blocks and a ragged one of 116.
    spec = SPEC.format(output=output, scale="block") + "block = 128\n"
    norm = normc.Norm(spec)
    x = torch.randn(2, 5, 500, generator=gen).bfloat16()
    w = (1 + 0.1 * torch.randn(500, generator=gen)).bfloat16()
    y, scale = norm(x, gamma=w)
    assert y.dtype == FP8[output] and y.shape == x.shape
    assert scale.dtype == torch.float32 and scale.shape == (2, 5, 4)
    ref = reference(x, w)
    fp8_max = torch.finfo(FP8[output]).max
    padded = F.pad(ref.abs(), (0, 12))  # zeros do not change an amax
    amax = padded.unflatten(-1, (4, 128)).amax(dim=-1)
    assert torch.allclose(scale.double(), amax / fp8_max, rtol=2.0 ** -16, atol=0)
    per_feature = scale.double().repeat_interleave(128, dim=-1)[..., :500]
    want = (ref / per_feature).to(FP8[output])
    share = (y.float() == want.float()).double().mean().item()
    report(f"python fp8 {output} block: share of values equal to PyTorch's rounding", share)
    assert share > 0.999
    blocks = F.pad(y.float().abs(), (0, 12)).unflatten(-1, (4, 128))
    assert blocks.amax(dim=-1).eq(fp8_max).all()


def test_static_scale_and_amax(gen):
    norm = normc.Norm(SPEC.format(output="f8e4m3", scale="static"))
    x = torch.randn(3, 256, generator=gen).bfloat16()
    w = torch.ones(256).bfloat16()
    s = torch.tensor([1.0 / 32])
    y, amax = norm(x, gamma=w, scale=s)
    ref = reference(x, w)
    assert torch.allclose(amax.double(), ref.abs().amax(dim=-1), rtol=2.0 ** -16)
    want = (ref / s.double()).clamp(-448, 448).to(torch.float8_e4m3fn)
    assert (y.float() == want.float()).double().mean().item() > 0.999


def test_static_scale_is_checked(gen):
    norm = normc.Norm(SPEC.format(output="f8e5m2", scale="static"))
    x = torch.randn(2, 64, generator=gen).bfloat16()
    w = torch.ones(64).bfloat16()
    with pytest.raises(ValueError, match="scale is required"):
        norm(x, gamma=w)
    with pytest.raises(ValueError, match="scale must have shape"):
        norm(x, gamma=w, scale=torch.ones(2))
    with pytest.raises(ValueError, match="scale must be torch.float32"):
        norm(x, gamma=w, scale=torch.ones(1, dtype=torch.float64))
    row = normc.Norm(SPEC.format(output="f8e5m2", scale="row"))
    with pytest.raises(ValueError, match="scale is not an input"):
        row(x, gamma=w, scale=torch.ones(1))


def test_no_backward(gen):
    norm = normc.Norm(SPEC.format(output="f8e4m3", scale="row"))
    x = torch.randn(2, 64, generator=gen).bfloat16().requires_grad_()
    w = torch.ones(64).bfloat16()
    y, scale = norm(x, gamma=w)
    with pytest.raises(RuntimeError, match="no backward"):
        y.float().sum().backward()


def test_compiles_without_graph_breaks(gen):
    norm = normc.Norm(SPEC.format(output="f8e4m3", scale="row"))
    x = torch.randn(3, 128, generator=gen).bfloat16()
    w = torch.ones(128).bfloat16()
    compiled = torch.compile(lambda a, b: norm(a, gamma=b), fullgraph=True)
    y, scale = compiled(x, w)
    y0, scale0 = norm(x, gamma=w)
    assert torch.equal(y.float(), y0.float()) and torch.equal(scale, scale0)


def test_int8_row_scales(gen):
    # Per-token int8 (docs/fp8.md): s = amax / 127, q = round(y / s), ties to
    # even; torch.round rounds half to even too.
    norm = normc.Norm(SPEC.format(output="i8", scale="row"))
    x = torch.randn(3, 7, 384, generator=gen).bfloat16()
    w = (1 + 0.1 * torch.randn(384, generator=gen)).bfloat16()
    y, scale = norm(x, gamma=w)
    assert y.dtype == torch.int8 and y.shape == x.shape
    assert scale.dtype == torch.float32 and scale.shape == x.shape[:-1]
    ref = reference(x, w)
    assert torch.allclose(scale.double(), ref.abs().amax(dim=-1) / 127, rtol=2.0 ** -16, atol=0)
    want = torch.round(ref / scale.double().unsqueeze(-1)).clamp(-128, 127)
    share = (y.double() == want).double().mean().item()
    report("python int8 row: share of values equal to the float64 rounding", share)
    assert share > 0.999
    assert (y.double() - want).abs().max().item() <= 1
    assert y.abs().amax(dim=-1).eq(127).all()
