"""The delegate payload: a 24-byte header, the IR FlatBuffer, padding to 16
bytes, and a data segment.

    offset 0   4 bytes  zero
    offset 4   4 bytes  magic b"MLX0"
    offset 8   uint64   data segment offset (from the start of the payload), LE
    offset 16  uint64   data segment size, LE
    offset 24  the FlatBuffer (root table MLXGraph, file identifier "MLXG")

Constants do not travel in the data segment: they go through ExecuTorch's named
data map, so the runtime can wrap them without copying. The segment is kept in
the format for payloads that carry their own data."""

from __future__ import annotations

import struct
from dataclasses import dataclass

from .ir import schema

MAGIC = b"MLX0"
HEADER = struct.Struct("<4s4sQQ")
HEADER_SIZE = HEADER.size  # 24
ALIGNMENT = 16


class PayloadError(ValueError):
    """A payload that is not an MLX delegate payload; the message says why."""


@dataclass(frozen=True)
class Payload:
    flatbuffer: bytes
    data_segment: bytes


def _pad(size: int) -> int:
    return -size % ALIGNMENT


def serialize(graph, data_segment: bytes = b"") -> bytes:
    flatbuffer = schema.encode(graph)
    body_end = HEADER_SIZE + len(flatbuffer)
    segment_offset = body_end + _pad(body_end)
    header = HEADER.pack(b"\0\0\0\0", MAGIC, segment_offset, len(data_segment))
    return header + flatbuffer + b"\0" * _pad(body_end) + data_segment


def split(payload: bytes) -> Payload:
    if len(payload) < HEADER_SIZE:
        raise PayloadError(f"payload is {len(payload)} bytes, shorter than the {HEADER_SIZE}-byte header")
    zero, magic, segment_offset, segment_size = HEADER.unpack_from(payload)
    if magic != MAGIC or zero != b"\0\0\0\0":
        raise PayloadError(f"payload does not start with the MLX0 header (magic {magic!r})")
    if segment_offset < HEADER_SIZE or segment_offset + segment_size > len(payload):
        raise PayloadError(
            f"data segment [{segment_offset}, {segment_offset + segment_size}) lies outside "
            f"the {len(payload)}-byte payload"
        )
    return Payload(bytes(payload[HEADER_SIZE:segment_offset]), bytes(payload[segment_offset:][:segment_size]))
