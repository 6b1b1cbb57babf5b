"""The logical slots handlers write into: tensors and runtime values, numbered
only when the finaliser builds the IR (`finalize.py`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

import torch

from ..ir import TORCH_DTYPES, schema as ir


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


# What the compiler lowers: every IR dtype but the wide unsigned ones, which
# few PyTorch ops accept.
TORCH_TO_DTYPE = {
    dtype: ir.DType(code)
    for code, dtype in TORCH_DTYPES.items()
    if dtype not in (torch.uint16, torch.uint32, torch.uint64)
}


def ir_dtype(dtype: torch.dtype):
    try:
        return TORCH_TO_DTYPE[dtype]
    except KeyError:
        raise Unsupported(f"dtype {dtype} has no MLX equivalent") from None


def tensor_bytes(tensor: torch.Tensor) -> bytes:
    data = tensor.detach().contiguous().cpu()
    return data.reshape(-1).view(torch.uint8).numpy().tobytes() if data.numel() else b""
