"""The Python writer and reader of the delegate payload (mlx_delegate/compiler/serialization.py);
the C++ reader's checks are exercised by tests/runtime_cpp/test_delegate.py."""

from __future__ import annotations

import pytest

from mlx_delegate.formats.ir import schema as ir
from mlx_delegate.compiler.serialization import (
    ALIGNMENT,
    HEADER,
    HEADER_SIZE,
    MAGIC,
    PayloadError,
    serialize,
    split,
)


def _graph():
    return ir.MLXGraph(instruction_chains=[ir.InstructionChain(instructions=[])])


def test_round_trip_with_a_data_segment():
    data = b"0123456789"
    payload = serialize(_graph(), data)
    _, magic, offset, size = HEADER.unpack_from(payload)
    assert magic == MAGIC and offset % ALIGNMENT == 0 and size == len(data)
    parts = split(payload)
    assert parts.data_segment == data
    assert parts.flatbuffer.rstrip(b"\0") == ir.encode(_graph()).rstrip(b"\0")


def test_no_segment_lets_the_flatbuffer_run_to_the_end():
    fb = ir.encode(_graph())
    parts = split(HEADER.pack(0, MAGIC, 0, 0) + fb)
    assert (parts.flatbuffer, parts.data_segment) == (fb, b"")


@pytest.mark.parametrize(
    "payload, message",
    [
        (b"\0" * 10, "truncated MLX0 header"),
        (HEADER.pack(1, MAGIC, 0, 0), "4 zero bytes"),
        (HEADER.pack(0, b"MLX9", 0, 0), "bad payload magic"),
        (HEADER.pack(0, MAGIC, 8, 0) + b"\0" * 16, "lies outside"),
        (HEADER.pack(0, MAGIC, HEADER_SIZE, 100) + b"\0" * 16, "lies outside"),
    ],
)
def test_malformed_headers_are_rejected(payload, message):
    with pytest.raises(PayloadError, match=message):
        split(payload)
