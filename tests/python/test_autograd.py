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
