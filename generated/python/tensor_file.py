# generated from schema/tensor_file.fbs, do not edit
"""Dataclasses and a FlatBuffers serializer for the schema named above.

Build instances of the dataclasses below and call `encode(root)`, or mix
`Builders` into a class and call its `build_<Table>(builder, obj)` methods.
Needs nothing but the `flatbuffers` package at run time.
"""

from __future__ import annotations

import dataclasses as _dataclasses
import enum as _enum
import struct as _struct
import typing as _typing

import flatbuffers as _flatbuffers

_NAN = float("nan")
_INF = float("inf")

FILE_IDENTIFIER: bytes | None = b"MLXT"


class EntryKind(_enum.IntEnum):
    # A tensor of any rank.
    Tensor = 0
    # An int / float / bool program input or output: rank 0, dtype Int64,
    # Float64 or Bool.
    Scalar = 1


@_dataclasses.dataclass(kw_only=True)
class Entry:
    """table mlxd.tensor_file.Entry"""

    kind: EntryKind = EntryKind.Tensor
    # The IR's `mlxd.ir.DType` value (schema.fbs; its table also gives each
    # dtype's size and torch / numpy names). Kept a plain byte, not the enum:
    # including schema.fbs would copy the whole IR into this schema's modules.
    dtype: int = 0
    dims: list[int] | None = None
    # The elements, row-major (C-contiguous), little-endian: product(dims)
    # times the dtype's size bytes.
    data: list[int] | bytes | None = None


@_dataclasses.dataclass(kw_only=True)
class TensorFile:
    """table mlxd.tensor_file.TensorFile"""

    # The format version the writer used: 2 for this schema. Never left out
    # (0, the default, reads as "no version").
    version: int = 0
    entries: list[Entry]


def _scalars(builder, fmt, size, alignment, values):
    """A vector of scalars; `values` is a sequence of numbers, or a bytes-like
    object holding the little-endian elements."""
    if isinstance(values, (bytes, bytearray, memoryview)):
        if isinstance(values, memoryview) and values.itemsize not in (1, size):
            raise ValueError(
                "a buffer of %d-byte items for %d-byte elements" % (values.itemsize, size)
            )
        data = bytes(values)
        if len(data) % size:
            raise ValueError(
                "%d bytes is not a whole number of %d-byte elements" % (len(data), size)
            )
        count = len(data) // size
    else:
        count = len(values)
        data = _struct.pack("<%d%s" % (count, fmt), *values)
    builder.StartVector(size, count, alignment)
    builder.head = builder.head - len(data)
    builder.Bytes[builder.head : builder.head + len(data)] = data
    return builder.EndVector()


def _offsets(builder, offsets):
    """A vector of offsets to already written strings, tables or unions."""
    builder.StartVector(4, len(offsets), 4)
    for offset in reversed(offsets):
        builder.PrependUOffsetTRelative(offset)
    return builder.EndVector()


def _union_type(types, explicit, value, where):
    """The discriminant of a union value: `explicit` if given, else from the
    value's class."""
    if explicit is not None:
        return explicit
    kind = types.get(type(value))
    if kind is not None:
        return kind
    for cls, kind in types.items():
        if isinstance(value, cls):
            return kind
    raise TypeError("%s: %s is not a member of the union" % (where, type(value).__name__))


def _check_member(value, cls, where):
    if not isinstance(value, cls):
        raise TypeError("%s takes a %s, not %s" % (where, cls.__name__, type(value).__name__))


def _check_length(values, length, where):
    if len(values) != length:
        raise ValueError("%s: expected %d elements, got %d" % (where, length, len(values)))


class Builders:
    """Serializer mixin: one method per table (`build_<Table>`), struct
    (`write_<Struct>`) and union (`build_<Union>`). Each takes the
    `flatbuffers.Builder` to write into and returns the offset of what it wrote;
    nested values go through `self`, so a subclass may override any of them."""

    def build_Entry(self, builder, obj):
        """Write table mlxd.tensor_file.Entry; returns its offset."""
        o2 = None if obj.dims is None else _scalars(builder, "q", 8, 8, obj.dims)
        o3 = None if obj.data is None else _scalars(builder, "B", 1, 1, obj.data)
        builder.StartObject(4)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        if o3 is not None:
            builder.PrependUOffsetTRelativeSlot(3, o3, 0)
        builder.PrependUint8Slot(0, obj.kind, 0)
        builder.PrependInt8Slot(1, obj.dtype, 0)
        return builder.EndObject()

    def build_TensorFile(self, builder, obj):
        """Write table mlxd.tensor_file.TensorFile; returns its offset."""
        if obj.entries is None:
            raise ValueError("mlxd.tensor_file.TensorFile.entries is required")
        o1 = (
            None
            if obj.entries is None
            else _offsets(builder, [self.build_Entry(builder, x) for x in obj.entries])
        )
        builder.StartObject(2)
        builder.PrependUint32Slot(0, obj.version, 0)
        if o1 is not None:
            builder.PrependUOffsetTRelativeSlot(1, o1, 0)
        return builder.EndObject()


def encode(root, *, serializer=None, size_prefixed=False, force_defaults=False, initial_size=1024):
    """Serialize `root`, a `TensorFile` (the schema's root_type), to bytes, with
    the file identifier `FILE_IDENTIFIER`.

    `serializer` is the `Builders` instance to use (default `Builders()`);
    `force_defaults` writes scalars equal to their defaults too."""
    if not isinstance(root, TensorFile):
        raise TypeError("encode() takes a TensorFile, not %s" % (type(root).__name__,))
    builder = _flatbuffers.Builder(initial_size)
    builder.ForceDefaults(force_defaults)
    offset = (Builders() if serializer is None else serializer).build_TensorFile(builder, root)
    if size_prefixed:
        builder.FinishSizePrefixed(offset, FILE_IDENTIFIER)
    else:
        builder.Finish(offset, FILE_IDENTIFIER)
    return bytes(builder.Output())
