"""normc.nn.Normalization: parameters, from_module, and the example that
swaps the norms of a Hugging Face Llama."""
import os
import subprocess
import sys

import pytest
import torch

import normc

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "hf_llama_normc.py")


def test_parameters_follow_the_spec():
    ln = normc.nn.Normalization("layernorm", 32)
    assert ln.weight.dtype == torch.float32 and torch.equal(ln.weight, torch.ones(32))
    assert torch.equal(ln.bias, torch.zeros(32))
    gemma = normc.nn.Normalization("gemma_rmsnorm", 16)
    # Gemma stores the gain as an offset from 1: zero weights are the identity gain.
    assert gemma.weight.dtype == torch.bfloat16 and torch.equal(gemma.weight.float(), torch.zeros(16))
    assert gemma.bias is None
    assert sorted(n for n, _ in ln.named_parameters()) == ["bias", "weight"]
    x = torch.randn(3, 32)
    torch.testing.assert_close(ln(x), torch.nn.functional.layer_norm(x, (32,)), rtol=1e-5, atol=1e-5)


def test_parameters_train():
    m = normc.nn.Normalization("layernorm", 8)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    x = torch.randn(4, 8)
    before = m.weight.detach().clone()
    m(x).pow(2).sum().backward()
    opt.step()
    assert not torch.equal(before, m.weight.detach())
    assert m.bias.grad is not None


def test_residual_through_the_module():
    m = normc.nn.Normalization("fused_add_rmsnorm", 64)
    x = torch.randn(2, 64).bfloat16()
    r = torch.randn(2, 64).bfloat16()
    y, h, rstd = m(x, r)
    assert torch.equal(h, (x.float() + r.float()).bfloat16())


def test_from_module_refuses_what_it_does_not_know():
    class Odd(torch.nn.Module):
        weight = torch.nn.Parameter(torch.ones(4))
    with pytest.raises(ValueError, match="does not know how Odd normalizes"):
        normc.nn.Normalization.from_module(Odd())
    with pytest.raises(ValueError, match="last dimension only"):
        normc.nn.Normalization.from_module(torch.nn.LayerNorm((4, 4)))
    with pytest.raises(ValueError, match="activations' dtype must be"):
        normc.nn.Normalization.from_module(torch.nn.LayerNorm(4), dtype=torch.float64)


def test_the_hugging_face_llama_example():
    out = subprocess.run([sys.executable, EXAMPLE, "--dtype", "bf16"], check=True,
                         capture_output=True, text=True).stdout
    assert "replaced 5 LlamaRMSNorm modules" in out
    rate = float(out.split("logits: ")[1].split("%")[0])
    assert rate >= 99.0, out
