"""torch.compile(fullgraph=True) traces normc's op, forward and backward,
with the same results as eager mode."""
import torch

import normc


def test_fullgraph_forward_and_backward_on_cpu(gen):
    torch._dynamo.reset()
    norm = normc.Norm("layernorm")
    x = torch.randn(6, 4, 64, generator=gen, requires_grad=True)
    w = torch.randn(64, generator=gen, requires_grad=True)
    b = torch.randn(64, generator=gen, requires_grad=True)

    def block(x, w, b):
        return (norm(x, gamma=w, beta=b) * 2).sum()

    compiled = torch.compile(block, fullgraph=True)
    got = torch.autograd.grad(compiled(x, w, b), (x, w, b))
    want = torch.autograd.grad(block(x, w, b), (x, w, b))
    for g, r in zip(got, want):
        assert torch.equal(g, r)
    # The op's output itself is the same bits (the sum above is fused by
    # inductor, in another order).
    plain = torch.compile(lambda x, w, b: norm(x, gamma=w, beta=b) * 2, fullgraph=True)
    assert torch.equal(plain(x, w, b), norm(x, gamma=w, beta=b) * 2)


def test_no_graph_break_and_the_op_is_in_the_graph(gen):
    torch._dynamo.reset()
    norm = normc.Norm("fused_add_rmsnorm")
    x = torch.randn(8, 128, generator=gen).bfloat16()
    r = torch.randn(8, 128, generator=gen).bfloat16()
    w = torch.ones(128, dtype=torch.bfloat16)

    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    def f(x, r, w):
        y, h, rstd = norm(x, residual=r, gamma=w)
        return y.float().sum() + h.float().sum() + rstd.sum()

    explained = torch._dynamo.explain(f)(x, r, w)
    assert explained.graph_break_count == 0
    torch.compile(f, backend=backend, fullgraph=True)(x, r, w)
    assert len(graphs) == 1
    assert "normc.forward" in str(graphs[0].code)


def test_dynamic_leading_shapes_reuse_the_graph(gen):
    torch._dynamo.reset()
    norm = normc.Norm("llama_rmsnorm")
    w = torch.ones(64, dtype=torch.bfloat16)
    f = torch.compile(lambda x: norm(x, gamma=w), fullgraph=True, dynamic=True)
    for rows in (3, 5, 17):
        x = torch.randn(rows, 64, generator=gen).bfloat16()
        assert torch.equal(f(x), norm(x, gamma=w))
