"""Dynamic Tanh and Derf (docs/spec.md, "Dynamic Tanh and Derf"): the
shipped specs and normc.nn.DyT / normc.nn.Derf against the same formula in
torch (as Liger's LigerDyT computes it: f32, y rounded once), gradients of
x, the weight, the bias and the scalars alpha and shift through autograd
against torch's float64 autograd, the direct backward, torch.compile
without graph breaks."""
import pytest
import torch

import normc
from helpers import report


def rows(n, d, dtype, gen, std=2.0):
    return (std * torch.randn(n, d, generator=gen)).to(dtype)


def formula(method, x, w, b, alpha, shift):
    """y = w * squash(alpha x (+ shift)) + b in the tensors' (wider) type."""
    u = alpha * x + (shift if method == "erf" else 0)
    n = torch.tanh(u) if method == "tanh" else torch.erf(u)
    return w * n + b


@pytest.mark.parametrize("method", ["tanh", "erf"])
@pytest.mark.parametrize("d", [256, 2048])
def test_module_matches_the_formula_in_bf16(gen, method, d):
    cls = normc.nn.DyT if method == "tanh" else normc.nn.Derf
    m = cls(d, 0.7, dtype=torch.bfloat16)
    assert m.alpha.dtype == torch.bfloat16 and m.alpha.item() == pytest.approx(0.7, rel=2 ** -8)
    with torch.no_grad():
        m.weight.copy_(1 + 0.2 * torch.randn(d, generator=gen))
        m.bias.copy_(0.1 * torch.randn(d, generator=gen))
        if m.shift is not None:
            m.shift.fill_(0.25)
    x = rows(64, d, torch.bfloat16, gen)
    got = m(x)
    f = lambda t: t.float() if t is not None else None  # noqa: E731
    want = formula(method, x.float(), f(m.weight), f(m.bias), f(m.alpha),
                   f(m.shift)).to(torch.bfloat16)
    assert got.dtype == torch.bfloat16
    rate = (got == want).float().mean().item()
    report(f"parity normc.nn.{cls.__name__} vs the f32 formula (bf16, d={d})", rate)
    # torch's tanh and erf (Sleef) and normc's (correctly rounded) may
    # differ in f32's last bit, which flips a bf16 rounding now and then.
    assert rate >= 0.99
    torch.testing.assert_close(got.float(), want.float(), rtol=2 ** -7, atol=2 ** -7)


def test_shipped_spec_takes_alpha(gen):
    d = 128
    norm = normc.Norm("dyt")
    x = rows(4, d, torch.bfloat16, gen)
    w, b = torch.ones(d, dtype=torch.bfloat16), torch.zeros(d, dtype=torch.bfloat16)
    a = torch.tensor([0.5], dtype=torch.bfloat16)
    assert torch.equal(norm(x, gamma=w, beta=b, alpha=a),
                       torch.tanh(0.5 * x.float()).to(torch.bfloat16))
    with pytest.raises(ValueError, match="alpha is required"):
        norm(x, gamma=w, beta=b)
    with pytest.raises(ValueError, match=r"alpha must have shape \[1\]"):
        norm(x, gamma=w, beta=b, alpha=torch.ones(2, dtype=torch.bfloat16))


@pytest.mark.parametrize("method", ["tanh", "erf"])
def test_autograd_against_torch(gen, method):
    # f32 throughout: the derived backward against torch's float64
    # autograd, dalpha and dshift being sums over every element.
    d = 96
    m = (normc.nn.DyT(d, 0.6) if method == "tanh" else normc.nn.Derf(d, 0.6, 0.1))
    x = rows(12, d, torch.float32, gen)
    w = 1 + 0.1 * torch.randn(d, generator=gen)
    b = 0.1 * torch.randn(d, generator=gen)
    with torch.no_grad():
        m.weight.copy_(w)
        m.bias.copy_(b)
    dy = torch.randn(12, d, generator=gen)
    xl = x.clone().requires_grad_()
    params = [m.weight, m.bias, m.alpha] + ([m.shift] if m.shift is not None else [])
    got = torch.autograd.grad(m(xl), [xl] + params, dy)
    ref = [t.detach().double().requires_grad_() for t in [x] + params]
    shift = ref[4] if method == "erf" else None
    y = formula(method, ref[0], ref[1], ref[2], ref[3], shift)
    want = torch.autograd.grad(y, ref, dy.double())
    names = ("dx", "dgamma", "dbeta", "dalpha", "dshift")
    for name, g, r in zip(names, got, want):
        torch.testing.assert_close(g.double(), r, rtol=1e-4, atol=1e-4, msg=name)


def test_direct_backward_returns_dalpha_and_dshift(gen):
    norm = normc.Norm("derf")
    d = 64
    x = rows(8, d, torch.bfloat16, gen)
    w = torch.ones(d, dtype=torch.bfloat16)
    b = torch.zeros(d, dtype=torch.bfloat16)
    a, s = (torch.tensor([v], dtype=torch.bfloat16) for v in (0.5, 0.1))
    dy = rows(8, d, torch.bfloat16, gen, 1.0)
    dx, dgamma, dbeta, dalpha, dshift = norm.backward(dy, x, gamma=w, alpha=a, shift=s)
    assert dalpha.shape == (1,) and dshift.shape == (1,)
    leaves = [t.clone().requires_grad_() for t in (x, w, b, a, s)]
    y = norm(leaves[0], gamma=leaves[1], beta=leaves[2], alpha=leaves[3], shift=leaves[4])
    for direct, auto in zip((dx, dgamma, dbeta, dalpha, dshift),
                            torch.autograd.grad(y, leaves, dy)):
        assert torch.equal(direct, auto)


def test_compile_fullgraph(gen):
    torch._dynamo.reset()
    m = normc.nn.DyT(64, dtype=torch.bfloat16)
    x = rows(4, 64, torch.bfloat16, gen)

    def f(x):
        return m(x).float().sum()

    assert torch._dynamo.explain(f)(x).graph_break_count == 0
    assert torch.equal(torch.compile(f, fullgraph=True)(x), f(x))
