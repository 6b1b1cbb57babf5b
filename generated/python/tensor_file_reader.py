# generated from schema/tensor_file.fbs, do not edit
"""Reads FlatBuffers of the schema named above into the dataclasses of
`tensor_file.py`, the module beside this one (imported from this
module's package).

`decode(buf)` reads the root table. A malformed buffer (wrong file identifier,
truncated, an offset or length out of bounds, a required field left out, text
that is not UTF-8, an unknown enum value) raises `DecodeError`, whose message
names the table and field; never an IndexError or struct.error. Needs nothing
but the standard library and that module at run time.
"""

from __future__ import annotations

import struct as _struct

from . import tensor_file as _types

_NAN = float("nan")
_INF = float("inf")


class DecodeError(ValueError):
    """A buffer that is not a well-formed FlatBuffer of this schema."""


def _as_buffer(buf):
    if isinstance(buf, memoryview):
        return buf.cast("B") if buf.format != "B" else buf
    if isinstance(buf, (bytes, bytearray)):
        return buf
    raise TypeError("decode() takes bytes, not %s" % (type(buf).__name__,))


def _unpack(buf, fmt, pos, where):
    """`struct.unpack_from` that says where a read past either end of `buf` was."""
    if pos < 0 or pos + _struct.calcsize(fmt) > len(buf):
        raise DecodeError(
            "%s: %d bytes at offset %d lie outside the %d-byte buffer (truncated or corrupt)"
            % (where, _struct.calcsize(fmt), pos, len(buf))
        )
    return _struct.unpack_from(fmt, buf, pos)


def _follow(buf, pos, where):
    """Where the offset stored at `pos` points."""
    target = pos + _unpack(buf, "<I", pos, where)[0]
    if target + 4 > len(buf):
        raise DecodeError(
            "%s: an offset points to %d, past the end of the %d-byte buffer (truncated or corrupt)"
            % (where, target, len(buf))
        )
    return target


def _root_start(buf, size_prefixed, root, identifier):
    """Where the root offset is, once the buffer's size and identifier check out."""
    start = 4 if size_prefixed else 0
    need = start + (8 if identifier is not None else 4)
    if len(buf) < need:
        raise DecodeError("a %d-byte buffer is too short to hold a %s" % (len(buf), root))
    if size_prefixed:
        size = _unpack(buf, "<I", 0, root)[0]
        if size != len(buf) - 4:
            raise DecodeError(
                "the size prefix says %d bytes follow, the buffer has %d" % (size, len(buf) - 4)
            )
    if identifier is not None and bytes(buf[start + 4 : start + 8]) != identifier:
        raise DecodeError(
            "not a %s buffer: its file identifier is %r, expected %r"
            % (root, bytes(buf[start + 4 : start + 8]), identifier)
        )
    return start


def _vector(buf, pos, size, where):
    """(first element's position, count) of the vector at `pos`, elements of `size` bytes."""
    count = _unpack(buf, "<I", pos, where)[0]
    if pos + 4 + count * size > len(buf):
        raise DecodeError(
            "%s: a vector of %d elements at offset %d runs past the end of the %d-byte buffer"
            " (truncated or corrupt)" % (where, count, pos, len(buf))
        )
    return pos + 4, count


def _string(buf, pos, where):
    start, length = _vector(buf, pos, 1, where)
    try:
        return bytes(buf[start : start + length]).decode("utf-8")
    except UnicodeDecodeError as error:
        raise DecodeError("%s: the string is not UTF-8 (%s)" % (where, error)) from None


def _enum(cls, value, where):
    if value is None:
        return None
    try:
        return cls(value)
    except ValueError:
        raise DecodeError("%s: %r is no value of %s" % (where, value, cls.__name__)) from None


def _enums(cls, values, where):
    return None if values is None else [_enum(cls, v, where) for v in values]


def _required(value, where):
    """`value`; a required field's (for a union: its discriminant) must be there."""
    if value is None:
        raise DecodeError("%s is required, and the buffer leaves it out" % (where,))
    return value


class _Table:
    """The table at `pos`, its vtable checked to lie inside the buffer. Each
    method reads one field by its vtable slot: None (or the scalar's default)
    when the table leaves it out."""

    __slots__ = ("buf", "pos", "vtable", "vtable_size", "size")

    def __init__(self, buf, pos, name):
        self.buf, self.pos = buf, pos
        self.vtable = pos - _unpack(buf, "<i", pos, name)[0]
        self.vtable_size, self.size = _unpack(buf, "<HH", self.vtable, name + " (vtable)")
        if (
            self.vtable_size < 4
            or self.vtable_size % 2
            or self.vtable + self.vtable_size > len(buf)
            or self.size < 4
            or pos + self.size > len(buf)
        ):
            raise DecodeError(
                "%s: the table at offset %d has a malformed vtable (truncated or corrupt)"
                % (name, pos)
            )

    def field(self, slot, size, where):
        """The position of a field's `size` bytes in the table, or None."""
        entry = 4 + 2 * slot
        if entry >= self.vtable_size:
            return None
        offset = _struct.unpack_from("<H", self.buf, self.vtable + entry)[0]
        if offset == 0:
            return None
        if offset + size > self.size:
            raise DecodeError("%s: the field lies outside its table" % (where,))
        return self.pos + offset

    def scalar(self, slot, fmt, size, default, where):
        at = self.field(slot, size, where)
        return default if at is None else _struct.unpack_from(fmt, self.buf, at)[0]

    def struct(self, slot, size, read, where):
        at = self.field(slot, size, where)
        return None if at is None else read(self.buf, at)

    def offset(self, slot, where):
        at = self.field(slot, 4, where)
        return None if at is None else _follow(self.buf, at, where)

    def string(self, slot, where):
        at = self.offset(slot, where)
        return None if at is None else _string(self.buf, at, where)

    def table(self, slot, read, where):
        at = self.offset(slot, where)
        return None if at is None else read(self.buf, at)

    def union(self, slot, type_slot, read, where):
        """(discriminant, value); (None, None) when the table leaves it out."""
        at = self.offset(slot, where)
        kind = self.scalar(type_slot, "<B", 1, 0, where)
        if at is None or kind == 0:
            return None, None
        return read(self.buf, kind, at)

    def bytes(self, slot, where):
        at = self.offset(slot, where)
        if at is None:
            return None
        start, count = _vector(self.buf, at, 1, where)
        return bytes(self.buf[start : start + count])

    def scalars(self, slot, fmt, size, where):
        at = self.offset(slot, where)
        if at is None:
            return None
        start, count = _vector(self.buf, at, size, where)
        return list(_struct.unpack_from("<%d%s" % (count, fmt), self.buf, start))

    def strings(self, slot, where):
        at = self.offset(slot, where)
        if at is None:
            return None
        start, count = _vector(self.buf, at, 4, where)
        return [
            _string(self.buf, _follow(self.buf, start + 4 * i, where), where) for i in range(count)
        ]

    def tables(self, slot, read, where):
        at = self.offset(slot, where)
        if at is None:
            return None
        start, count = _vector(self.buf, at, 4, where)
        return [read(self.buf, _follow(self.buf, start + 4 * i, where)) for i in range(count)]

    def structs(self, slot, size, read, where):
        at = self.offset(slot, where)
        if at is None:
            return None
        start, count = _vector(self.buf, at, size, where)
        return [read(self.buf, start + size * i) for i in range(count)]


def _read_Entry(buf, pos):
    t = _Table(buf, pos, "mlxd.tensor_file.Entry")
    v0 = _enum(
        _types.EntryKind,
        t.scalar(0, "<B", 1, 0, "mlxd.tensor_file.Entry.kind"),
        "mlxd.tensor_file.Entry.kind",
    )
    v1 = t.scalar(1, "<b", 1, 0, "mlxd.tensor_file.Entry.dtype")
    v2 = t.scalars(2, "q", 8, "mlxd.tensor_file.Entry.dims")
    v3 = t.bytes(3, "mlxd.tensor_file.Entry.data")
    return _types.Entry(
        kind=v0,
        dtype=v1,
        dims=v2,
        data=v3,
    )


def _read_TensorFile(buf, pos):
    t = _Table(buf, pos, "mlxd.tensor_file.TensorFile")
    v0 = t.scalar(0, "<I", 4, 0, "mlxd.tensor_file.TensorFile.version")
    v1 = _required(
        t.tables(1, _read_Entry, "mlxd.tensor_file.TensorFile.entries"),
        "mlxd.tensor_file.TensorFile.entries",
    )
    return _types.TensorFile(
        version=v0,
        entries=v1,
    )


def decode(buf, *, size_prefixed=False):
    """The `TensorFile` (the schema's root_type) that `buf` holds,
    after checking its file identifier. `size_prefixed`: `buf` starts
    with its length, as `encode(..., size_prefixed=True)` writes it."""
    buf = _as_buffer(buf)
    start = _root_start(buf, size_prefixed, "mlxd.tensor_file.TensorFile", _types.FILE_IDENTIFIER)
    try:
        return _read_TensorFile(buf, _follow(buf, start, "mlxd.tensor_file.TensorFile"))
    except RecursionError:
        raise DecodeError("the buffer nests tables deeper than Python can follow") from None
