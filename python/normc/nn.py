"""normc.nn.Normalization: a torch.nn.Module holding gamma and beta.

    norm = normc.nn.Normalization("llama_rmsnorm", 4096)
    y = norm(x)                                   # x [..., 4096]

    hf = model.model.layers[0].input_layernorm    # e.g. LlamaRMSNorm
    norm = normc.nn.Normalization.from_module(hf) # same eps, weights, rounding
"""
from typing import Optional, Union

import torch
from torch import Tensor

from ._norm import Norm
from ._op import DTYPES

# The types a spec stores activations and parameters in (docs/spec.md).
_SPELLING = {DTYPES[name]: name for name in ("f32", "f16", "bf16")}


def _spelling(dtype: torch.dtype, what: str) -> str:
    if dtype not in _SPELLING:
        raise ValueError(f"{what} must be torch.float32, torch.float16 or "
                         f"torch.bfloat16, got {dtype}")
    return _SPELLING[dtype]


class Normalization(torch.nn.Module):
    """A spec as a module: `weight` (gamma) and `bias` (beta) are parameters
    of the spec's params type, present when the spec has a gain or a bias,
    initialized to 1 (0 with a gain offset: Gemma's `1 + gamma`) and 0;
    Dynamic Tanh's and Derf's scalars `alpha` and `shift` ([1]) start at
    `alpha_init` and `shift_init`.

    forward(x, residual=None, z=None) returns what normc.Norm returns (z:
    a gated spec's gate)."""

    def __init__(self, spec: Union[str, Norm], d: int, *,
                 device: Optional[Union[str, torch.device]] = None,
                 alpha_init: float = 0.5, shift_init: float = 0.0):
        super().__init__()
        self.norm = spec if isinstance(spec, Norm) else Norm(spec)
        self.d = d
        sig = self.norm.signature
        fill = 0.0 if self.norm.gain_offset != 0 else 1.0

        def parameter(name, shape, value):
            a = sig.get(name)
            return torch.nn.Parameter(torch.full(
                shape, value, dtype=a.dtype, device=device)) if a else None
        self.weight = parameter("gamma", (d,), fill)
        self.bias = parameter("beta", (d,), 0.0)
        self.alpha = parameter("alpha", (1,), alpha_init)
        self.shift = parameter("shift", (1,), shift_init)

    def extra_repr(self) -> str:
        return f"{self.norm.name!r}, d={self.d}"

    def forward(self, x: Tensor, residual: Optional[Tensor] = None,
                z: Optional[Tensor] = None):
        kwargs = {}
        if residual is not None:
            kwargs["residual"] = residual
        if z is not None:
            kwargs["z"] = z
        if self.weight is not None:
            kwargs["gamma"] = self.weight
        if self.bias is not None:
            kwargs["beta"] = self.bias
        if self.alpha is not None:
            kwargs["alpha"] = self.alpha
        if self.shift is not None:
            kwargs["shift"] = self.shift
        return self.norm(x, **kwargs)

    @classmethod
    def from_module(cls, module: torch.nn.Module,
                    dtype: Optional[torch.dtype] = None) -> "Normalization":
        """The normc equivalent of a Hugging Face RMSNorm (LlamaRMSNorm and
        the models that copy it, GemmaRMSNorm, T5LayerNorm), its gated norms
        (Mamba2RMSNormGated with one group, Qwen3NextRMSNormGated,
        KimiLinearRMSNormGated and their copies: call the result with z=,
        the module's gate), torch.nn.RMSNorm or
        torch.nn.LayerNorm, with its epsilon, its rounding order and a copy
        of its weights. `dtype` is the activations' type (default: the
        weight's)."""
        spec = spec_for_module(module, dtype)
        d = module.weight.shape[-1] if getattr(module, "weight", None) is not None \
            else module.normalized_shape[-1]
        norm = cls(spec, d, device=_device_of(module))
        with torch.no_grad():
            if norm.weight is not None:
                norm.weight.copy_(module.weight)
            if norm.bias is not None:
                norm.bias.copy_(module.bias)
        return norm


def _squash_spec(method: str, dtype: torch.dtype, bias: bool) -> str:
    t = _spelling(dtype, "dtype")
    return "\n".join([
        f'name = "{"dyt" if method == "tanh" else "derf"}"',
        "[statistics]", f'method = "{method}"',
        "[affine]", f"bias = {'true' if bias else 'false'}",
        "[dtypes]", f'input = "{t}"', f'output = "{t}"', f'params = "{t}"', ""])


class DyT(Normalization):
    """Dynamic Tanh ("Transformers without Normalization"): y = weight *
    tanh(alpha * x) + bias, alpha a learnable scalar, in place of a
    LayerNorm of d features. Computed as Liger's LigerDyT: in f32, y rounded
    once to `dtype` (the activations', weight's and alpha's type)."""

    def __init__(self, d: int, alpha_init: float = 0.5, *, bias: bool = True,
                 dtype: torch.dtype = torch.float32,
                 device: Optional[Union[str, torch.device]] = None):
        super().__init__(_squash_spec("tanh", dtype, bias), d, device=device,
                         alpha_init=alpha_init)


class Derf(Normalization):
    """Derf: y = weight * erf(alpha * x + shift) + bias, alpha and shift
    learnable scalars, in f32 and rounded once to `dtype`."""

    def __init__(self, d: int, alpha_init: float = 0.5, shift_init: float = 0.0,
                 *, bias: bool = True, dtype: torch.dtype = torch.float32,
                 device: Optional[Union[str, torch.device]] = None):
        super().__init__(_squash_spec("erf", dtype, bias), d, device=device,
                         alpha_init=alpha_init, shift_init=shift_init)


def _device_of(module: torch.nn.Module):
    for p in module.parameters():
        return p.device
    return None


# Hugging Face's gated RMSNorms (docs/spec.md, "Gates"), by rounding order:
# Mamba2's and its copies gate x before the statistics; Qwen3-Next's and
# its copies round n and the product with the weight to the input type;
# Kimi Linear's and its copies keep both in f32.
_MAMBA_GATED = ("MambaRMSNormGated", "Mamba2RMSNormGated", "BambaRMSNormGated",
                "NemotronHRMSNormGated", "GraniteMoeHybridRMSNormGated")
_ROUNDED_GATED = ("Qwen3NextRMSNormGated", "OlmoHybridRMSNormGated",
                  "Qwen3_5MoeRMSNormGated", "Qwen4ExpTextRMSNormGated")
_F32_GATED = ("KimiLinearRMSNormGated", "BailingHybridRMSNormGated",
              "Glm5NextTextRMSNormGated")


def spec_for_module(module: torch.nn.Module,
                    dtype: Optional[torch.dtype] = None) -> str:
    """The TOML text of a spec that computes what `module` computes, in the
    same rounding order (see from_module)."""
    kind = type(module).__name__
    weight = getattr(module, "weight", None)
    params = weight.dtype if weight is not None else torch.float32
    activations = dtype or params
    inp = _spelling(activations, "the activations' dtype")
    par = _spelling(params, "the weight's dtype")
    center, offset, normalized, bias, output = "false", 0.0, "accumulate", False, inp
    gate, activation = "none", "silu"
    if isinstance(module, torch.nn.LayerNorm):
        center, eps = "true", module.eps
        bias = module.bias is not None
        if len(module.normalized_shape) != 1:
            raise ValueError("module: normc normalizes over the last dimension only")
    elif isinstance(module, getattr(torch.nn, "RMSNorm", ())):
        eps = module.eps if module.eps is not None else torch.finfo(activations).eps
        if len(module.normalized_shape) != 1:
            raise ValueError("module: normc normalizes over the last dimension only")
    elif "Gemma" in kind and kind.endswith("RMSNorm"):
        # output = norm(x.float()) * (1 + weight.float()), rounded once.
        eps, offset = module.eps, 1.0
    elif kind == "T5LayerNorm":
        # weight * x * rsqrt(...) rounded to the weight's type when it is
        # half or bfloat16; the product is then of the weight's type.
        eps = module.variance_epsilon
        if params != torch.float32:
            normalized, output = "params", par
        else:
            output = "f32"
    elif kind in _MAMBA_GATED:
        # weight * (rmsnorm(x * silu(gate)) per group).to(input dtype): the
        # gate before the statistics, n rounded as LlamaRMSNorm's.
        if module.group_size != weight.shape[-1]:
            raise ValueError(
                f"module: {kind} with {weight.shape[-1] // module.group_size} "
                "groups takes a slice of the weight per group, which normc "
                "cannot express yet; one group (group_size = hidden size) can")
        eps, normalized, gate = module.variance_epsilon, "input", "before"
        output = _spelling(torch.promote_types(activations, params), "the output dtype")
    elif kind in _ROUNDED_GATED:
        # (weight * n.to(input dtype)) * act(gate), back to the input type:
        # the product with the weight is rounded to the input type when
        # that is the wider one (after_rounded), else kept in f32 (after).
        eps, normalized = module.variance_epsilon, "input"
        rounded = torch.promote_types(activations, params) == activations
        gate, activation = ("after_rounded" if rounded else "after"), module.activation
    elif kind in _F32_GATED:
        # (weight.float() * n) * act(gate) in f32, rounded once.
        eps, gate, activation = module.variance_epsilon, "after", module.activation
    elif kind.endswith("RMSNorm") and hasattr(module, "variance_epsilon"):
        # LlamaRMSNorm: weight * (x * rsqrt(...)).to(input dtype); the
        # product takes the wider of the two types.
        eps, normalized = module.variance_epsilon, "input"
        wide = torch.promote_types(activations, params)
        output = _spelling(wide, "the output dtype")
    else:
        raise ValueError(f"module: normc does not know how {kind} normalizes; "
                         "write a spec for it (docs/spec.md)")
    gain = weight is not None
    return "\n".join([
        f'name = "{kind.lower()}"',
        "[statistics]", f"center = {center}",
        "[epsilon]", f"value = {float(eps)!r}",
        "[affine]", f"gain = {'true' if gain else 'false'}",
        f"gain_offset = {offset!r}", f"bias = {'true' if bias else 'false'}",
        f'normalized = "{normalized}"',
        "[dtypes]", f'input = "{inp}"', f'output = "{output}"',
        f'params = "{par}"', 'accumulate = "f32"',
        "[fusion]", f'gate = "{gate}"'] +
        ([f'gate_activation = "{activation}"'] if gate != "none" else []) + [""])
