"""Gradients through normc's backward kernels against torch autograd of a
float64 evaluation of the same spec (docs/backward.md)."""
import pytest
import torch

import normc
from helpers import LAYERNORM_SAVING, TOL


def reference(name, x, residual, w, b):
    """The shipped spec `name` in float64 torch ops (rounding of
    affine.normalized taken as the identity, as the backward does)."""
    x = x.double()
    if residual is not None:
        # residual_out is rounded to the input type, and everything reads it.
        h = (x + residual.double()).to(residual.dtype).double()
        h = x + residual.double() + (h - (x + residual.double())).detach()
    else:
        h = x
    d = h.shape[-1]
    fraction = {"prmsnorm": 0.0625, "partial_layernorm": 0.5}.get(name, 1.0)
    k = max(1, int(fraction * d))
    head = h[..., :k]
    centered = name in ("layernorm", "partial_layernorm")
    mu = head.mean(-1, keepdim=True) if centered else 0.0
    s = ((head - mu) ** 2).mean(-1, keepdim=True)
    eps = {"layernorm": 1e-5, "partial_layernorm": 1e-5, "prmsnorm": 1e-8}.get(name, 1e-6)
    r = 1 / (s.sqrt() + eps) if name == "prmsnorm" else torch.rsqrt(s + eps)
    g = w.double() + (1.0 if name == "gemma_rmsnorm" else 0.0)
    y = (h - mu) * r * g
    if b is not None:
        y = y + b.double()
    return y, (h if residual is not None else None)


def close(got, ref, dtype):
    """|got - ref| <= 2 tol (|ref| + mean |ref|) elementwise, as a fraction."""
    got, ref = got.double(), ref.double()
    scale = ref.abs().mean()
    return ((got - ref).abs() / (2 * TOL[dtype] * (ref.abs() + scale))).max().item()


SHIPPED = ["layernorm", "llama_rmsnorm", "gemma_rmsnorm", "prmsnorm",
           "t5_layernorm", "fused_add_rmsnorm", "partial_layernorm"]


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("d", [7, 256])
def test_gradients_match_autograd_of_float64(gen, name, d):
    norm = normc.Norm(name)
    sig = norm.signature
    x = torch.randn(5, 3, d, generator=gen).to(sig.get("x").dtype).requires_grad_()
    residual = torch.randn(5, 3, d, generator=gen).to(sig.get("x").dtype) \
        .requires_grad_() if sig.get("residual") else None
    w = (0.1 * torch.randn(d, generator=gen) + (0 if norm.gain_offset else 1)) \
        .to(sig.get("gamma").dtype).requires_grad_()
    b = torch.randn(d, generator=gen).to(sig.get("beta").dtype).requires_grad_() \
        if sig.get("beta") else None
    kwargs = dict(gamma=w)
    if b is not None:
        kwargs["beta"] = b
    if residual is not None:
        kwargs["residual"] = residual
    out = norm(x, **kwargs)
    y = out[0] if isinstance(out, tuple) else out
    h = out[1] if sig.get("residual_out") else None
    dy = torch.randn(y.shape, generator=gen).to(y.dtype)
    dh = torch.randn(y.shape, generator=gen).to(y.dtype) if h is not None else None

    leaves = [t for t in (x, residual, w, b) if t is not None]
    loss = (y.double() * dy.double()).sum()
    if h is not None:
        loss = loss + (h.double() * dh.double()).sum()
    got = torch.autograd.grad(loss, leaves)

    ry, rh = reference(name, x, residual, w, b)
    rloss = (ry * dy.double()).sum()
    if rh is not None:
        rloss = rloss + (rh * dh.double()).sum()
    want = torch.autograd.grad(rloss, leaves)
    for leaf, g, r in zip(leaves, got, want):
        assert g.dtype == leaf.dtype and g.shape == leaf.shape
        assert close(g, r, leaf.dtype) <= 1.0, (name, d, close(g, r, leaf.dtype))


def layernorm_case(gen, rows, d):
    """x, gamma, beta (leaves that want gradients) and dy for a LayerNorm."""
    x = torch.randn(rows, d, generator=gen, requires_grad=True)
    w = torch.randn(d, generator=gen, requires_grad=True)
    b = torch.randn(d, generator=gen, requires_grad=True)
    return x, w, b, torch.randn(rows, d, generator=gen)


def test_parameter_gradients_are_the_same_bits_every_run(gen):
    norm = normc.Norm("layernorm")
    x, w, b, dy = layernorm_case(gen, 300, 128)
    first = torch.autograd.grad(norm(x, gamma=w, beta=b), (x, w, b), dy)
    for _ in range(3):
        again = torch.autograd.grad(norm(x, gamma=w, beta=b), (x, w, b), dy)
        for a, g in zip(first, again):
            assert torch.equal(a, g)


def test_saved_statistics_feed_the_backward(gen):
    saving, plain = normc.Norm(LAYERNORM_SAVING), normc.Norm("layernorm")
    x = torch.randn(9, 100, generator=gen, requires_grad=True)
    w = torch.randn(100, generator=gen, requires_grad=True)
    b = torch.randn(100, generator=gen, requires_grad=True)
    dy = torch.randn(9, 100, generator=gen)
    y, mean, rstd = saving(x, gamma=w, beta=b)
    got = torch.autograd.grad(y, (x, w, b), dy)
    want = torch.autograd.grad(plain(x, gamma=w, beta=b), (x, w, b), dy)
    for g, r in zip(got, want):
        torch.testing.assert_close(g, r, rtol=1e-5, atol=1e-6)


def test_gradients_with_strided_rows(gen):
    # x, residual and dy as slices of wider tensors: their row strides go to
    # the kernels, and the gradients are those of packed copies.
    norm = normc.Norm("fused_add_rmsnorm")
    wide = torch.randn(6, 192, generator=gen).bfloat16().requires_grad_()
    w = torch.ones(64, dtype=torch.bfloat16, requires_grad=True)
    dys = torch.randn(6, 3, 64, generator=gen).bfloat16()

    def grads(x, r, dy, dh):
        y, h, _ = norm(x, residual=r, gamma=w)
        return torch.autograd.grad((y, h), (wide, w), (dy, dh))

    assert not dys[:, 0].is_contiguous()
    strided = grads(wide[:, :64], wide[:, 64:128], dys[:, 0], dys[:, 2])
    packed = grads(wide[:, :64].contiguous(), wide[:, 64:128].contiguous(),
                   dys[:, 0].contiguous(), dys[:, 2].contiguous())
    for a, b in zip(strided, packed):
        assert torch.equal(a, b)


def test_only_the_outputs_used_get_gradients(gen):
    norm = normc.Norm("fused_add_rmsnorm")
    x = torch.randn(4, 64, generator=gen).bfloat16().requires_grad_()
    r = torch.randn(4, 64, generator=gen).bfloat16().requires_grad_()
    w = torch.ones(64, dtype=torch.bfloat16, requires_grad=True)
    y, h, _ = norm(x, residual=r, gamma=w)
    y.float().sum().backward()
    # dx = dresidual = d loss / d h, through y only.
    assert torch.equal(x.grad, r.grad)
    assert torch.isfinite(x.grad.float()).all()


def test_direct_backward_gives_autograds_gradients(gen):
    norm = normc.Norm("layernorm")
    x, w, b, dy = layernorm_case(gen, 6, 96)
    norm(x, gamma=w, beta=b).backward(dy)
    dx, dgamma, dbeta = norm.backward(dy, x.detach(), gamma=w.detach(), beta=b.detach())
    assert torch.equal(dx, x.grad) and torch.equal(dgamma, w.grad) and torch.equal(dbeta, b.grad)


def test_direct_backward_reads_the_callers_statistics(gen):
    norm = normc.Norm(LAYERNORM_SAVING)
    x = torch.randn(5, 64, generator=gen)
    w = torch.randn(64, generator=gen)
    b = torch.randn(64, generator=gen)
    dy = torch.randn(5, 64, generator=gen)
    _, mean, rstd = norm(x, gamma=w, beta=b)
    saved = norm.backward(dy, x, gamma=w, beta=b, mean=mean, rstd=rstd)
    recomputed = norm.backward(dy, x, gamma=w, beta=b)
    for got, want in zip(saved, recomputed):
        assert (got - want).abs().max().item() <= 1e-5 * (want.abs().max().item() + 1)
    # The statistics are what it reads: other ones give other gradients.
    moved = norm.backward(dy, x, gamma=w, beta=b, mean=mean + 1, rstd=rstd)
    assert not torch.equal(moved[0], saved[0])
    with pytest.raises(ValueError, match="no backward of spec 'layernorm_saving' runs on"):
        norm.backward(dy, x, gamma=w, beta=b, rstd=rstd)  # mean missing
    with pytest.raises(ValueError, match="rstd must have shape"):
        norm.backward(dy, x, gamma=w, beta=b, mean=mean, rstd=rstd[:3])


def test_the_kernel_cache_is_shown_and_cleared(tmp_path, monkeypatch, gen):
    import os
    import shutil
    assert normc.cache_dir() == os.environ["NORMC_CACHE_DIR"]
    normc.Norm("layernorm")(torch.randn(2, 8, generator=gen), gamma=torch.ones(8),
                            beta=torch.zeros(8))
    # A copy of the run's cache, with a file of the user's in it.
    copy = tmp_path / "cache"
    shutil.copytree(normc.cache_dir(), copy, symlinks=True)
    (copy / "notes.txt").write_text("kept")
    monkeypatch.setenv("NORMC_CACHE_DIR", str(copy))
    assert normc.cache_dir() == str(copy)
    assert normc.clear_cache() > 0
    assert not list(copy.rglob("*.bin"))
    assert normc.clear_cache() == 0
    assert (copy / "notes.txt").read_text() == "kept"


# Liger's RMSNorm in casting mode "none" (its test_rms_norm.py): every step
# in bf16, the weight gradient's sum over rows in f32.
BF16_ROWS_F32_SUMS = """name = "rmsnorm_bf16_rows"
[statistics]
center = false
[epsilon]
value = 1e-6
[dtypes]
input = "bf16"
output = "bf16"
params = "bf16"
accumulate = "bf16"
accumulate_rows = "f32"
"""


def base_rmsnorm(x, w, eps=1e-6):
    """Liger's BaseRMSNorm: the formula in x's own type."""
    return w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


@pytest.mark.parametrize("bs, sl, hd", [(2, 128, 512), (5, 123, 123)])
def test_bf16_rows_with_f32_weight_gradient_sums(gen, bs, sl, hd):
    norm = normc.Norm(BF16_ROWS_F32_SUMS)
    x = torch.randn(bs, sl, hd, generator=gen).bfloat16()
    dy = torch.randn(bs, sl, hd, generator=gen).bfloat16()
    h1, h2 = x.clone().requires_grad_(), x.clone().requires_grad_()
    w1 = torch.ones(hd, dtype=torch.bfloat16, requires_grad=True)
    w2 = torch.ones(hd, dtype=torch.bfloat16, requires_grad=True)
    ref = base_rmsnorm(h1, w1)
    ref.backward(dy)
    out = norm(h2, gamma=w2)
    out.backward(dy)
    # Liger's tolerances for bf16.
    torch.testing.assert_close(out, ref, atol=2e-1, rtol=2e-2)
    torch.testing.assert_close(w2.grad, w1.grad, atol=2e-1, rtol=2e-2)
    torch.testing.assert_close(h2.grad, h1.grad, atol=2e-1, rtol=2e-2)
    # And as close to float64 as PyTorch's own bf16 autograd, where the sums
    # over rows in bf16 are several times further.
    w64 = w1.detach().double().requires_grad_()
    base_rmsnorm(x.double(), w64).backward(dy.double())

    def error(g):
        return ((g.double() - w64.grad).abs().max() / w64.grad.abs().max()).item()

    bf16_sums = normc.Norm(BF16_ROWS_F32_SUMS.replace('accumulate_rows = "f32"', ""))
    _, dgamma_bf16_sums = bf16_sums.backward(dy, x, gamma=w1.detach())
    assert error(w2.grad) <= 2 * error(w1.grad)
    assert error(dgamma_bf16_sums) > 2 * error(w2.grad)


# QuACK's rmsnorm with residual_dtype=torch.float32 (its test_rmsnorm.py):
# bf16 x and weight, an f32 residual stream, the statistics on the f32 sum.
def f32_residual_norm():
    with open(normc.spec_path("fused_add_rmsnorm")) as f:
        text = f.read()
    return normc.Norm(text.replace('input = "bf16"', 'input = "bf16"\nresidual = "f32"'))


def rmsnorm_ref(x, w, residual, eps=1e-6):
    """QuACK's reference: the sum in f32, the norm of it, y in x's type."""
    h = x.float() + residual
    y = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps) * w.float()
    return y.to(x.dtype), h


@pytest.mark.parametrize("M, N", [(1, 256), (37, 1024), (65, 3000)])
def test_f32_residual_stream_under_bf16_activations(gen, M, N):
    norm = f32_residual_norm()
    x = torch.randn(M, N, generator=gen).bfloat16()
    residual = torch.randn(M, N, generator=gen)
    w = (1 + 0.1 * torch.randn(N, generator=gen)).bfloat16()
    xs = [x.clone().requires_grad_() for _ in range(2)]
    rs = [residual.clone().requires_grad_() for _ in range(2)]
    ws = [w.clone().requires_grad_() for _ in range(2)]
    y, residual_out, _ = norm(xs[0], residual=rs[0], gamma=ws[0])
    y_ref, h_ref = rmsnorm_ref(xs[1], ws[1], rs[1])
    assert residual_out.dtype == torch.float32
    assert torch.equal(residual_out, h_ref)  # the f32 sum, correctly rounded
    torch.testing.assert_close(y, y_ref, atol=1e-2, rtol=1e-2)  # QuACK's bf16
    dy = torch.randn(M, N, generator=gen).bfloat16()
    dh = torch.randn(M, N, generator=gen)
    torch.autograd.backward([y, residual_out], [dy, dh])
    torch.autograd.backward([y_ref, h_ref], [dy, dh])
    assert xs[0].grad.dtype == torch.bfloat16 and rs[0].grad.dtype == torch.float32
    torch.testing.assert_close(xs[0].grad, xs[1].grad, atol=1e-2, rtol=1e-2)
    torch.testing.assert_close(rs[0].grad, rs[1].grad, atol=1e-2, rtol=1e-2)
    torch.testing.assert_close(ws[0].grad, ws[1].grad, atol=1e-1, rtol=1e-2)
    # dresidual keeps what dx's rounding to bf16 drops.
    assert not torch.equal(rs[0].grad, xs[0].grad.float())
