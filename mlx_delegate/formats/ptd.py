"""Writes ExecuTorch's external data file (`.ptd`, the FlatTensor format) one
tensor at a time.

ExecuTorch's own serializer builds the whole file in memory before writing it;
for an LLM's weights that is one more copy of the model. Here the layout
(offsets and sizes) is computed from the declared sizes first, the header and
the table of contents written, then each segment made, written and dropped.

The format (ExecuTorch's `extension/flat_tensor/serialize/flat_tensor.fbs`):
a flatbuffer whose root table `FlatTensor {version, segments, named_data}` has
the file identifier "FT01" (several keys may name one segment); right after the identifier sits a 48-byte header
("FH01", its length, the flatbuffer's offset and size, the segments' base offset
and total size); the segments follow at the base offset, each aligned."""

from __future__ import annotations

import hashlib
import os
import struct
from pathlib import Path
from typing import Callable, Iterable, Optional

import flatbuffers

FILE_IDENTIFIER = b"FT01"
HEADER_MAGIC = b"FH01"
HEADER_LENGTH = 40  # magic, length, flatbuffer offset and size, segment base and size
HEADER_SPAN = 48  # the header padded to the flatbuffer's 16-byte alignment
VERSION = 0
# ExecuTorch's own alignment for .ptd segments; MLX wraps a constant in place when
# it is 16-byte aligned (preprocess.CONSTANT_ALIGNMENT).
SEGMENT_ALIGNMENT = 128

# (key, size in bytes, a function returning the bytes (any buffer): made when written)
Entry = tuple[str, int, Callable[[], object]]


class DataFileError(ValueError):
    pass


def _aligned(n: int, alignment: int) -> int:
    return (n + alignment - 1) // alignment * alignment


def _table_of_contents(
    keys: list[str], offsets: list[int], sizes: list[int], indices: Optional[list[int]] = None
) -> bytes:
    """The FlatTensor flatbuffer: key i names segment `indices[i]` (default: i)."""
    b = flatbuffers.Builder(1024 + 64 * len(keys))
    # Zeros too: a field left out for its default would change the table's size.
    b.ForceDefaults(True)
    named = []
    for index, key in zip(indices or range(len(keys)), keys):
        name = b.CreateString(key)
        b.StartObject(3)  # NamedData {key, segment_index, tensor_layout}
        b.PrependUOffsetTRelativeSlot(0, name, 0)
        b.PrependUint32Slot(1, index, 0)
        named.append(b.EndObject())
    segments = []
    for offset, size in zip(offsets, sizes):
        b.StartObject(2)  # DataSegment {offset, size}
        b.PrependUint64Slot(0, offset, 0)
        b.PrependUint64Slot(1, size, 0)
        segments.append(b.EndObject())
    vectors = []
    for tables in (segments, named):
        b.StartVector(4, len(tables), 4)
        for table in reversed(tables):
            b.PrependUOffsetTRelative(table)
        vectors.append(b.EndVector())
    b.StartObject(3)  # FlatTensor {version, segments, named_data}
    b.PrependUint32Slot(0, VERSION, 0)
    b.PrependUOffsetTRelativeSlot(1, vectors[0], 0)
    b.PrependUOffsetTRelativeSlot(2, vectors[1], 0)
    b.Finish(b.EndObject(), file_identifier=FILE_IDENTIFIER)
    return bytes(b.Output())


def write(
    path: Path, entries: Iterable[Entry], on_written: Optional[Callable[[int], None]] = None
) -> int:
    """Writes `entries` to `path` (through a temporary file beside it, renamed
    at the end: a failure leaves no half-written file); returns the file's size.
    Equal contents are stored once (a tied embedding and LM head, say): the
    segments are written first, after room for the table of contents, which is
    written last. `on_written(n)` is told the bytes of each entry made."""
    entries = list(entries)
    keys = [key for key, _, _ in entries]
    if len(set(keys)) != len(keys):
        raise DataFileError("duplicate keys in the data file")
    # The table with one segment per key is the largest it can be.
    room = len(_table_of_contents(keys, [0] * len(keys), [0] * len(keys))) + HEADER_SPAN
    base = _aligned(room, SEGMENT_ALIGNMENT)
    path = Path(path)
    partial = path.with_name(path.name + ".partial")
    try:
        with open(partial, "wb") as f:
            indices, offsets, sizes = _write_segments(f, base, entries, on_written)
            end = offsets[-1] + sizes[-1] if offsets else 0
            toc = _table_of_contents(keys, offsets, sizes, indices)
            f.seek(0)
            f.write(_head(toc, base, end))
            f.truncate(base + end)
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return base + end


def _write_segments(f, base: int, entries: list[Entry], on_written):
    """Writes each entry's bytes from `base` on, a segment per distinct content;
    returns (each key's segment index, the segments' offsets and sizes)."""
    indices, offsets, sizes, seen = [], [], [], {}
    end = 0
    for key, size, make in entries:
        data = memoryview(make()).cast("B")
        if data.nbytes != size:
            raise DataFileError(f"{key}: made {data.nbytes} bytes, declared {size}")
        digest = hashlib.blake2b(data, digest_size=20).digest()
        if digest not in seen:
            seen[digest] = len(offsets)
            offsets.append(_aligned(end, SEGMENT_ALIGNMENT))
            sizes.append(size)
            f.seek(base + offsets[-1])
            f.write(data)
            end = offsets[-1] + size
        indices.append(seen[digest])
        del data
        if on_written:
            on_written(size)
    return indices, offsets, sizes


def _head(toc: bytes, base: int, end: int) -> bytes:
    """The table of contents with the header inserted after its file identifier."""
    header = struct.pack("<4sIQQQQ", HEADER_MAGIC, HEADER_LENGTH, HEADER_SPAN, len(toc), base, end)
    root = struct.unpack_from("<I", toc)[0] + HEADER_SPAN
    head = struct.pack("<I", root) + toc[4:8] + header.ljust(HEADER_SPAN, b"\0") + toc[8:]
    if len(head) > base:
        raise DataFileError("the table of contents outgrew its room")  # cannot happen
    return head
