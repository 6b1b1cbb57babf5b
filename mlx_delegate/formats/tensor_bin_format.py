"""The `.bin` tensor file of `mlxd-run` (and `mlxd-transcribe`'s features),
without torch: a FlatBuffer of `schema/tensor_file.fbs`, read and written through
the modules generated from it, with the checks the schema cannot say, and a
numpy reader (for machines with numpy but no torch, as the run side of
`python -m testbench.cuda_suite`). `mlx_delegate.formats.tensor_bin` builds its
torch reader and writer on these; runtime_cpp/src/runner/tensor_bin.cpp reads
and writes the same file through flatc's C++ header.

A file is one `TensorFile` (file identifier "MLXT", format `version` 2) holding
its `entries` in order: each a tensor or a scalar (an int / float / bool program
input or output: rank 0, dtype Int64 / Float64 / Bool), with its IR DType code,
dims and row-major little-endian bytes. A file of version 1 (the raw layout
before FlatBuffers, which also began with "MLXT") or of a version this build
does not know is refused with a message saying so.
"""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass
from pathlib import Path

from ._generated import dtypes as _dtypes
from ._generated import tensor_file_format

_schema, _reader = tensor_file_format()

MAGIC = _schema.FILE_IDENTIFIER  # b"MLXT": the file identifier, bytes 4..8
VERSION = 2  # the `TensorFile.version` this build reads and writes
RAW_LAYOUT_VERSION = 1  # the layout before FlatBuffers: b"MLXT" at 0, then uint32 1
KIND_TENSOR = int(_schema.EntryKind.Tensor)
KIND_SCALAR = int(_schema.EntryKind.Scalar)
MAX_FILE_BYTES = 2**31 - 1  # what one FlatBuffer can hold

# IR DType code -> the dtype table's entry (size and torch / numpy names).
DTYPE_INFO = {d.code: d for d in _dtypes().DTYPES}
CODE_BY_NAME = {d.torch: d.code for d in DTYPE_INFO.values()}  # "bfloat16" -> 2
BOOL, INT32, INT64, FLOAT64 = (CODE_BY_NAME[n] for n in ("bool", "int32", "int64", "float64"))

REWRITE = "write it again with mlx_delegate.formats.tensor_bin (write_tensors)"


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


def encode_entry(kind: int, code: int, dims, data: bytes):
    """One entry, as the generated `Entry` the file holds."""
    return _schema.Entry(
        kind=_schema.EntryKind(kind), dtype=code, dims=[int(d) for d in dims], data=bytes(data)
    )


def encode_scalar(value):
    """The entry of a Python bool / int / float."""
    if isinstance(value, bool):
        return encode_entry(KIND_SCALAR, BOOL, [], bytes([1 if value else 0]))
    if isinstance(value, int):
        return encode_entry(KIND_SCALAR, INT64, [], struct.pack("<q", value))
    if isinstance(value, float):
        return encode_entry(KIND_SCALAR, FLOAT64, [], struct.pack("<d", value))
    raise TensorFileError(f"cannot write a {type(value).__name__} (tensor, int, float, bool)")


def write_entries(path: str | Path, entries: list) -> None:
    """Writes entries (encode_entry / encode_scalar) as one file."""
    if sys.byteorder != "little":
        raise TensorFileError("the .bin format is little-endian; this host is not")
    size = sum(len(e.data) + 8 * len(e.dims) + 64 for e in entries) + 64
    if size > MAX_FILE_BYTES:
        raise TensorFileError(
            f"{path}: {size} bytes of tensors; a tensor file holds at most 2 GiB (one FlatBuffer)"
        )
    root = _schema.TensorFile(version=VERSION, entries=list(entries))
    Path(path).write_bytes(_schema.encode(root, initial_size=size))


def read_entries(path: str | Path) -> list[Entry]:
    """The entries of a file; rejects another format or version, a corrupt or
    truncated buffer, an unknown dtype code, a size that does not match the dims."""
    return parse(Path(path).read_bytes(), str(path))


def parse(buf: bytes, where: str) -> list[Entry]:
    if buf[:4] == MAGIC and len(buf) >= 8:
        (version,) = struct.unpack_from("<I", buf, 4)
        raise TensorFileError(
            f"{where} was written in the version-{version} raw layout; this build reads "
            f"version {VERSION} (a FlatBuffer of schema/tensor_file.fbs): {REWRITE}"
        )
    try:
        root = _reader.decode(buf)
    except _reader.DecodeError as error:
        raise TensorFileError(f"{where}: not a readable tensor file: {error}") from None
    if root.version != VERSION:
        written = f"format version {root.version}" if root.version else "no format version"
        raise TensorFileError(
            f"{where} has {written}; this build reads version {VERSION}: read it with the "
            f"mlx_delegate that wrote it, or {REWRITE}"
        )
    return [_checked(e, f"{where}: entry {i}") for i, e in enumerate(root.entries)]


def _checked(entry, where: str) -> Entry:
    dims = tuple(entry.dims or ())
    data = entry.data or b""
    info = DTYPE_INFO.get(entry.dtype)
    if info is None:
        raise TensorFileError(f"{where}: unknown dtype code {entry.dtype}")
    if any(d < 0 for d in dims):
        raise TensorFileError(f"{where}: negative dimension in {list(dims)}")
    if entry.kind == KIND_SCALAR and dims:
        raise TensorFileError(f"{where}: a scalar entry must have rank 0, not {len(dims)}")
    numel = 1
    for d in dims:
        numel *= d
    if len(data) != numel * info.bytes:
        raise TensorFileError(f"{where}: {len(data)} bytes for {info.torch} {list(dims)}")
    return Entry(int(entry.kind), entry.dtype, dims, data)


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
