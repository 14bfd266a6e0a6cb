"""Replaces every RMSNorm of a small Hugging Face Llama with normc's and
compares the logits. The model is built from a config with random weights:
nothing is downloaded.

    pip install . transformers
    python examples/hf_llama_normc.py [--dtype bf16|f32] [--device cpu|cuda]
"""
import argparse

import torch
from transformers import LlamaConfig, LlamaForCausalLM
from transformers.models.llama.modeling_llama import LlamaRMSNorm

import normc


def swap_norms(model: torch.nn.Module) -> int:
    """Puts normc's equivalent in place of each LlamaRMSNorm; returns how many."""
    swapped = 0
    for parent in list(model.modules()):
        for name, child in list(parent.named_children()):
            if isinstance(child, LlamaRMSNorm):
                setattr(parent, name, normc.nn.Normalization.from_module(child))
                swapped += 1
    return swapped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dtype", choices=["bf16", "f32"], default="bf16")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--layers", type=int, default=2)
    args = parser.parse_args()
    dtype = {"bf16": torch.bfloat16, "f32": torch.float32}[args.dtype]

    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=512, hidden_size=256, intermediate_size=512,
                         num_hidden_layers=args.layers, num_attention_heads=4,
                         num_key_value_heads=2, max_position_embeddings=128)
    model = LlamaForCausalLM(config).to(device=args.device, dtype=dtype).eval()
    with torch.no_grad():  # norms with weights other than 1, so they matter
        for m in model.modules():
            if isinstance(m, LlamaRMSNorm):
                m.weight.copy_(1 + 0.2 * torch.randn_like(m.weight))
    tokens = torch.randint(0, config.vocab_size, (2, 64), device=args.device)

    with torch.no_grad():
        want = model(tokens).logits
        swapped = swap_norms(model)
        got = model(tokens).logits

    same = (got == want).float().mean().item()
    diff = (got.float() - want.float()).abs().max().item()
    print(f"replaced {swapped} LlamaRMSNorm modules with normc's ({args.dtype}, {args.device})")
    print(f"logits: {same:.4%} bit-identical, largest difference {diff:.3g} "
          f"(logits up to {want.float().abs().max().item():.3g})")
    print(f"same next tokens: {(got.argmax(-1) == want.argmax(-1)).float().mean().item():.4%}")


if __name__ == "__main__":
    main()
