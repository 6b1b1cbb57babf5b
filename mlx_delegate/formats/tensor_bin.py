"""The `.bin` tensor file of `mlxd-run` (its `--inputs` and `--outputs`), with
torch tensors. The file is a FlatBuffer of `schema/tensor_file.fbs`; reading and
writing it, and the checks, are torch-free, in `mlx_delegate.formats.tensor_bin_format`
(which also has a numpy reader).

`write_tensors(path, values)` takes torch tensors and Python int / float /
bool scalars; `read_tensors(path)` gives them back (scalars as Python values).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Union

import torch

from .ir import TORCH_DTYPES
from .tensor_bin_format import (
    KIND_SCALAR,
    KIND_TENSOR,
    MAGIC,
    VERSION,
    TensorFileError,
    encode_entry,
    encode_scalar,
    read_entries,
    write_entries,
)

__all__ = ["MAGIC", "VERSION", "DTYPES", "write_tensors", "read_tensors", "TensorFileError"]

# IR DType code -> torch dtype (schema/schema.fbs `enum DType`).
DTYPES: dict[int, torch.dtype] = {int(code): dtype for code, dtype in TORCH_DTYPES.items()}
CODES: dict[torch.dtype, int] = {v: k for k, v in DTYPES.items()}

Value = Union[torch.Tensor, int, float, bool]


def _encode(value: Value) -> bytes:
    if not isinstance(value, torch.Tensor):
        return encode_scalar(value)
    if value.dtype not in CODES:
        raise TensorFileError(f"dtype {value.dtype} has no .bin code")
    t = value.detach().to("cpu").contiguous()
    data = t.reshape(-1).view(torch.uint8).numpy().tobytes()
    return encode_entry(KIND_TENSOR, CODES[t.dtype], list(t.shape), data)


def write_tensors(path: str | Path, values: Iterable[Value]) -> None:
    write_entries(path, [_encode(v) for v in values])


def read_tensors(path: str | Path) -> list[Value]:
    out: list[Value] = []
    for i, entry in enumerate(read_entries(path)):
        if entry.kind == KIND_SCALAR:
            try:
                out.append(entry.scalar())
            except TensorFileError as error:
                raise TensorFileError(f"{path}: entry {i}: {error}") from None
            continue
        dtype = DTYPES[entry.code]
        if entry.data:
            t = torch.frombuffer(bytearray(entry.data), dtype=torch.uint8).view(dtype)
        else:
            t = torch.empty(0, dtype=dtype)
        out.append(t.reshape(entry.dims).clone())
    return out
