"""The `.bin` tensor file of `mlxd-run` (its `--inputs` and `--outputs`).

All integers are little-endian.

    file header, 16 bytes:
      0   4  magic b"MLXT"
      4   4  uint32 version (1)
      8   4  uint32 entry count
     12   4  uint32 reserved (0)
    then per entry:
      0   1  uint8 kind: 0 = tensor, 1 = scalar (an int / float / bool program
             input or output: rank 0, dtype Int64 / Float64 / Bool)
      1   1  uint8 dtype: the IR DType code (see DTYPES below)
      2   2  uint16 reserved (0)
      4   4  uint32 rank
      8  8r  int64 dims[rank]
      .   8  uint64 nbytes (= product of dims * element size)
      .   n  the elements, row-major (C-contiguous), little-endian

`write_tensors(path, values)` takes torch tensors and Python int / float /
bool scalars; `read_tensors(path)` gives them back (scalars as Python values).
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path
from typing import Iterable, Union

import torch

from .ir import TORCH_DTYPES

__all__ = ["MAGIC", "VERSION", "DTYPES", "write_tensors", "read_tensors", "TensorFileError"]

MAGIC = b"MLXT"
VERSION = 1
KIND_TENSOR = 0
KIND_SCALAR = 1

# IR DType code -> torch dtype (schema/schema.fbs `enum DType`).
DTYPES: dict[int, torch.dtype] = {int(code): dtype for code, dtype in TORCH_DTYPES.items()}
CODES: dict[torch.dtype, int] = {v: k for k, v in DTYPES.items()}

_FILE_HEADER = struct.Struct("<4sIII")
_ENTRY_HEADER = struct.Struct("<BBHI")

Value = Union[torch.Tensor, int, float, bool]


class TensorFileError(ValueError):
    pass


def _encode(value: Value) -> bytes:
    if isinstance(value, torch.Tensor):
        if value.dtype not in CODES:
            raise TensorFileError(f"dtype {value.dtype} has no .bin code")
        t = value.detach().to("cpu").contiguous()
        data = t.reshape(-1).view(torch.uint8).numpy().tobytes()
        kind, code, dims = KIND_TENSOR, CODES[t.dtype], list(t.shape)
    elif isinstance(value, bool):
        kind, code, dims, data = KIND_SCALAR, 7, [], bytes([1 if value else 0])
    elif isinstance(value, int):
        kind, code, dims, data = KIND_SCALAR, 4, [], struct.pack("<q", value)
    elif isinstance(value, float):
        kind, code, dims, data = KIND_SCALAR, 12, [], struct.pack("<d", value)
    else:
        raise TensorFileError(f"cannot write a {type(value).__name__} (tensor, int, float, bool)")
    return (
        _ENTRY_HEADER.pack(kind, code, 0, len(dims))
        + struct.pack(f"<{len(dims)}q", *dims)
        + struct.pack("<Q", len(data))
        + data
    )


def write_tensors(path: str | Path, values: Iterable[Value]) -> None:
    if sys.byteorder != "little":
        raise TensorFileError("the .bin format is little-endian; this host is not")
    values = list(values)
    parts = [_FILE_HEADER.pack(MAGIC, VERSION, len(values), 0)]
    parts += [_encode(v) for v in values]
    Path(path).write_bytes(b"".join(parts))


def read_tensors(path: str | Path) -> list[Value]:
    buf = Path(path).read_bytes()
    where = str(path)

    def take(offset: int, n: int, what: str) -> bytes:
        if offset + n > len(buf):
            raise TensorFileError(f"{where}: truncated (while reading {what})")
        return buf[offset : offset + n]

    magic, version, count, _ = _FILE_HEADER.unpack(take(0, _FILE_HEADER.size, "the header"))
    if magic != MAGIC:
        raise TensorFileError(f"{where}: not a tensor file (magic {magic!r})")
    if version != VERSION:
        raise TensorFileError(f"{where}: unsupported version {version}")
    pos = _FILE_HEADER.size
    out: list[Value] = []
    for i in range(count):
        kind, code, _, rank = _ENTRY_HEADER.unpack(take(pos, _ENTRY_HEADER.size, f"entry {i}"))
        pos += _ENTRY_HEADER.size
        dims = list(struct.unpack(f"<{rank}q", take(pos, 8 * rank, f"entry {i}")))
        pos += 8 * rank
        (nbytes,) = struct.unpack("<Q", take(pos, 8, f"entry {i}"))
        pos += 8
        data = take(pos, nbytes, f"entry {i}")
        pos += nbytes
        if code not in DTYPES:
            raise TensorFileError(f"{where}: entry {i}: unknown dtype code {code}")
        dtype = DTYPES[code]
        numel = 1
        for d in dims:
            numel *= d
        if nbytes != numel * dtype.itemsize:
            raise TensorFileError(f"{where}: entry {i}: {nbytes} bytes for {dtype} {dims}")
        if kind == KIND_SCALAR:
            if code == 7:
                out.append(bool(data[0]))
            elif code in (4, 3):
                out.append(int.from_bytes(data, "little", signed=True))
            elif code == 12:
                out.append(struct.unpack("<d", data)[0])
            else:
                raise TensorFileError(f"{where}: entry {i}: scalar of dtype {dtype}")
        elif kind == KIND_TENSOR:
            raw = torch.frombuffer(bytearray(data), dtype=torch.uint8) if nbytes else None
            t = raw.view(dtype) if raw is not None else torch.empty(0, dtype=dtype)
            out.append(t.reshape(dims).clone())
        else:
            raise TensorFileError(f"{where}: entry {i}: bad kind {kind}")
    if pos != len(buf):
        raise TensorFileError(f"{where}: {len(buf) - pos} trailing bytes")
    return out
