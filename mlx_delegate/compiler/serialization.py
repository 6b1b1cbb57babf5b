"""The delegate payload, as the schema's `PayloadHeader` describes it: the
header, the IR FlatBuffer (root table MLXGraph, file identifier "MLXG"), zero
padding to ALIGNMENT bytes, and a data segment. The header's layout, magic,
alignment and the backend id are generated (generated/python/schema_payload.py);
this is the one Python reader and writer of it.

Constants do not travel in the data segment: they go through ExecuTorch's named
data map, so the runtime can wrap them without copying. The segment is kept in
the format for payloads that carry their own data."""

from __future__ import annotations

from dataclasses import dataclass

from ..formats._generated import payload as _payload
from ..formats.ir import schema

_facts = _payload()
BACKEND_ID = _facts.BACKEND_ID
MAGIC = _facts.MAGIC
HEADER = _facts.HEADER
HEADER_SIZE = _facts.HEADER_SIZE
ALIGNMENT = _facts.ALIGNMENT


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
    header = HEADER.pack(0, MAGIC, segment_offset, len(data_segment))
    return header + flatbuffer + b"\0" * _pad(body_end) + data_segment


def split(payload: bytes) -> Payload:
    """The same checks as the C++ reader (runtime_cpp's payload_header.h)."""
    if len(payload) < HEADER_SIZE:
        raise PayloadError(
            f"truncated MLX0 header: the payload has {len(payload)} bytes, "
            f"the header {HEADER_SIZE}"
        )
    zero, magic, segment_offset, segment_size = HEADER.unpack_from(payload)
    if zero != 0:
        raise PayloadError("payload header does not start with 4 zero bytes")
    if magic != MAGIC:
        raise PayloadError(f"bad payload magic {magic!r} (expected {MAGIC!r})")
    end = len(payload)
    if segment_offset or segment_size:
        if (
            segment_offset < HEADER_SIZE
            or segment_offset > len(payload)
            or segment_size > len(payload) - segment_offset
        ):
            raise PayloadError(
                f"MLX0 header: data segment [{segment_offset}, +{segment_size}) lies outside "
                f"the {len(payload)}-byte payload"
            )
        end = segment_offset
    return Payload(
        bytes(payload[HEADER_SIZE:end]),
        bytes(payload[segment_offset : segment_offset + segment_size]),
    )
