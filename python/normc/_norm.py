"""normc.Norm: a spec, callable on tensors (docs/python.md)."""
import hashlib
import os
from typing import Dict, List, Optional, Union

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
    positioned diagnostics. The call takes the inputs of the spec's forward
    by name (`norm.signature.inputs`; x first, of shape [..., d]) and returns
    its outputs in the signature's order: y alone, or the tuple (y, the fp8
    scale or amax, residual_out, mean, rstd) of what the spec writes (docs/
    python.md). Calls are differentiable with respect to every input the
    backward has a gradient for (x, residual, a gate's z, gamma, beta); fp8
    outputs have no backward.

    `reproducible=True` compiles the spec in reproducible mode (as its
    `[numerics] reproducible = true` or NORMC_REPRODUCIBLE=1 would): every
    output is the same bits whatever the schedule, the batch a row comes in,
    the grid and the device (docs/numerics.md).
    """

    def __init__(self, spec: Union[str, os.PathLike], *, reproducible: bool = False):
        text, file_name = _read_spec(spec)
        reproducible = bool(reproducible)
        kernel = _runtime.runtime(torch.device("cpu"), reproducible).load_spec(
            text, file_name)
        self._kernel = kernel
        self.name = kernel.name
        self.canonical = kernel.canonical
        self.gain_offset = kernel.gain_offset
        self.signature = _op.Signature.of(kernel.signature("forward"))
        self._backward_signatures = None
        # One key per canonical spec: equal specs share their kernels, and
        # the key is the same in every process (torch.compile caches).
        digest = hashlib.sha256(self.canonical.encode()).hexdigest()[:16]
        self.key = f"{self.name}-{digest}"
        _op.registry.setdefault(self.key, self)
        _runtime.remember(self.key, text, file_name, reproducible, kernel)

    def __repr__(self) -> str:
        return f"normc.Norm({self.name!r})"

    def backward_signatures(self) -> Dict[str, "_op.Signature"]:
        """The signature of each backward program (empty without one)."""
        if self._backward_signatures is None:
            self._backward_signatures = {
                p: _op.Signature.of(self._kernel.signature(p))
                for p in self._kernel.backward_programs()}
        return self._backward_signatures

    def no_backward_reason(self) -> str:
        try:
            self._kernel.signature("backward")
        except Exception as e:  # the compiler's reason
            return str(e)
        return "none"

    def backward(self, dy: Tensor, x: Tensor, *, residual: Optional[Tensor] = None,
                 gamma: Optional[Tensor] = None, beta: Optional[Tensor] = None,
                 mean: Optional[Tensor] = None, rstd: Optional[Tensor] = None,
                 dresidual_out: Optional[Tensor] = None, z: Optional[Tensor] = None,
                 alpha: Optional[Tensor] = None, shift: Optional[Tensor] = None):
        """Runs the backward kernels directly, without autograd: dy is the
        gradient at y, x and residual, gamma, beta the forward's inputs the
        spec reads; with mean and rstd (as a save_stats forward returns
        them) it reads those statistics instead of recomputing them, and
        with dresidual_out it adds the gradient arriving at residual_out;
        z is a gated spec's gate, alpha and shift Dynamic Tanh's and Derf's
        scalars. Returns what the spec's backward writes, in the order (dx,
        dgamma, dbeta, dresidual, dz, dalpha, dshift): the gradients of the
        inputs it has.
        """
        given = {"dy": dy, "x": x, "residual": residual, "gamma": gamma,
                 "beta": beta, "mean": mean, "rstd": rstd,
                 "dresidual_out": dresidual_out, "z": z, "alpha": alpha,
                 "shift": shift}
        given = {k: v for k, v in given.items() if v is not None}
        programs = self.backward_signatures()
        if not programs:
            raise ValueError(f"spec '{self.name}' has no backward: "
                             f"{self.no_backward_reason()}")
        # The program that reads all it needs of what was given, and all of
        # what was given but the forward's inputs it has no use for (beta).
        forward_inputs = {a.name for a in self.signature.inputs}
        found = [(p, s) for p, s in programs.items()
                 if {a.name for a in s.inputs} <= set(given)
                 and set(given) - {a.name for a in s.inputs} <= forward_inputs]
        if not found:
            reads = "; ".join(", ".join(a.name for a in s.inputs)
                              for s in programs.values())
            raise ValueError(f"no backward of spec '{self.name}' runs on "
                             f"{', '.join(given)}; its backwards read: {reads}")
        program, sig = max(found, key=lambda ps: len(ps[1].inputs))
        if not isinstance(x, Tensor):
            raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
        if x.dim() < 1 or x.shape[-1] < 1:
            raise ValueError(f"x must have shape [..., d] with d >= 1, got {list(x.shape)}")
        lead, d = x.shape[:-1], x.shape[-1]
        for a in sig.inputs:
            _check_tensor(a.name, given[a.name], x, a.dtype, a.shape(lead, d))
        tensors = [given[a.name] for a in sig.inputs]
        op = (torch.ops.normc.backward if torch.compiler.is_compiling()
              else _op.backward_impl)
        made = dict(zip((a.name for a in sig.outputs), op(self.key, program, tensors)))
        return tuple(made[n] for n in ("dx", "dgamma", "dbeta", "dresidual", "dz",
                                       "dalpha", "dshift") if n in made)

    def __call__(self, x: Tensor, **inputs: Optional[Tensor]):
        sig = self.signature
        if not isinstance(x, Tensor):
            raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
        if x.dim() < 1 or x.shape[-1] < 1:
            raise ValueError(f"x must have shape [..., d] with d >= 1, got {list(x.shape)}")
        lead, d = x.shape[:-1], x.shape[-1]
        first, rest = sig.inputs[0], sig.inputs[1:]
        _check_tensor(first.name, x, None, first.dtype, x.shape)
        for name, value in inputs.items():
            if value is not None and sig.get(name) not in rest:
                raise ValueError(f"{name} is not an input of spec '{self.name}' "
                                 f"(it reads {', '.join(a.name for a in sig.inputs)})")
        tensors = [x]
        for a in rest:
            value = inputs.get(a.name)
            if value is None:
                raise ValueError(f"{a.name} is required by spec '{self.name}'")
            _check_tensor(a.name, value, x, a.dtype, a.shape(lead, d))
            tensors.append(value)
        # Without autograd in eager mode the dispatcher adds nothing but its
        # cost, about 17 us a call (bench/python_overhead.py); torch.compile
        # and autograd go through the custom op.
        direct = not torch.compiler.is_compiling() and not (
            torch.is_grad_enabled() and any(t.requires_grad for t in tensors))
        op = _op.forward_impl if direct else torch.ops.normc.forward
        outputs = op(self.key, tensors)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)
