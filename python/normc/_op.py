"""The torch.library custom ops normc::forward and normc::backward.

Both take the spec as a key into the registry of loaded specs (a string, so
torch.compile can trace it as a graph constant) and the input tensors of a
program in the order of its signature (normc.Signature), and return its
outputs in that order: nothing here knows which tensors a spec has. The fake
(meta) implementations give torch.compile the output shapes from the
signature; the autograd formula calls normc::backward with the backward
program the saved tensors allow (docs/backward.md), pairing each argument
`dNAME` with NAME: the gradient arriving at an output, or the one leaving
for an input.
"""
import dataclasses
from typing import Dict, List, Optional, Sequence, Tuple

import torch
from torch import Tensor

from . import _normc, _runtime

# Loaded specs by key (see _norm.Norm); a key names one canonical spec.
registry: Dict[str, "object"] = {}

# normc's element types by name, as torch dtypes: those of the extension's
# table that this torch has (a packed type's dtype holds two elements).
DTYPES = {name: getattr(torch, torch_name)
          for name, torch_name, _ in _normc.element_types()
          if torch_name and hasattr(torch, torch_name)}


@dataclasses.dataclass(frozen=True)
class Argument:
    """One argument of a program: its name, dtype and dimensions ("rows",
    "d", "groups" of `group_size` features, "1"), and whether the kernels
    write it."""
    name: str
    element_type: str
    dims: Tuple[str, ...]
    group_size: int
    written: bool
    strided: bool

    @property
    def dtype(self) -> torch.dtype:
        return DTYPES[self.element_type]

    def shape(self, lead: Sequence[int], d: int) -> Tuple[int, ...]:
        """Its shape for rows of leading shape `lead` and hidden size d."""
        sizes = {"d": (d,), "1": (1,), "rows": tuple(lead),
                 "groups": ((d + self.group_size - 1) // max(self.group_size, 1),)}
        return sum((sizes[dim] for dim in self.dims), ())


class Signature(tuple):
    """A program's arguments in their kernels' order."""

    @classmethod
    def of(cls, native) -> "Signature":
        # Plain Python copies: torch.compile traces attribute reads of them.
        return cls(Argument(a.name, a.element_type, tuple(a.dims), a.group_size,
                            a.written, a.strided) for a in native)

    @property
    def inputs(self) -> Tuple[Argument, ...]:
        return tuple(a for a in self if not a.written)

    @property
    def outputs(self) -> Tuple[Argument, ...]:
        return tuple(a for a in self if a.written)

    def get(self, name: str) -> Optional[Argument]:
        return next((a for a in self if a.name == name), None)


def rows_view(t: Tensor, d: int) -> Tensor:
    """t as [rows, d] with unit feature stride: a view where one exists
    (row strides are passed to the kernels), else a contiguous copy."""
    rows = t.reshape(-1, d)
    if rows.stride(1) != 1 or (rows.shape[0] > 1 and rows.stride(0) < d):
        rows = rows.contiguous()
    return rows


def _stream(t: Tensor) -> int:
    return torch.cuda.current_stream(t.device).cuda_stream if t.is_cuda else 0


def _outputs(sig: Signature, x: Tensor) -> List[Tensor]:
    lead, d = x.shape[:-1], x.shape[-1]
    return [x.new_empty(a.shape(lead, d), dtype=a.dtype) for a in sig.outputs]


def _run(key: str, program: str, sig: Signature, tensors: Sequence[Optional[Tensor]]
         ) -> List[Tensor]:
    """Runs `program` on its inputs (in signature order); its outputs."""
    x = tensors[0]
    d = x.shape[-1]
    rows = x.numel() // d
    outputs = _outputs(sig, x)
    by_name = {}
    keep = []  # views and copies live until the launch is done
    for a, t in zip(sig.inputs + sig.outputs, list(tensors) + outputs):
        if t is None:
            continue
        if a.strided:
            t = rows_view(t, d)
            by_name[a.name] = (t.data_ptr(), t.stride(0))
        else:
            t = t.contiguous()
            by_name[a.name] = (t.data_ptr(), 0)
        keep.append(t)
    _runtime.kernel(key, x.device).run(program, rows, d, by_name, _stream(x))
    return outputs


def forward_impl(key: str, inputs: List[Optional[Tensor]]) -> List[Tensor]:
    return _run(key, "forward", registry[key].signature, inputs)


forward = torch.library.custom_op(
    "normc::forward", forward_impl, mutates_args=(), device_types=("cpu", "cuda"))


@forward.register_fake
def _(key, inputs):
    return _outputs(registry[key].signature, inputs[0])


def backward_impl(key: str, program: str, inputs: List[Optional[Tensor]]
                  ) -> List[Tensor]:
    return _run(key, program, registry[key].backward_signatures()[program], inputs)


backward = torch.library.custom_op(
    "normc::backward", backward_impl, mutates_args=(), device_types=("cpu", "cuda"))


@backward.register_fake
def _(key, program, inputs):
    return _outputs(registry[key].backward_signatures()[program], inputs[0])


def _setup_context(ctx, inputs, output):
    key, tensors = inputs
    ctx.key = key
    ctx.n_inputs = len(tensors)
    ctx.save_for_backward(*tensors, *output)


def _backward(ctx, grads):
    norm = registry[ctx.key]
    saved = ctx.saved_tensors
    fwd = norm.signature
    # What a backward program may read: the forward's inputs and outputs by
    # name, and dNAME, the gradient arriving at output NAME.
    known = {a.name: t for a, t in zip(fwd.inputs, saved[:ctx.n_inputs])}
    known.update((a.name, t) for a, t in zip(fwd.outputs, saved[ctx.n_inputs:]))
    known.update(("d" + a.name, g) for a, g in zip(fwd.outputs, grads))
    known = {k: v for k, v in known.items() if v is not None}
    programs = norm.backward_signatures()
    if not programs:
        raise RuntimeError(f"normc: spec '{norm.name}' has no backward: "
                           f"{norm.no_backward_reason()}")
    # The program that reads the most of what is known (the saved statistics
    # spare their recomputation).
    program, sig = max(
        ((p, s) for p, s in programs.items()
         if all(a.name in known for a in s.inputs)),
        key=lambda ps: len(ps[1].inputs), default=(None, None))
    if program is None:
        raise RuntimeError(f"normc: no backward of '{norm.name}' can run on "
                           f"what the forward saved ({', '.join(known)})")
    outs = backward(ctx.key, program, [known[a.name] for a in sig.inputs])
    made = {a.name: t for a, t in zip(sig.outputs, outs)}
    # The gradient leaving for input NAME is the output dNAME.
    return None, [made.get("d" + a.name) for a in fwd.inputs]


torch.library.register_autograd("normc::forward", _backward, setup_context=_setup_context)
