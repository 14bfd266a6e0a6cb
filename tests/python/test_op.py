"""normc.Norm on CPU tensors: outputs against PyTorch, shapes, strides and
every argument error of docs/python.md."""
import pathlib

import pytest
import torch
import torch.nn.functional as F

import normc
from helpers import LAYERNORM_SAVING, TOL, within_bound


def rms_norm_ref(x, w, eps):
    return F.rms_norm(x.double(), (x.shape[-1],), w.double() if w is not None else None, eps)


@pytest.mark.parametrize("d", [1, 7, 64, 1000, 4096])
def test_layernorm_matches_f_layer_norm(gen, d):
    norm = normc.Norm("layernorm")
    x = torch.randn(3, 5, d, generator=gen)
    w = torch.randn(d, generator=gen)
    b = torch.randn(d, generator=gen)
    y = norm(x, gamma=w, beta=b)
    ref = F.layer_norm(x.double(), (d,), w.double(), b.double(), 1e-5)
    assert y.shape == x.shape and y.dtype == torch.float32
    assert within_bound(y, ref, TOL[torch.float32]) <= 1.0
    # And as close to PyTorch's own f32 kernel as that is to float64.
    ours = (y.double() - ref).abs().max().item()
    theirs = (F.layer_norm(x, (d,), w, b, 1e-5).double() - ref).abs().max().item()
    assert ours <= 4 * theirs + 1e-6


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_rmsnorm_matches_f_rms_norm_in_every_dtype(gen, dtype):
    spec = f"""
name = "rms"
[statistics]
center = false
[epsilon]
value = 1e-6
[dtypes]
input = "{normc.nn._SPELLING[dtype]}"
output = "{normc.nn._SPELLING[dtype]}"
params = "{normc.nn._SPELLING[dtype]}"
"""
    norm = normc.Norm(spec)
    x = torch.randn(17, 256, generator=gen).to(dtype)
    w = (1 + 0.1 * torch.randn(256, generator=gen)).to(dtype)
    y = norm(x, gamma=w)
    assert y.dtype == dtype
    assert within_bound(y, rms_norm_ref(x, w, 1e-6), TOL[dtype]) <= 1.0
    if dtype != torch.float32:
        # F.rms_norm rounds once, at the end, as this spec does: only the
        # rare element where the f32 sums differ in the last bit and that
        # flips a rounding may differ.
        once = F.rms_norm(x.float(), (256,), w.float(), 1e-6).to(dtype)
        assert (y == once).float().mean() >= 0.99


def test_any_leading_shape(gen):
    norm = normc.Norm("llama_rmsnorm")
    w = torch.ones(64, dtype=torch.bfloat16)
    for shape in [(64,), (2, 64), (2, 3, 4, 64), (0, 64), (3, 0, 64)]:
        x = torch.randn(shape, generator=gen).to(torch.bfloat16)
        y = norm(x, gamma=w)
        assert y.shape == x.shape
        flat = norm(x.reshape(-1, 64), gamma=w).reshape(shape)
        assert torch.equal(y, flat)


def test_rows_with_a_stride_run_in_place_and_others_are_copied(gen):
    norm = normc.Norm("layernorm")
    d = 64
    w = torch.randn(d, generator=gen)
    b = torch.randn(d, generator=gen)
    wide = torch.randn(6, 3 * d, generator=gen)
    sliced = wide[:, d:2 * d]           # row stride 3d: passed to the kernel
    transposed = torch.randn(d, 6, generator=gen).t()  # feature stride 6: copied
    for x in (sliced, transposed, wide[::2, :d]):
        assert not x.is_contiguous()
        y = norm(x, gamma=w, beta=b)
        assert torch.equal(y, norm(x.contiguous(), gamma=w, beta=b))


def test_outputs_of_a_fused_spec(gen):
    norm = normc.Norm("fused_add_rmsnorm")
    x = torch.randn(4, 128, generator=gen).to(torch.bfloat16)
    r = torch.randn(4, 128, generator=gen).to(torch.bfloat16)
    w = torch.ones(128, dtype=torch.bfloat16)
    y, residual_out, rstd = norm(x, residual=r, gamma=w)
    h = (x.float() + r.float()).to(torch.bfloat16)
    assert torch.equal(residual_out, h)
    assert y.shape == x.shape and rstd.shape == (4,)
    torch.testing.assert_close(rstd, torch.rsqrt(h.float().pow(2).mean(-1) + 1e-6))


def test_saved_statistics_are_returned_as_f32(gen):
    norm = normc.Norm(LAYERNORM_SAVING)
    x = torch.randn(2, 3, 100, generator=gen)
    y, mean, rstd = norm(x, gamma=torch.ones(100), beta=torch.zeros(100))
    assert mean.shape == (2, 3) and rstd.shape == (2, 3)
    assert mean.dtype == rstd.dtype == torch.float32
    torch.testing.assert_close(mean, x.mean(-1), rtol=1e-6, atol=1e-6)
    torch.testing.assert_close(rstd, torch.rsqrt(x.var(-1, unbiased=False) + 1e-5),
                               rtol=1e-5, atol=1e-6)


def test_spec_from_path_text_or_shipped_name(tmp_path):
    text = open(normc.spec_path("gemma_rmsnorm")).read()
    path = tmp_path / "g.toml"
    path.write_text(text)
    for spec in (str(path), path, text, "gemma_rmsnorm"):
        norm = normc.Norm(spec)
        assert norm.name == "gemma_rmsnorm"
    assert "llama_rmsnorm" in normc.shipped_specs()


def test_spec_errors_echo_what_the_spec_wrote_escaped():
    # A table name with a newline and an escape sequence cannot forge a
    # diagnostic line or reach the terminal raw (docs/hostile-input.md).
    forged = ('name = "k"\n["evil\\nfake.toml:1:1: error: forged\\u001b[2J"]\n'
              '[statistics]\ncenter = false\n')
    with pytest.raises(ValueError) as error:
        normc.Norm(forged)
    message = str(error.value)
    assert "evil\\nfake.toml:1:1" in message and "\\x1b[2J" in message
    assert "\x1b" not in message
    assert all(line.startswith("<string>:") for line in message.splitlines())


def test_invalid_specs_are_value_errors_with_positions(tmp_path):
    with pytest.raises(ValueError, match=r"<string>:3:10: error: 'center' must be a boolean"):
        normc.Norm('name = "n"\n[statistics]\ncenter = 1\n')
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "n"\n[statistics]\ncenter = false\nscale = false\n')
    with pytest.raises(ValueError, match=r"bad.toml:4:9: error: 'center' and 'scale'"):
        normc.Norm(str(bad))
    with pytest.raises(ValueError, match="no such file"):
        normc.Norm("does/not/exist.toml")
    with pytest.raises(TypeError, match="spec must be"):
        normc.Norm(42)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"name = \"\xff\"\n")
    with pytest.raises(ValueError, match="is not UTF-8 text"):
        normc.Norm(binary)
    with pytest.raises(ValueError, match="cannot read"):
        normc.Norm(tmp_path)  # a folder
    with pytest.raises(ValueError, match="larger than 1048576 bytes"):
        normc.Norm(pathlib.Path("/dev/zero"))  # endless
    deep = tmp_path / "deep.toml"
    deep.write_text('name = "n"\n' + ".".join(["a"] * 100000) + " = 1\n")
    with pytest.raises(ValueError, match="nest more than 32 levels deep"):
        normc.Norm(deep)


def test_argument_errors_name_the_argument(gen):
    norm = normc.Norm("layernorm")
    x = torch.randn(2, 8, generator=gen)
    w, b = torch.ones(8), torch.zeros(8)
    cases = [
        (dict(x=x.double(), gamma=w, beta=b), ValueError, r"^x must be torch.float32"),
        (dict(x=x, gamma=w.half(), beta=b), ValueError, r"^gamma must be torch.float32"),
        (dict(x=x, gamma=w, beta=b.bfloat16()), ValueError, r"^beta must be torch.float32"),
        (dict(x=x, gamma=torch.ones(9), beta=b), ValueError, r"^gamma must have shape \[8\]"),
        (dict(x=x, gamma=w), ValueError, r"^beta is required"),
        (dict(x=x, gamma=w, beta=b, residual=x), ValueError, r"^residual is not an input"),
        (dict(x=x.to("meta"), gamma=w.to("meta"), beta=b.to("meta")), ValueError, r"^x is on meta"),
        (dict(x=x, gamma=w.to("meta"), beta=b), ValueError, r"^gamma is on meta, x on cpu"),
        (dict(x=[1.0], gamma=w, beta=b), TypeError, r"^x must be a torch.Tensor"),
        (dict(x=x, gamma=1.0, beta=b), TypeError, r"^gamma must be a torch.Tensor"),
        (dict(x=torch.tensor(1.0), gamma=w, beta=b), ValueError, r"^x must have shape \[..., d\]"),
    ]
    for kwargs, error, message in cases:
        x_arg = kwargs.pop("x")
        with pytest.raises(error, match=message):
            norm(x_arg, **kwargs)
    fused = normc.Norm("fused_add_rmsnorm")
    xb = x.bfloat16()
    with pytest.raises(ValueError, match=r"^residual must have shape \[2, 8\]"):
        fused(xb, residual=xb[:1], gamma=w.bfloat16())
    with pytest.raises(ValueError, match=r"^residual must be torch.bfloat16"):
        fused(xb, residual=x, gamma=w.bfloat16())


def test_dtypes_come_from_the_element_type_table():
    # Python spells no element type of its own: each name of the extension's
    # table maps to the torch dtype it names, of the table's width.
    table = normc._normc.element_types()
    assert {"f32", "bf16", "f8e4m3", "i8"} <= {name for name, _, _ in table}
    for name, torch_name, bits in table:
        if not torch_name or not hasattr(torch, torch_name):
            assert name not in normc._op.DTYPES
            continue
        dtype = normc._op.DTYPES[name]
        assert dtype is getattr(torch, torch_name)
        # A packed dtype holds 8 / bits elements a byte.
        assert dtype.itemsize * 8 == max(bits, 8), name
    assert normc._op.DTYPES["bf16"] is torch.bfloat16


def test_reproducible_norms_give_a_row_the_same_bits_in_every_batch(gen):
    norm = normc.Norm("llama_rmsnorm", reproducible=True)
    assert "\n[numerics]\nreproducible = true\n" in norm.canonical
    assert "[numerics]" not in normc.Norm("llama_rmsnorm").canonical
    d = 512
    row = torch.randn(1, d, generator=gen).bfloat16()
    w = torch.randn(d, generator=gen).bfloat16()
    alone = norm(row, gamma=w)
    for rows in (2, 37, 300):
        batch = torch.randn(rows, d, generator=gen).bfloat16()
        for at in (0, rows // 2, rows - 1):
            batch[at] = row[0]
            y = norm(batch, gamma=w)
            assert torch.equal(y[at].view(torch.int16), alone[0].view(torch.int16)), (rows, at)
