"""CUDA tensors: the same op on the current stream (run where a GPU is;
skipped elsewhere). The kernels are graded against the CPU device's and
PyTorch's."""
import pytest
import torch
import torch.nn.functional as F

import normc
from helpers import TOL, within_bound

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")


@pytest.mark.parametrize("d", [64, 4096, 12288])
def test_forward_and_backward_on_cuda(d):
    gen = torch.Generator().manual_seed(d)
    norm = normc.Norm("layernorm")
    x = torch.randn(257, d, generator=gen)
    w = torch.randn(d, generator=gen)
    b = torch.randn(d, generator=gen)
    xc, wc, bc = (t.cuda().requires_grad_() for t in (x, w, b))
    y = norm(xc, gamma=wc, beta=bc)
    assert y.is_cuda
    ref = F.layer_norm(x.double(), (d,), w.double(), b.double(), 1e-5)
    assert within_bound(y.cpu(), ref, TOL[torch.float32]) <= 1.0
    dy = torch.randn(257, d, generator=gen)
    got = torch.autograd.grad(y, (xc, wc, bc), dy.cuda())
    xr, wr, br = (t.clone().requires_grad_() for t in (x, w, b))
    want = torch.autograd.grad(norm(xr, gamma=wr, beta=br), (xr, wr, br), dy)
    for g, r in zip(got, want):
        torch.testing.assert_close(g.cpu(), r, rtol=1e-4, atol=1e-4)


def test_runs_on_the_current_stream():
    norm = normc.Norm("llama_rmsnorm")
    x = torch.randn(4096, 4096, device="cuda").bfloat16()
    w = torch.ones(4096, device="cuda", dtype=torch.bfloat16)
    expected = norm(x, gamma=w)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        y = norm(x, gamma=w)
    stream.synchronize()
    assert torch.equal(y, expected)


def test_compile_on_cuda():
    norm = normc.Norm("llama_rmsnorm")
    w = torch.ones(1024, device="cuda", dtype=torch.bfloat16)
    f = torch.compile(lambda x: norm(x, gamma=w), fullgraph=True)
    x = torch.randn(64, 1024, device="cuda").bfloat16()
    assert torch.equal(f(x), norm(x, gamma=w))
