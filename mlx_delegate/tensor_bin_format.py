"""The `.bin` tensor file of `mlxd-run`, without torch: its layout, one parser
and one encoder, and a numpy reader (for machines with numpy but no torch, as
the run side of `python -m testbench.cuda_suite`).
`mlx_delegate.tensor_bin` builds its torch reader and writer on these.

All integers are little-endian.

    file header, 16 bytes:
      0   4  magic b"MLXT"
      4   4  uint32 version (1)
      8   4  uint32 entry count
     12   4  uint32 reserved (0)
    then per entry:
      0   1  uint8 kind: 0 = tensor, 1 = scalar (an int / float / bool program
             input or output: rank 0, dtype Int64 / Float64 / Bool)
      1   1  uint8 dtype: the IR DType code (schema/schema.fbs `enum DType`)
      2   2  uint16 reserved (0)
      4   4  uint32 rank
      8  8r  int64 dims[rank]
      .   8  uint64 nbytes (= product of dims * element size)
      .   n  the elements, row-major (C-contiguous), little-endian
"""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass
from pathlib import Path

from ._generated import dtypes as _dtypes

MAGIC = b"MLXT"
VERSION = 1
KIND_TENSOR = 0
KIND_SCALAR = 1

# IR DType code -> the dtype table's entry (size and torch / numpy names).
DTYPE_INFO = {d.code: d for d in _dtypes().DTYPES}
CODE_BY_NAME = {d.torch: d.code for d in DTYPE_INFO.values()}  # "bfloat16" -> 2
BOOL, INT32, INT64, FLOAT64 = (CODE_BY_NAME[n] for n in ("bool", "int32", "int64", "float64"))

_FILE_HEADER = struct.Struct("<4sIII")
_ENTRY_HEADER = struct.Struct("<BBHI")


class TensorFileError(ValueError):
    pass


@dataclass(frozen=True)
class Entry:
    """One entry of a file, its elements still raw bytes."""

    kind: int
    code: int
    dims: tuple
    data: bytes

    @property
    def dtype_name(self) -> str:
        """The dtype's torch name: "float32", "bfloat16", "int64"..."""
        return DTYPE_INFO[self.code].torch

    def scalar(self):
        """The Python value of a scalar entry."""
        if self.code == BOOL:
            return bool(self.data[0])
        if self.code in (INT64, INT32):
            return int.from_bytes(self.data, "little", signed=True)
        if self.code == FLOAT64:
            return struct.unpack("<d", self.data)[0]
        raise TensorFileError(f"a scalar of dtype {self.dtype_name}")


def encode_entry(kind: int, code: int, dims, data: bytes) -> bytes:
    return (
        _ENTRY_HEADER.pack(kind, code, 0, len(dims))
        + struct.pack(f"<{len(dims)}q", *dims)
        + struct.pack("<Q", len(data))
        + data
    )


def encode_scalar(value) -> bytes:
    """The entry of a Python bool / int / float."""
    if isinstance(value, bool):
        return encode_entry(KIND_SCALAR, BOOL, [], bytes([1 if value else 0]))
    if isinstance(value, int):
        return encode_entry(KIND_SCALAR, INT64, [], struct.pack("<q", value))
    if isinstance(value, float):
        return encode_entry(KIND_SCALAR, FLOAT64, [], struct.pack("<d", value))
    raise TensorFileError(f"cannot write a {type(value).__name__} (tensor, int, float, bool)")


def write_entries(path: str | Path, entries: list[bytes]) -> None:
    """Writes encoded entries (encode_entry / encode_scalar) as one file."""
    if sys.byteorder != "little":
        raise TensorFileError("the .bin format is little-endian; this host is not")
    header = _FILE_HEADER.pack(MAGIC, VERSION, len(entries), 0)
    Path(path).write_bytes(header + b"".join(entries))


def read_entries(path: str | Path) -> list[Entry]:
    """The entries of a file; rejects a bad magic, version, dtype code or kind,
    a size that does not match the dims, truncation and trailing bytes."""
    return parse(Path(path).read_bytes(), str(path))


def parse(buf: bytes, where: str) -> list[Entry]:
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
    entries = []
    for i in range(count):
        kind, code, _, rank = _ENTRY_HEADER.unpack(take(pos, _ENTRY_HEADER.size, f"entry {i}"))
        pos += _ENTRY_HEADER.size
        dims = struct.unpack(f"<{rank}q", take(pos, 8 * rank, f"entry {i}"))
        pos += 8 * rank
        (nbytes,) = struct.unpack("<Q", take(pos, 8, f"entry {i}"))
        pos += 8
        data = take(pos, nbytes, f"entry {i}")
        pos += nbytes
        if code not in DTYPE_INFO:
            raise TensorFileError(f"{where}: entry {i}: unknown dtype code {code}")
        if kind not in (KIND_TENSOR, KIND_SCALAR):
            raise TensorFileError(f"{where}: entry {i}: bad kind {kind}")
        numel = 1
        for d in dims:
            numel *= d
        if nbytes != numel * DTYPE_INFO[code].bytes:
            name = DTYPE_INFO[code].torch
            raise TensorFileError(f"{where}: entry {i}: {nbytes} bytes for {name} {list(dims)}")
        entries.append(Entry(kind, code, dims, data))
    if pos != len(buf):
        raise TensorFileError(f"{where}: {len(buf) - pos} trailing bytes")
    return entries


def to_numpy(entry: Entry):
    """The elements as a numpy array of the entry's shape. numpy has no
    bfloat16: those come widened to float32, which is exact."""
    import numpy as np

    if entry.code == CODE_BY_NAME["bfloat16"]:
        raw = np.frombuffer(entry.data, dtype="<u2").astype(np.uint32) << 16
        return raw.view(np.float32).reshape(entry.dims)
    info = DTYPE_INFO[entry.code]
    return np.frombuffer(entry.data, dtype=np.dtype(info.numpy).newbyteorder("<")).reshape(
        entry.dims
    )


def read_arrays(path: str | Path) -> list:
    """(dtype name, numpy array) per entry; scalars as rank-0 arrays."""
    return [(e.dtype_name, to_numpy(e)) for e in read_entries(path)]
