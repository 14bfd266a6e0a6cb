"""normc.Norm: a spec, callable on tensors (contract section 6)."""
import dataclasses
import hashlib
import os
from typing import List, Optional, Union

import torch
from torch import Tensor

from . import _op, _runtime

_SPECS_DIR = _runtime.PACKAGE_DIR / "specs"


def shipped_specs() -> List[str]:
    """Names of the specs shipped with normc (specs/NAME.toml)."""
    return sorted(p.stem for p in _SPECS_DIR.glob("*.toml"))


def spec_path(name: str) -> str:
    """The path of the shipped spec `name`."""
    path = _SPECS_DIR / f"{name}.toml"
    if not path.is_file():
        raise ValueError(f"spec: no shipped spec named '{name}' "
                         f"(shipped: {', '.join(shipped_specs())})")
    return str(path)


# As the C++ reader: a spec is a few hundred bytes, and an endless input
# (/dev/zero) must not eat the process's memory.
_MAX_SPEC_BYTES = 1 << 20


def _read_file(path: str) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_SPEC_BYTES + 1)
        if len(data) > _MAX_SPEC_BYTES:
            raise ValueError(f"spec: cannot read {path}: larger than {_MAX_SPEC_BYTES} bytes")
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"spec: {path} is not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise ValueError(f"spec: cannot read {path}: {e.strerror}") from None


def _read_spec(spec) -> "tuple[str, str]":
    """(TOML text, file name for diagnostics) of a path, TOML text or the
    name of a shipped spec."""
    if isinstance(spec, os.PathLike):
        path = os.fspath(spec)
        return _read_file(path), path
    if not isinstance(spec, str):
        raise TypeError(f"spec must be a path or TOML text, got {type(spec).__name__}")
    if os.path.isfile(spec):
        return _read_file(spec), spec
    if "\n" in spec or "=" in spec:
        return spec, "<string>"
    if (_SPECS_DIR / f"{spec}.toml").is_file():
        path = spec_path(spec)
        return _read_file(path), path
    raise ValueError(f"spec: no such file '{spec}', and no shipped spec of that "
                     f"name (shipped: {', '.join(shipped_specs())})")


@dataclasses.dataclass(frozen=True)
class Signature:
    """What a spec reads and writes (storage types spelled as in specs)."""
    input: str
    output: str
    params: str
    residual: bool
    gamma: bool
    beta: bool
    residual_out: bool
    mean: bool
    rstd: bool
    centered: bool
    scaled: bool
    gain_offset: float
    quantize_scale: str
    quantize_block: int
    canonical: str

    @classmethod
    def of(cls, native) -> "Signature":
        # A plain Python copy: torch.compile traces attribute reads of it.
        return cls(**{f.name: getattr(native, f.name)
                      for f in dataclasses.fields(cls)})


def _check_tensor(name: str, t, like: Optional[Tensor], dtype: torch.dtype,
                  shape) -> None:
    if not isinstance(t, Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(t).__name__}")
    if t.dtype != dtype:
        raise ValueError(f"{name} must be {dtype} (the spec's type), got {t.dtype}")
    if tuple(t.shape) != tuple(shape):
        raise ValueError(f"{name} must have shape {list(shape)}, got {list(t.shape)}")
    if like is not None and t.device != like.device:
        raise ValueError(f"{name} is on {t.device}, x on {like.device}")
    if t.device.type not in ("cpu", "cuda"):
        raise ValueError(f"{name} is on {t.device}: normc runs on CPU and CUDA tensors")


class Norm:
    """A normalization spec: `Norm(spec)(x, gamma=..., beta=..., residual=...)`.

    `spec` is a path to a TOML spec, its text, or the name of a shipped spec
    (normc.shipped_specs()). An invalid spec is a ValueError with normc's
    positioned diagnostics. Calls return y, or the tuple (y, residual_out,
    mean, rstd) of what the spec stores; they are differentiable with
    respect to x, residual, gamma and beta. With an fp8 output (contract
    section 7) y is torch.float8_e4m3fn or torch.float8_e5m2 and the tuple
    is (y, scale or amax, residual_out, mean, rstd), block scales of shape
    [..., ceil(d / block)]; a static scale is the
    keyword `scale`, a float32 tensor of shape [1]. fp8 outputs have no
    backward.
    """

    def __init__(self, spec: Union[str, os.PathLike]):
        text, file_name = _read_spec(spec)
        kernel = _runtime.runtime(torch.device("cpu")).load_spec(text, file_name)
        self.signature = Signature.of(kernel.signature)
        self.name = kernel.name
        # One key per canonical spec: equal specs share their kernels, and
        # the key is the same in every process (torch.compile caches).
        digest = hashlib.sha256(self.signature.canonical.encode()).hexdigest()[:16]
        self.key = f"{self.name}-{digest}"
        _op.registry.setdefault(self.key, self)
        _runtime.remember(self.key, text, file_name, kernel)

    def __repr__(self) -> str:
        return f"normc.Norm({self.name!r})"

    def __call__(self, x: Tensor, *, residual: Optional[Tensor] = None,
                 gamma: Optional[Tensor] = None, beta: Optional[Tensor] = None,
                 scale: Optional[Tensor] = None):
        sig = self.signature
        if not isinstance(x, Tensor):
            raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
        if x.dim() < 1 or x.shape[-1] < 1:
            raise ValueError(f"x must have shape [..., d] with d >= 1, got {list(x.shape)}")
        d = x.shape[-1]
        _check_tensor("x", x, None, _op.DTYPES[sig.input], x.shape)
        for name, value, wanted, dtype, shape in (
                ("residual", residual, sig.residual, sig.input, x.shape),
                ("gamma", gamma, sig.gamma, sig.params, (d,)),
                ("beta", beta, sig.beta, sig.params, (d,))):
            if wanted and value is None:
                raise ValueError(f"{name} is required by spec '{self.name}'")
            if not wanted and value is not None:
                raise ValueError(f"{name} is not an input of spec '{self.name}'")
            if value is not None:
                _check_tensor(name, value, x, _op.DTYPES[dtype], shape)
        static = sig.quantize_scale == "static"
        if static and scale is None:
            raise ValueError(f"scale is required by spec '{self.name}' "
                             "([quantize] scale = \"static\")")
        if not static and scale is not None:
            raise ValueError(f"scale is not an input of spec '{self.name}'")
        if scale is not None:
            _check_tensor("scale", scale, x, torch.float32, (1,))
        # Without autograd in eager mode the dispatcher adds nothing but its
        # cost, about 17 us a call (bench/python_overhead.py); torch.compile
        # and autograd go through the custom op.
        direct = not torch.compiler.is_compiling() and not (
            torch.is_grad_enabled() and any(
                t is not None and t.requires_grad for t in (x, residual, gamma, beta)))
        op = _op.forward_impl if direct else torch.ops.normc.forward
        y, quantized, residual_out, mean, rstd = op(
            self.key, x, residual, gamma, beta, scale)
        outputs = [y]
        if sig.quantize_scale:
            outputs.append(quantized)
        if sig.residual_out:
            outputs.append(residual_out)
        if sig.mean:
            outputs.append(mean)
        if sig.rstd:
            outputs.append(rstd)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

