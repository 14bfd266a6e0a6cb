"""Gated norms (docs/spec.md, "Gates"): the shipped Mamba2 and Qwen3-Next
specs and from_module of transformers' Mamba2RMSNormGated (the
MambaRMSNormGated of earlier releases), Qwen3NextRMSNormGated and
KimiLinearRMSNormGated against the modules themselves, built from small
random configurations (no downloads): bf16 outputs bit for bit where the
two f32 computations agree, gradients of x, z and the weight through
autograd, torch.compile without graph breaks."""
import pytest
import torch
from transformers.models.kimi_linear.modeling_kimi_linear import KimiLinearRMSNormGated
from transformers.models.mamba2.modeling_mamba2 import Mamba2RMSNormGated
from transformers.models.qwen3_next.modeling_qwen3_next import Qwen3NextRMSNormGated

import normc
from helpers import report

SHIPPED = {"mamba2_gated_rmsnorm": Mamba2RMSNormGated,
           "qwen3_next_gated_rmsnorm": Qwen3NextRMSNormGated}


def module(cls, d, dtype, gen):
    m = cls(d, group_size=d, eps=1e-6) if cls is Mamba2RMSNormGated else cls(d, eps=1e-6)
    with torch.no_grad():
        m.weight.copy_(1 + 0.2 * torch.randn(d, generator=gen))
    return m.to(dtype)


def rows(n, d, dtype, gen, std=3.0):
    return (std * torch.randn(n, d, generator=gen)).to(dtype)


@pytest.mark.parametrize("spec", sorted(SHIPPED))
@pytest.mark.parametrize("d", [256, 2048])
def test_shipped_gated_spec_matches_the_module(gen, spec, d):
    m = module(SHIPPED[spec], d, torch.bfloat16, gen)
    x, z = rows(64, d, torch.bfloat16, gen), rows(64, d, torch.bfloat16, gen)
    want = m(x, gate=z)
    got = normc.Norm(spec)(x, z=z, gamma=m.weight.detach())
    assert got.dtype == want.dtype
    rate = (got == want).float().mean().item()
    report(f"parity {spec} vs {SHIPPED[spec].__name__} (bf16, d={d})", rate)
    # silu's exp in torch (Sleef) and in normc (correctly rounded) may
    # differ in f32's last bit, which flips a bf16 rounding now and then.
    assert rate >= 0.99
    torch.testing.assert_close(got.float(), want.float(), rtol=2 ** -7, atol=2 ** -7)


@pytest.mark.parametrize("cls", [Mamba2RMSNormGated, Qwen3NextRMSNormGated,
                                 KimiLinearRMSNormGated])
@pytest.mark.parametrize("dtype,weight", [(torch.bfloat16, torch.bfloat16),
                                          (torch.bfloat16, torch.float32),
                                          (torch.float32, torch.float32)])
def test_from_module(gen, cls, dtype, weight):
    d = 384
    m = module(cls, d, weight, gen)
    x, z = rows(16, d, dtype, gen), rows(16, d, dtype, gen)
    ours = normc.nn.Normalization.from_module(m, dtype=dtype)
    assert ours.weight is not m.weight and torch.equal(ours.weight, m.weight)
    want, got = m(x, gate=z), ours(x, z=z)
    assert got.dtype == want.dtype
    rate = (got == want).float().mean().item()
    report(f"parity from_module({cls.__name__}) (x {dtype}, weight {weight}, d={d})", rate)
    if got.dtype == torch.float32:
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    else:
        assert rate >= 0.98


def test_grouped_mamba_norm_is_refused(gen):
    m = Mamba2RMSNormGated(256, group_size=64)
    with pytest.raises(ValueError, match="4 groups takes a slice of the weight"):
        normc.nn.Normalization.from_module(m)


@pytest.mark.parametrize("gate", ["before", "after", "after_rounded"])
@pytest.mark.parametrize("activation", ["silu", "sigmoid"])
def test_autograd_against_torch(gen, gate, activation):
    # f32 throughout: normc's derived backward against torch's autograd of
    # the same formula, for x, z, gamma and beta.
    spec = f"""
name = "gated_{gate}_{activation}"
[statistics]
center = true
[affine]
bias = true
[fusion]
gate = "{gate}"
gate_activation = "{activation}"
"""
    d = 96
    x, z = rows(12, d, torch.float32, gen, 1.0), rows(12, d, torch.float32, gen, 2.0)
    w = 1 + 0.1 * torch.randn(d, generator=gen)
    b = 0.1 * torch.randn(d, generator=gen)
    act = torch.nn.functional.silu if activation == "silu" else torch.sigmoid
    dy = torch.randn(12, d, generator=gen)

    def torch_norm(x, z, w, b):
        h = x * act(z) if gate == "before" else x
        y = torch.nn.functional.layer_norm(h, (d,), w, b, eps=1e-5)
        return y if gate == "before" else y * act(z)

    leaves = [t.clone().requires_grad_() for t in (x, z, w, b)]
    ours = normc.Norm(spec)(leaves[0], z=leaves[1], gamma=leaves[2], beta=leaves[3])
    got = torch.autograd.grad(ours, leaves, dy)
    ref = [t.double().requires_grad_() for t in (x, z, w, b)]
    want = torch.autograd.grad(torch_norm(*ref), ref, dy.double())
    torch.testing.assert_close(ours.double(), torch_norm(*ref).detach(), rtol=1e-5, atol=1e-5)
    for name, g, r in zip(("dx", "dz", "dgamma", "dbeta"), got, want):
        torch.testing.assert_close(g.double(), r, rtol=1e-4, atol=1e-4, msg=name)


def test_direct_backward_returns_dz(gen):
    norm = normc.Norm("mamba2_gated_rmsnorm")
    d = 128
    x, z = rows(8, d, torch.bfloat16, gen), rows(8, d, torch.bfloat16, gen)
    w = torch.ones(d, dtype=torch.bfloat16)
    dy = rows(8, d, torch.bfloat16, gen, 1.0)
    dx, dgamma, dz = norm.backward(dy, x, z=z, gamma=w)
    leaves = [t.clone().requires_grad_() for t in (x, z, w)]
    y = norm(leaves[0], z=leaves[1], gamma=leaves[2])
    ax, az, aw = torch.autograd.grad(y, leaves, dy)
    assert torch.equal(dx, ax) and torch.equal(dz, az) and torch.equal(dgamma, aw)
    with pytest.raises(ValueError, match="z"):
        norm.backward(dy, x, gamma=w)


def test_compile_fullgraph(gen):
    torch._dynamo.reset()
    norm = normc.nn.Normalization.from_module(
        module(Qwen3NextRMSNormGated, 64, torch.bfloat16, gen))
    x, z = rows(4, 64, torch.bfloat16, gen), rows(4, 64, torch.bfloat16, gen)

    def f(x, z):
        return norm(x, z=z).float().sum()

    assert torch._dynamo.explain(f)(x, z).graph_break_count == 0
    assert torch.equal(torch.compile(f, fullgraph=True)(x, z), f(x, z))
