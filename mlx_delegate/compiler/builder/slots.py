"""The logical slots handlers write into: tensors and runtime values, numbered
only when the finaliser builds the IR (`finalize.py`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Callable, Iterator, Optional

import torch

from ...formats.ir import TORCH_DTYPES, inspector, schema as ir


class Unsupported(Exception):
    """Raised by a handler for a node it cannot lower; the message says why."""


class SlotKind(enum.IntEnum):
    """Also the order in which the finaliser numbers tensor slots."""

    CONSTANT = 0
    INPUT = 1
    OUTPUT = 2
    MUTABLE_BUFFER = 3
    TEMP = 4


@dataclass(eq=False)
class TensorSlot:
    """One tensor of the program, compared by identity."""

    kind: SlotKind
    dtype: torch.dtype
    shape: tuple
    name: Optional[str] = None  # named-data key of a constant or mutable buffer

    @property
    def tid(self) -> "TensorSlot":
        """What an IR node holds where the schema wants a `Tid`: the slot itself,
        which the finaliser replaces by a numbered `Tid`."""
        return self


@dataclass(eq=False)
class ValueSlot:
    """One runtime scalar (a symbolic size, an item()), compared by identity."""

    @property
    def vid(self) -> "ValueSlot":
        """The slot stands for its `Vid` until the finaliser numbers it."""
        return self


@dataclass(frozen=True)
class CompileTimeConstant:
    """What a constant of a dtype MLX lacks (a float8 quantized weight and its
    scales) is bound to: a handler may read its value at compile time
    (`Emitter.constant`) and make constants of its own from it, never its slot."""

    dtype: torch.dtype


# Every IR dtype, for the slots the compiler makes (a quantized weight's
# packed uint32 words, the rows taken from them). The tensors of a PyTorch
# graph may not have the wide unsigned ones, which few PyTorch ops accept.
IR_DTYPES = {dtype: ir.DType(code) for code, dtype in TORCH_DTYPES.items()}
GRAPH_DTYPES = frozenset(IR_DTYPES) - {torch.uint16, torch.uint32, torch.uint64}


def ir_dtype(dtype: torch.dtype):
    try:
        return IR_DTYPES[dtype]
    except KeyError:
        raise Unsupported(f"dtype {dtype} has no MLX equivalent") from None


def check_graph_dtype(dtype: torch.dtype) -> None:
    """Unsupported unless a tensor of the PyTorch graph may have `dtype`."""
    if dtype not in GRAPH_DTYPES:
        raise Unsupported(f"dtype {dtype} is not lowered")


def tensor_bytes(tensor: torch.Tensor) -> bytes:
    return tensor_bytes_view(tensor).tobytes()


def tensor_bytes_view(tensor: torch.Tensor):
    """The tensor's bytes as a numpy uint8 array, without a copy when it is contiguous."""
    data = tensor.detach().contiguous().cpu()
    return data.reshape(-1).view(torch.uint8).numpy() if data.numel() else b""


# ---- slots inside IR nodes ---------------------------------------------------


def slots_in(value: Any) -> Iterator[Any]:
    """Every tensor or value slot inside an IR value (a slot, a list, a struct)."""
    if isinstance(value, (TensorSlot, ValueSlot)):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from slots_in(item)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from slots_in(getattr(value, f.name))


def map_slots(value: Any, replace: Callable[[Any], Any]) -> Any:
    """A copy of IR `value` with every slot `s` in it replaced by `replace(s)`."""
    if isinstance(value, (TensorSlot, ValueSlot)):
        return replace(value)
    if isinstance(value, list):
        return [map_slots(v, replace) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return type(value)(
            **{f.name: map_slots(getattr(value, f.name), replace) for f in fields(value)}
        )
    return value


def node_slots(ir_node: Any) -> Iterator[tuple[Any, str]]:
    """(slot, role) for every slot an IR node reads ("input") or writes
    ("output"), from the schema's field roles."""
    for f in inspector.OPS_BY_TABLE[type(ir_node).__name__].fields:
        if f.role != "literal":
            yield from ((slot, f.role) for slot in slots_in(getattr(ir_node, f.name)))
