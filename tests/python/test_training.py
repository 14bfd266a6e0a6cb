"""A small Llama-style block (two norms and a residual) trained for a few
steps with normc's norms matches the same block with Hugging Face's
LlamaRMSNorm: the same losses and weights, step by step."""
import copy

import torch
from transformers.models.llama.modeling_llama import LlamaRMSNorm

import normc
from helpers import report


class Block(torch.nn.Module):
    """h = x + attn_stand_in(norm1(x)); out = h + mlp(norm2(h))."""

    def __init__(self, d, gen):
        super().__init__()
        self.norm1 = LlamaRMSNorm(d, eps=1e-6)
        self.norm2 = LlamaRMSNorm(d, eps=1e-6)
        self.mix = torch.nn.Linear(d, d, bias=False)
        self.up = torch.nn.Linear(d, 2 * d, bias=False)
        self.down = torch.nn.Linear(2 * d, d, bias=False)
        with torch.no_grad():
            for p in self.parameters():
                p.copy_(0.1 * torch.randn(p.shape, generator=gen) + (1.0 if p.dim() == 1 else 0.0))

    def forward(self, x):
        h = x + self.mix(self.norm1(x))
        return h + self.down(torch.nn.functional.silu(self.up(self.norm2(h))))


def train(block, batches, steps):
    opt = torch.optim.SGD(block.parameters(), lr=0.05)
    losses = []
    for step in range(steps):
        x, target = batches[step]
        loss = torch.nn.functional.mse_loss(block(x), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def test_training_steps_match_the_hugging_face_block(gen):
    d, steps = 128, 5
    hf = Block(d, gen)
    ours = copy.deepcopy(hf)
    ours.norm1 = normc.nn.Normalization.from_module(hf.norm1)
    ours.norm2 = normc.nn.Normalization.from_module(hf.norm2)
    batches = [(torch.randn(4, 16, d, generator=gen), torch.randn(4, 16, d, generator=gen))
               for _ in range(steps)]

    want = train(hf, batches, steps)
    got = train(ours, batches, steps)
    assert want[-1] < want[0]  # it learns
    worst = max(abs(g - w) / abs(w) for g, w in zip(got, want))
    report("training: worst relative loss difference over 5 steps (f32)", worst)
    assert worst < 1e-5
    drift = max((getattr(ours, n).weight - getattr(hf, n).weight).abs().max().item()
                for n in ("norm1", "norm2"))
    report("training: largest difference of a norm weight after 5 steps (f32)", drift)
    for name in ("norm1", "norm2"):
        torch.testing.assert_close(getattr(ours, name).weight, getattr(hf, name).weight,
                                   rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(ours.up.weight, hf.up.weight, rtol=1e-5, atol=1e-6)
