"""Bit parity with Hugging Face's norm modules: the shipped specs and
normc.nn.Normalization.from_module reproduce each module's rounding order,
so all but the rare element (where the two f32 reductions differ in the
last bit and that flips a rounding) are identical."""
import pytest
import torch
from transformers.models.gemma.modeling_gemma import GemmaRMSNorm
from transformers.models.llama.modeling_llama import LlamaRMSNorm
from transformers.models.t5.modeling_t5 import T5LayerNorm

import normc
from helpers import report

MODULES = {"llama_rmsnorm": LlamaRMSNorm, "gemma_rmsnorm": GemmaRMSNorm,
           "t5_layernorm": T5LayerNorm}


def hf_module(cls, d, dtype, gen):
    m = cls(d, eps=1e-6)
    with torch.no_grad():
        m.weight.copy_(0.2 * torch.randn(d, generator=gen) + (0.0 if cls is GemmaRMSNorm else 1.0))
    return m.to(dtype)


def inputs(rows, d, dtype, gen):
    return (3 * torch.randn(rows, d, generator=gen)).to(dtype)


@pytest.mark.parametrize("spec", sorted(MODULES))
@pytest.mark.parametrize("d", [1024, 4096])
def test_shipped_spec_is_bit_identical_to_the_module(gen, spec, d):
    m = hf_module(MODULES[spec], d, torch.bfloat16, gen)
    x = inputs(64, d, torch.bfloat16, gen)
    want = m(x)
    got = normc.Norm(spec)(x, gamma=m.weight.detach())
    assert got.dtype == want.dtype
    rate = (got == want).float().mean().item()
    report(f"parity {spec} vs {MODULES[spec].__name__} (bf16, d={d})", rate)
    assert rate >= 0.99


@pytest.mark.parametrize("cls", [LlamaRMSNorm, GemmaRMSNorm, T5LayerNorm])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_from_module_is_bit_identical(gen, cls, dtype):
    d = 768
    m = hf_module(cls, d, dtype, gen)
    x = inputs(32, d, dtype, gen)
    ours = normc.nn.Normalization.from_module(m)
    want, got = m(x), ours(x)
    assert got.dtype == want.dtype
    rate = (got == want).float().mean().item()
    report(f"parity from_module({cls.__name__}) ({dtype}, d={d})", rate)
    # f32 outputs differ where the f32 arithmetic of the two orders does.
    if dtype == torch.float32:
        torch.testing.assert_close(got, want, rtol=2e-6, atol=2e-6)
    else:
        assert rate >= 0.99


def test_llama_with_f32_activations_and_bf16_weights(gen):
    # LlamaRMSNorm rounds n to the input type (f32 here) and the product
    # takes the wider type: an f32 output.
    d = 512
    m = hf_module(LlamaRMSNorm, d, torch.bfloat16, gen)
    x = inputs(16, d, torch.float32, gen)
    ours = normc.nn.Normalization.from_module(m, dtype=torch.float32)
    want, got = m(x), ours(x)
    assert got.dtype == want.dtype == torch.float32
    torch.testing.assert_close(got, want, rtol=2e-6, atol=2e-6)


def test_rounding_once_is_not_parity(gen):
    # The same RMSNorm rounded once (as GemmaRMSNorm or F.rms_norm do)
    # differs from LlamaRMSNorm in about a quarter of the elements: the
    # spec's rounding order is what parity takes.
    d = 4096
    m = hf_module(LlamaRMSNorm, d, torch.bfloat16, gen)
    x = inputs(64, d, torch.bfloat16, gen)
    once = normc.Norm(open(normc.spec_path("llama_rmsnorm")).read()
                      .replace('normalized = "input"', 'normalized = "accumulate"'))
    rate = (once(x, gamma=m.weight.detach()) == m(x)).float().mean().item()
    report("parity of a once-rounded RMSNorm vs LlamaRMSNorm (bf16)", rate)
    assert rate < 0.9


def test_torch_modules(gen):
    d = 256
    ln = torch.nn.LayerNorm(d)
    rms = torch.nn.RMSNorm(d, eps=1e-6)
    with torch.no_grad():
        for m in (ln, rms):
            m.weight.copy_(torch.randn(d, generator=gen))
        ln.bias.copy_(torch.randn(d, generator=gen))
    x = inputs(20, d, torch.float32, gen)
    for m in (ln, rms):
        ours = normc.nn.Normalization.from_module(m)
        torch.testing.assert_close(ours(x), m(x), rtol=1e-5, atol=1e-5)
