# generated from schema/schema.fbs, do not edit
"""Reads FlatBuffers of the schema named above into the dataclasses of
`schema.py`, the module beside this one (imported from this
module's package).

`decode(buf)` reads the root table. A malformed buffer (wrong file identifier,
truncated, an offset or length out of bounds, a required field left out, text
that is not UTF-8, an unknown enum value) raises `DecodeError`, whose message
names the table and field; never an IndexError or struct.error. Needs nothing
but the standard library and that module at run time.
"""

from __future__ import annotations

import struct as _struct

from . import schema as _types

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


def _read_Tid(buf, pos):
    """struct mlxd.ir.Tid, 4 bytes at `pos` (the caller checked they are there)."""
    return _types.Tid(
        idx=_struct.unpack_from("<I", buf, pos)[0],
    )


def _read_Vid(buf, pos):
    """struct mlxd.ir.Vid, 4 bytes at `pos` (the caller checked they are there)."""
    return _types.Vid(
        idx=_struct.unpack_from("<I", buf, pos)[0],
    )


def _read_IntOrVid(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.IntOrVid")
    v0 = t.scalar(0, "<q", 8, 0, "mlxd.ir.IntOrVid.literal")
    v1 = t.struct(1, 4, _read_Vid, "mlxd.ir.IntOrVid.vid")
    return _types.IntOrVid(
        literal=v0,
        vid=v1,
    )


def _read_FloatOrVid(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.FloatOrVid")
    v0 = t.scalar(0, "<d", 8, 0.0, "mlxd.ir.FloatOrVid.literal")
    v1 = t.struct(1, 4, _read_Vid, "mlxd.ir.FloatOrVid.vid")
    return _types.FloatOrVid(
        literal=v0,
        vid=v1,
    )


def _read_TidOrVid(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.TidOrVid")
    v0 = t.struct(0, 4, _read_Tid, "mlxd.ir.TidOrVid.tid")
    v1 = t.struct(1, 4, _read_Vid, "mlxd.ir.TidOrVid.vid")
    return _types.TidOrVid(
        tid=v0,
        vid=v1,
    )


def _read_SlotRef(buf, pos):
    """struct mlxd.ir.SlotRef, 8 bytes at `pos` (the caller checked they are there)."""
    return _types.SlotRef(
        kind=_enum(_types.SlotKind, _struct.unpack_from("<B", buf, pos)[0], "mlxd.ir.SlotRef.kind"),
        idx=_struct.unpack_from("<I", buf, pos + 4)[0],
    )


def _read_TensorMeta(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.TensorMeta")
    v0 = t.tables(0, _read_IntOrVid, "mlxd.ir.TensorMeta.shape")
    v1 = _enum(
        _types.DType,
        t.scalar(1, "<b", 1, 0, "mlxd.ir.TensorMeta.dtype"),
        "mlxd.ir.TensorMeta.dtype",
    )
    return _types.TensorMeta(
        shape=v0,
        dtype=v1,
    )


def _read_NamedSlot(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.NamedSlot")
    v0 = _required(t.string(0, "mlxd.ir.NamedSlot.name"), "mlxd.ir.NamedSlot.name")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.NamedSlot.slot"), "mlxd.ir.NamedSlot.slot")
    return _types.NamedSlot(
        name=v0,
        slot=v1,
    )


def _read_AddNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.AddNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.AddNode.a"), "mlxd.ir.AddNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.AddNode.b"), "mlxd.ir.AddNode.b")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.AddNode.out"), "mlxd.ir.AddNode.out")
    return _types.AddNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_SubtractNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SubtractNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SubtractNode.a"), "mlxd.ir.SubtractNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SubtractNode.b"), "mlxd.ir.SubtractNode.b")
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.SubtractNode.out"), "mlxd.ir.SubtractNode.out"
    )
    return _types.SubtractNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_MultiplyNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.MultiplyNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.MultiplyNode.a"), "mlxd.ir.MultiplyNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.MultiplyNode.b"), "mlxd.ir.MultiplyNode.b")
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.MultiplyNode.out"), "mlxd.ir.MultiplyNode.out"
    )
    return _types.MultiplyNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_DivideNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.DivideNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.DivideNode.a"), "mlxd.ir.DivideNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.DivideNode.b"), "mlxd.ir.DivideNode.b")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.DivideNode.out"), "mlxd.ir.DivideNode.out")
    v3 = _enum(
        _types.DivRounding,
        t.scalar(3, "<b", 1, 0, "mlxd.ir.DivideNode.rounding"),
        "mlxd.ir.DivideNode.rounding",
    )
    return _types.DivideNode(
        a=v0,
        b=v1,
        out=v2,
        rounding=v3,
    )


def _read_PowerNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.PowerNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.PowerNode.a"), "mlxd.ir.PowerNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.PowerNode.b"), "mlxd.ir.PowerNode.b")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.PowerNode.out"), "mlxd.ir.PowerNode.out")
    return _types.PowerNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_MaximumNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.MaximumNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.MaximumNode.a"), "mlxd.ir.MaximumNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.MaximumNode.b"), "mlxd.ir.MaximumNode.b")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.MaximumNode.out"), "mlxd.ir.MaximumNode.out")
    return _types.MaximumNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_MinimumNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.MinimumNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.MinimumNode.a"), "mlxd.ir.MinimumNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.MinimumNode.b"), "mlxd.ir.MinimumNode.b")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.MinimumNode.out"), "mlxd.ir.MinimumNode.out")
    return _types.MinimumNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_EqualNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.EqualNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.EqualNode.a"), "mlxd.ir.EqualNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.EqualNode.b"), "mlxd.ir.EqualNode.b")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.EqualNode.out"), "mlxd.ir.EqualNode.out")
    return _types.EqualNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_NotEqualNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.NotEqualNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.NotEqualNode.a"), "mlxd.ir.NotEqualNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.NotEqualNode.b"), "mlxd.ir.NotEqualNode.b")
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.NotEqualNode.out"), "mlxd.ir.NotEqualNode.out"
    )
    return _types.NotEqualNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_LessNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LessNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.LessNode.a"), "mlxd.ir.LessNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.LessNode.b"), "mlxd.ir.LessNode.b")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.LessNode.out"), "mlxd.ir.LessNode.out")
    return _types.LessNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_LessEqualNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LessEqualNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.LessEqualNode.a"), "mlxd.ir.LessEqualNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.LessEqualNode.b"), "mlxd.ir.LessEqualNode.b")
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.LessEqualNode.out"), "mlxd.ir.LessEqualNode.out"
    )
    return _types.LessEqualNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_GreaterNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.GreaterNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.GreaterNode.a"), "mlxd.ir.GreaterNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.GreaterNode.b"), "mlxd.ir.GreaterNode.b")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.GreaterNode.out"), "mlxd.ir.GreaterNode.out")
    return _types.GreaterNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_GreaterEqualNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.GreaterEqualNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.GreaterEqualNode.a"), "mlxd.ir.GreaterEqualNode.a"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.GreaterEqualNode.b"), "mlxd.ir.GreaterEqualNode.b"
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.GreaterEqualNode.out"), "mlxd.ir.GreaterEqualNode.out"
    )
    return _types.GreaterEqualNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_LogicalAndNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LogicalAndNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.LogicalAndNode.a"), "mlxd.ir.LogicalAndNode.a"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.LogicalAndNode.b"), "mlxd.ir.LogicalAndNode.b"
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.LogicalAndNode.out"), "mlxd.ir.LogicalAndNode.out"
    )
    return _types.LogicalAndNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_LogicalOrNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LogicalOrNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.LogicalOrNode.a"), "mlxd.ir.LogicalOrNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.LogicalOrNode.b"), "mlxd.ir.LogicalOrNode.b")
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.LogicalOrNode.out"), "mlxd.ir.LogicalOrNode.out"
    )
    return _types.LogicalOrNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_NegNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.NegNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.NegNode.x"), "mlxd.ir.NegNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.NegNode.out"), "mlxd.ir.NegNode.out")
    return _types.NegNode(
        x=v0,
        out=v1,
    )


def _read_AbsNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.AbsNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.AbsNode.x"), "mlxd.ir.AbsNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.AbsNode.out"), "mlxd.ir.AbsNode.out")
    return _types.AbsNode(
        x=v0,
        out=v1,
    )


def _read_ExpNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ExpNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ExpNode.x"), "mlxd.ir.ExpNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ExpNode.out"), "mlxd.ir.ExpNode.out")
    return _types.ExpNode(
        x=v0,
        out=v1,
    )


def _read_LogNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LogNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.LogNode.x"), "mlxd.ir.LogNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.LogNode.out"), "mlxd.ir.LogNode.out")
    return _types.LogNode(
        x=v0,
        out=v1,
    )


def _read_SqrtNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SqrtNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SqrtNode.x"), "mlxd.ir.SqrtNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SqrtNode.out"), "mlxd.ir.SqrtNode.out")
    return _types.SqrtNode(
        x=v0,
        out=v1,
    )


def _read_RsqrtNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.RsqrtNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.RsqrtNode.x"), "mlxd.ir.RsqrtNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.RsqrtNode.out"), "mlxd.ir.RsqrtNode.out")
    return _types.RsqrtNode(
        x=v0,
        out=v1,
    )


def _read_SinNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SinNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SinNode.x"), "mlxd.ir.SinNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SinNode.out"), "mlxd.ir.SinNode.out")
    return _types.SinNode(
        x=v0,
        out=v1,
    )


def _read_CosNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.CosNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.CosNode.x"), "mlxd.ir.CosNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.CosNode.out"), "mlxd.ir.CosNode.out")
    return _types.CosNode(
        x=v0,
        out=v1,
    )


def _read_TanhNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.TanhNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.TanhNode.x"), "mlxd.ir.TanhNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.TanhNode.out"), "mlxd.ir.TanhNode.out")
    return _types.TanhNode(
        x=v0,
        out=v1,
    )


def _read_SigmoidNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SigmoidNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SigmoidNode.x"), "mlxd.ir.SigmoidNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SigmoidNode.out"), "mlxd.ir.SigmoidNode.out")
    return _types.SigmoidNode(
        x=v0,
        out=v1,
    )


def _read_ErfNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ErfNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ErfNode.x"), "mlxd.ir.ErfNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ErfNode.out"), "mlxd.ir.ErfNode.out")
    return _types.ErfNode(
        x=v0,
        out=v1,
    )


def _read_FloorNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.FloorNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.FloorNode.x"), "mlxd.ir.FloorNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.FloorNode.out"), "mlxd.ir.FloorNode.out")
    return _types.FloorNode(
        x=v0,
        out=v1,
    )


def _read_CeilNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.CeilNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.CeilNode.x"), "mlxd.ir.CeilNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.CeilNode.out"), "mlxd.ir.CeilNode.out")
    return _types.CeilNode(
        x=v0,
        out=v1,
    )


def _read_RoundNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.RoundNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.RoundNode.x"), "mlxd.ir.RoundNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.RoundNode.out"), "mlxd.ir.RoundNode.out")
    v2 = t.scalar(2, "<i", 4, 0, "mlxd.ir.RoundNode.decimals")
    return _types.RoundNode(
        x=v0,
        out=v1,
        decimals=v2,
    )


def _read_ReciprocalNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ReciprocalNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.ReciprocalNode.x"), "mlxd.ir.ReciprocalNode.x"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.ReciprocalNode.out"), "mlxd.ir.ReciprocalNode.out"
    )
    return _types.ReciprocalNode(
        x=v0,
        out=v1,
    )


def _read_LogicalNotNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LogicalNotNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.LogicalNotNode.x"), "mlxd.ir.LogicalNotNode.x"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.LogicalNotNode.out"), "mlxd.ir.LogicalNotNode.out"
    )
    return _types.LogicalNotNode(
        x=v0,
        out=v1,
    )


def _read_ReluNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ReluNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ReluNode.x"), "mlxd.ir.ReluNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ReluNode.out"), "mlxd.ir.ReluNode.out")
    return _types.ReluNode(
        x=v0,
        out=v1,
    )


def _read_SiluNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SiluNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SiluNode.x"), "mlxd.ir.SiluNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SiluNode.out"), "mlxd.ir.SiluNode.out")
    return _types.SiluNode(
        x=v0,
        out=v1,
    )


def _read_GeluNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.GeluNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.GeluNode.x"), "mlxd.ir.GeluNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.GeluNode.out"), "mlxd.ir.GeluNode.out")
    v2 = _enum(
        _types.GeluApproximation,
        t.scalar(2, "<b", 1, 0, "mlxd.ir.GeluNode.approximation"),
        "mlxd.ir.GeluNode.approximation",
    )
    return _types.GeluNode(
        x=v0,
        out=v1,
        approximation=v2,
    )


def _read_LeakyReluNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LeakyReluNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.LeakyReluNode.x"), "mlxd.ir.LeakyReluNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.LeakyReluNode.out"), "mlxd.ir.LeakyReluNode.out"
    )
    v2 = t.scalar(2, "<f", 4, 0.01, "mlxd.ir.LeakyReluNode.negative_slope")
    return _types.LeakyReluNode(
        x=v0,
        out=v1,
        negative_slope=v2,
    )


def _read_ClipNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ClipNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ClipNode.x"), "mlxd.ir.ClipNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ClipNode.out"), "mlxd.ir.ClipNode.out")
    v2 = t.table(2, _read_TidOrVid, "mlxd.ir.ClipNode.min")
    v3 = t.table(3, _read_TidOrVid, "mlxd.ir.ClipNode.max")
    return _types.ClipNode(
        x=v0,
        out=v1,
        min=v2,
        max=v3,
    )


def _read_WhereNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.WhereNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.WhereNode.condition"), "mlxd.ir.WhereNode.condition"
    )
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.WhereNode.a"), "mlxd.ir.WhereNode.a")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.WhereNode.b"), "mlxd.ir.WhereNode.b")
    v3 = _required(t.struct(3, 4, _read_Tid, "mlxd.ir.WhereNode.out"), "mlxd.ir.WhereNode.out")
    return _types.WhereNode(
        condition=v0,
        a=v1,
        b=v2,
        out=v3,
    )


def _read_AsTypeNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.AsTypeNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.AsTypeNode.x"), "mlxd.ir.AsTypeNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.AsTypeNode.out"), "mlxd.ir.AsTypeNode.out")
    v2 = _enum(
        _types.DType,
        t.scalar(2, "<b", 1, 0, "mlxd.ir.AsTypeNode.dtype"),
        "mlxd.ir.AsTypeNode.dtype",
    )
    return _types.AsTypeNode(
        x=v0,
        out=v1,
        dtype=v2,
    )


def _read_CopyNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.CopyNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.CopyNode.x"), "mlxd.ir.CopyNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.CopyNode.out"), "mlxd.ir.CopyNode.out")
    return _types.CopyNode(
        x=v0,
        out=v1,
    )


def _read_SumNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SumNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SumNode.x"), "mlxd.ir.SumNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SumNode.out"), "mlxd.ir.SumNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.SumNode.axes")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.SumNode.keepdims")
    return _types.SumNode(
        x=v0,
        out=v1,
        axes=v2,
        keepdims=v3,
    )


def _read_MeanNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.MeanNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.MeanNode.x"), "mlxd.ir.MeanNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.MeanNode.out"), "mlxd.ir.MeanNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.MeanNode.axes")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.MeanNode.keepdims")
    return _types.MeanNode(
        x=v0,
        out=v1,
        axes=v2,
        keepdims=v3,
    )


def _read_MaxNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.MaxNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.MaxNode.x"), "mlxd.ir.MaxNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.MaxNode.out"), "mlxd.ir.MaxNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.MaxNode.axes")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.MaxNode.keepdims")
    return _types.MaxNode(
        x=v0,
        out=v1,
        axes=v2,
        keepdims=v3,
    )


def _read_MinNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.MinNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.MinNode.x"), "mlxd.ir.MinNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.MinNode.out"), "mlxd.ir.MinNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.MinNode.axes")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.MinNode.keepdims")
    return _types.MinNode(
        x=v0,
        out=v1,
        axes=v2,
        keepdims=v3,
    )


def _read_ProdNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ProdNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ProdNode.x"), "mlxd.ir.ProdNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ProdNode.out"), "mlxd.ir.ProdNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.ProdNode.axes")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.ProdNode.keepdims")
    return _types.ProdNode(
        x=v0,
        out=v1,
        axes=v2,
        keepdims=v3,
    )


def _read_AnyNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.AnyNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.AnyNode.x"), "mlxd.ir.AnyNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.AnyNode.out"), "mlxd.ir.AnyNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.AnyNode.axes")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.AnyNode.keepdims")
    return _types.AnyNode(
        x=v0,
        out=v1,
        axes=v2,
        keepdims=v3,
    )


def _read_AllNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.AllNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.AllNode.x"), "mlxd.ir.AllNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.AllNode.out"), "mlxd.ir.AllNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.AllNode.axes")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.AllNode.keepdims")
    return _types.AllNode(
        x=v0,
        out=v1,
        axes=v2,
        keepdims=v3,
    )


def _read_VarNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.VarNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.VarNode.x"), "mlxd.ir.VarNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.VarNode.out"), "mlxd.ir.VarNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.VarNode.axes")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.VarNode.keepdims")
    v4 = t.scalar(4, "<i", 4, 1, "mlxd.ir.VarNode.ddof")
    return _types.VarNode(
        x=v0,
        out=v1,
        axes=v2,
        keepdims=v3,
        ddof=v4,
    )


def _read_StdNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.StdNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.StdNode.x"), "mlxd.ir.StdNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.StdNode.out"), "mlxd.ir.StdNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.StdNode.axes")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.StdNode.keepdims")
    v4 = t.scalar(4, "<i", 4, 1, "mlxd.ir.StdNode.ddof")
    return _types.StdNode(
        x=v0,
        out=v1,
        axes=v2,
        keepdims=v3,
        ddof=v4,
    )


def _read_ArgMaxNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ArgMaxNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ArgMaxNode.x"), "mlxd.ir.ArgMaxNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ArgMaxNode.out"), "mlxd.ir.ArgMaxNode.out")
    v2 = t.scalar(2, "<i", 4, None, "mlxd.ir.ArgMaxNode.axis")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.ArgMaxNode.keepdims")
    return _types.ArgMaxNode(
        x=v0,
        out=v1,
        axis=v2,
        keepdims=v3,
    )


def _read_ArgMinNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ArgMinNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ArgMinNode.x"), "mlxd.ir.ArgMinNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ArgMinNode.out"), "mlxd.ir.ArgMinNode.out")
    v2 = t.scalar(2, "<i", 4, None, "mlxd.ir.ArgMinNode.axis")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.ArgMinNode.keepdims")
    return _types.ArgMinNode(
        x=v0,
        out=v1,
        axis=v2,
        keepdims=v3,
    )


def _read_CumSumNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.CumSumNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.CumSumNode.x"), "mlxd.ir.CumSumNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.CumSumNode.out"), "mlxd.ir.CumSumNode.out")
    v2 = t.scalar(2, "<i", 4, 0, "mlxd.ir.CumSumNode.axis")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.CumSumNode.reverse")
    return _types.CumSumNode(
        x=v0,
        out=v1,
        axis=v2,
        reverse=v3,
    )


def _read_SoftmaxNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SoftmaxNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SoftmaxNode.x"), "mlxd.ir.SoftmaxNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SoftmaxNode.out"), "mlxd.ir.SoftmaxNode.out")
    v2 = t.scalar(2, "<i", 4, -1, "mlxd.ir.SoftmaxNode.axis")
    return _types.SoftmaxNode(
        x=v0,
        out=v1,
        axis=v2,
    )


def _read_LogSoftmaxNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LogSoftmaxNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.LogSoftmaxNode.x"), "mlxd.ir.LogSoftmaxNode.x"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.LogSoftmaxNode.out"), "mlxd.ir.LogSoftmaxNode.out"
    )
    v2 = t.scalar(2, "<i", 4, -1, "mlxd.ir.LogSoftmaxNode.axis")
    return _types.LogSoftmaxNode(
        x=v0,
        out=v1,
        axis=v2,
    )


def _read_LinearNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LinearNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.LinearNode.x"), "mlxd.ir.LinearNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.LinearNode.weight"), "mlxd.ir.LinearNode.weight"
    )
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.LinearNode.out"), "mlxd.ir.LinearNode.out")
    v3 = t.struct(3, 4, _read_Tid, "mlxd.ir.LinearNode.bias")
    return _types.LinearNode(
        x=v0,
        weight=v1,
        out=v2,
        bias=v3,
    )


def _read_AddmmNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.AddmmNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.AddmmNode.bias"), "mlxd.ir.AddmmNode.bias")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.AddmmNode.mat1"), "mlxd.ir.AddmmNode.mat1")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.AddmmNode.mat2"), "mlxd.ir.AddmmNode.mat2")
    v3 = _required(t.struct(3, 4, _read_Tid, "mlxd.ir.AddmmNode.out"), "mlxd.ir.AddmmNode.out")
    v4 = t.scalar(4, "<f", 4, 1.0, "mlxd.ir.AddmmNode.alpha")
    v5 = t.scalar(5, "<f", 4, 1.0, "mlxd.ir.AddmmNode.beta")
    return _types.AddmmNode(
        bias=v0,
        mat1=v1,
        mat2=v2,
        out=v3,
        alpha=v4,
        beta=v5,
    )


def _read_MatmulNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.MatmulNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.MatmulNode.a"), "mlxd.ir.MatmulNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.MatmulNode.b"), "mlxd.ir.MatmulNode.b")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.MatmulNode.out"), "mlxd.ir.MatmulNode.out")
    return _types.MatmulNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_QuantizedLinearNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.QuantizedLinearNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.QuantizedLinearNode.x"), "mlxd.ir.QuantizedLinearNode.x"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.QuantizedLinearNode.w"), "mlxd.ir.QuantizedLinearNode.w"
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.QuantizedLinearNode.scales"),
        "mlxd.ir.QuantizedLinearNode.scales",
    )
    v3 = t.struct(3, 4, _read_Tid, "mlxd.ir.QuantizedLinearNode.biases")
    v4 = _required(
        t.struct(4, 4, _read_Tid, "mlxd.ir.QuantizedLinearNode.out"),
        "mlxd.ir.QuantizedLinearNode.out",
    )
    v5 = t.struct(5, 4, _read_Tid, "mlxd.ir.QuantizedLinearNode.bias")
    v6 = t.scalar(6, "<i", 4, 64, "mlxd.ir.QuantizedLinearNode.group_size")
    v7 = t.scalar(7, "<i", 4, 4, "mlxd.ir.QuantizedLinearNode.bits")
    v8 = _enum(
        _types.QuantMode,
        t.scalar(8, "<b", 1, 0, "mlxd.ir.QuantizedLinearNode.mode"),
        "mlxd.ir.QuantizedLinearNode.mode",
    )
    v9 = t.struct(9, 4, _read_Tid, "mlxd.ir.QuantizedLinearNode.tensor_scale")
    v10 = t.scalar(10, "<?", 1, True, "mlxd.ir.QuantizedLinearNode.transpose")
    return _types.QuantizedLinearNode(
        x=v0,
        w=v1,
        scales=v2,
        biases=v3,
        out=v4,
        bias=v5,
        group_size=v6,
        bits=v7,
        mode=v8,
        tensor_scale=v9,
        transpose=v10,
    )


def _read_DequantizeNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.DequantizeNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.DequantizeNode.w"), "mlxd.ir.DequantizeNode.w"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.DequantizeNode.scales"), "mlxd.ir.DequantizeNode.scales"
    )
    v2 = t.struct(2, 4, _read_Tid, "mlxd.ir.DequantizeNode.biases")
    v3 = _required(
        t.struct(3, 4, _read_Tid, "mlxd.ir.DequantizeNode.out"), "mlxd.ir.DequantizeNode.out"
    )
    v4 = t.scalar(4, "<i", 4, 64, "mlxd.ir.DequantizeNode.group_size")
    v5 = t.scalar(5, "<i", 4, 4, "mlxd.ir.DequantizeNode.bits")
    v6 = _enum(
        _types.QuantMode,
        t.scalar(6, "<b", 1, 0, "mlxd.ir.DequantizeNode.mode"),
        "mlxd.ir.DequantizeNode.mode",
    )
    v7 = t.struct(7, 4, _read_Tid, "mlxd.ir.DequantizeNode.tensor_scale")
    return _types.DequantizeNode(
        w=v0,
        scales=v1,
        biases=v2,
        out=v3,
        group_size=v4,
        bits=v5,
        mode=v6,
        tensor_scale=v7,
    )


def _read_GatherMMNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.GatherMMNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.GatherMMNode.a"), "mlxd.ir.GatherMMNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.GatherMMNode.b"), "mlxd.ir.GatherMMNode.b")
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.GatherMMNode.out"), "mlxd.ir.GatherMMNode.out"
    )
    v3 = t.struct(3, 4, _read_Tid, "mlxd.ir.GatherMMNode.lhs_indices")
    v4 = t.struct(4, 4, _read_Tid, "mlxd.ir.GatherMMNode.rhs_indices")
    v5 = t.scalar(5, "<?", 1, False, "mlxd.ir.GatherMMNode.sorted_indices")
    return _types.GatherMMNode(
        a=v0,
        b=v1,
        out=v2,
        lhs_indices=v3,
        rhs_indices=v4,
        sorted_indices=v5,
    )


def _read_GatherQMMNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.GatherQMMNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.GatherQMMNode.x"), "mlxd.ir.GatherQMMNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.GatherQMMNode.w"), "mlxd.ir.GatherQMMNode.w")
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.GatherQMMNode.scales"), "mlxd.ir.GatherQMMNode.scales"
    )
    v3 = t.struct(3, 4, _read_Tid, "mlxd.ir.GatherQMMNode.biases")
    v4 = _required(
        t.struct(4, 4, _read_Tid, "mlxd.ir.GatherQMMNode.out"), "mlxd.ir.GatherQMMNode.out"
    )
    v5 = t.struct(5, 4, _read_Tid, "mlxd.ir.GatherQMMNode.lhs_indices")
    v6 = t.struct(6, 4, _read_Tid, "mlxd.ir.GatherQMMNode.rhs_indices")
    v7 = t.scalar(7, "<?", 1, True, "mlxd.ir.GatherQMMNode.transpose")
    v8 = t.scalar(8, "<i", 4, 64, "mlxd.ir.GatherQMMNode.group_size")
    v9 = t.scalar(9, "<i", 4, 4, "mlxd.ir.GatherQMMNode.bits")
    v10 = t.scalar(10, "<?", 1, False, "mlxd.ir.GatherQMMNode.sorted_indices")
    v11 = _enum(
        _types.QuantMode,
        t.scalar(11, "<b", 1, 0, "mlxd.ir.GatherQMMNode.mode"),
        "mlxd.ir.GatherQMMNode.mode",
    )
    return _types.GatherQMMNode(
        x=v0,
        w=v1,
        scales=v2,
        biases=v3,
        out=v4,
        lhs_indices=v5,
        rhs_indices=v6,
        transpose=v7,
        group_size=v8,
        bits=v9,
        sorted_indices=v10,
        mode=v11,
    )


def _read_LayerNormNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LayerNormNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.LayerNormNode.x"), "mlxd.ir.LayerNormNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.LayerNormNode.out"), "mlxd.ir.LayerNormNode.out"
    )
    v2 = t.struct(2, 4, _read_Tid, "mlxd.ir.LayerNormNode.weight")
    v3 = t.struct(3, 4, _read_Tid, "mlxd.ir.LayerNormNode.bias")
    v4 = t.scalar(4, "<f", 4, 1e-05, "mlxd.ir.LayerNormNode.eps")
    v5 = t.scalar(5, "<i", 4, 1, "mlxd.ir.LayerNormNode.num_axes")
    v6 = t.struct(6, 4, _read_Tid, "mlxd.ir.LayerNormNode.mean_out")
    v7 = t.struct(7, 4, _read_Tid, "mlxd.ir.LayerNormNode.rstd_out")
    return _types.LayerNormNode(
        x=v0,
        out=v1,
        weight=v2,
        bias=v3,
        eps=v4,
        num_axes=v5,
        mean_out=v6,
        rstd_out=v7,
    )


def _read_RmsNormNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.RmsNormNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.RmsNormNode.x"), "mlxd.ir.RmsNormNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.RmsNormNode.out"), "mlxd.ir.RmsNormNode.out")
    v2 = t.struct(2, 4, _read_Tid, "mlxd.ir.RmsNormNode.weight")
    v3 = t.scalar(3, "<f", 4, 1e-06, "mlxd.ir.RmsNormNode.eps")
    return _types.RmsNormNode(
        x=v0,
        out=v1,
        weight=v2,
        eps=v3,
    )


def _read_ConvNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ConvNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ConvNode.x"), "mlxd.ir.ConvNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ConvNode.weight"), "mlxd.ir.ConvNode.weight")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.ConvNode.out"), "mlxd.ir.ConvNode.out")
    v3 = t.struct(3, 4, _read_Tid, "mlxd.ir.ConvNode.bias")
    v4 = t.scalars(4, "i", 4, "mlxd.ir.ConvNode.stride")
    v5 = t.scalars(5, "i", 4, "mlxd.ir.ConvNode.padding")
    v6 = t.scalars(6, "i", 4, "mlxd.ir.ConvNode.dilation")
    v7 = t.scalar(7, "<i", 4, 1, "mlxd.ir.ConvNode.groups")
    v8 = t.scalar(8, "<?", 1, False, "mlxd.ir.ConvNode.transposed")
    v9 = t.scalars(9, "i", 4, "mlxd.ir.ConvNode.output_padding")
    return _types.ConvNode(
        x=v0,
        weight=v1,
        out=v2,
        bias=v3,
        stride=v4,
        padding=v5,
        dilation=v6,
        groups=v7,
        transposed=v8,
        output_padding=v9,
    )


def _read_ScaledDotProductAttentionNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ScaledDotProductAttentionNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.ScaledDotProductAttentionNode.q"),
        "mlxd.ir.ScaledDotProductAttentionNode.q",
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.ScaledDotProductAttentionNode.k"),
        "mlxd.ir.ScaledDotProductAttentionNode.k",
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.ScaledDotProductAttentionNode.v"),
        "mlxd.ir.ScaledDotProductAttentionNode.v",
    )
    v3 = _required(
        t.struct(3, 4, _read_Tid, "mlxd.ir.ScaledDotProductAttentionNode.out"),
        "mlxd.ir.ScaledDotProductAttentionNode.out",
    )
    v4 = t.struct(4, 4, _read_Tid, "mlxd.ir.ScaledDotProductAttentionNode.mask")
    v5 = t.scalar(5, "<f", 4, 0.0, "mlxd.ir.ScaledDotProductAttentionNode.scale")
    v6 = t.scalar(6, "<?", 1, False, "mlxd.ir.ScaledDotProductAttentionNode.causal")
    v7 = t.scalar(7, "<?", 1, False, "mlxd.ir.ScaledDotProductAttentionNode.lower_right")
    return _types.ScaledDotProductAttentionNode(
        q=v0,
        k=v1,
        v=v2,
        out=v3,
        mask=v4,
        scale=v5,
        causal=v6,
        lower_right=v7,
    )


def _read_RopeNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.RopeNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.RopeNode.x"), "mlxd.ir.RopeNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.RopeNode.out"), "mlxd.ir.RopeNode.out")
    v2 = t.scalar(2, "<i", 4, 0, "mlxd.ir.RopeNode.dims")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.RopeNode.traditional")
    v4 = t.scalar(4, "<f", 4, 10000.0, "mlxd.ir.RopeNode.base")
    v5 = t.scalar(5, "<f", 4, 1.0, "mlxd.ir.RopeNode.scale")
    v6 = _required(t.struct(6, 4, _read_Tid, "mlxd.ir.RopeNode.offset"), "mlxd.ir.RopeNode.offset")
    v7 = t.struct(7, 4, _read_Tid, "mlxd.ir.RopeNode.freqs")
    return _types.RopeNode(
        x=v0,
        out=v1,
        dims=v2,
        traditional=v3,
        base=v4,
        scale=v5,
        offset=v6,
        freqs=v7,
    )


def _read_ReshapeNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ReshapeNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ReshapeNode.x"), "mlxd.ir.ReshapeNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ReshapeNode.out"), "mlxd.ir.ReshapeNode.out")
    v2 = t.tables(2, _read_IntOrVid, "mlxd.ir.ReshapeNode.shape")
    return _types.ReshapeNode(
        x=v0,
        out=v1,
        shape=v2,
    )


def _read_TransposeNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.TransposeNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.TransposeNode.x"), "mlxd.ir.TransposeNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.TransposeNode.out"), "mlxd.ir.TransposeNode.out"
    )
    v2 = t.scalars(2, "i", 4, "mlxd.ir.TransposeNode.perm")
    return _types.TransposeNode(
        x=v0,
        out=v1,
        perm=v2,
    )


def _read_ExpandDimsNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ExpandDimsNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.ExpandDimsNode.x"), "mlxd.ir.ExpandDimsNode.x"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.ExpandDimsNode.out"), "mlxd.ir.ExpandDimsNode.out"
    )
    v2 = t.scalars(2, "i", 4, "mlxd.ir.ExpandDimsNode.axes")
    return _types.ExpandDimsNode(
        x=v0,
        out=v1,
        axes=v2,
    )


def _read_SqueezeNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SqueezeNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SqueezeNode.x"), "mlxd.ir.SqueezeNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SqueezeNode.out"), "mlxd.ir.SqueezeNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.SqueezeNode.axes")
    return _types.SqueezeNode(
        x=v0,
        out=v1,
        axes=v2,
    )


def _read_BroadcastToNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.BroadcastToNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.BroadcastToNode.x"), "mlxd.ir.BroadcastToNode.x"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.BroadcastToNode.out"), "mlxd.ir.BroadcastToNode.out"
    )
    v2 = t.tables(2, _read_IntOrVid, "mlxd.ir.BroadcastToNode.shape")
    return _types.BroadcastToNode(
        x=v0,
        out=v1,
        shape=v2,
    )


def _read_SliceNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SliceNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SliceNode.x"), "mlxd.ir.SliceNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SliceNode.out"), "mlxd.ir.SliceNode.out")
    v2 = t.scalar(2, "<i", 4, 0, "mlxd.ir.SliceNode.axis")
    v3 = t.table(3, _read_IntOrVid, "mlxd.ir.SliceNode.start")
    v4 = t.table(4, _read_IntOrVid, "mlxd.ir.SliceNode.stop")
    v5 = t.scalar(5, "<i", 4, 1, "mlxd.ir.SliceNode.step")
    return _types.SliceNode(
        x=v0,
        out=v1,
        axis=v2,
        start=v3,
        stop=v4,
        step=v5,
    )


def _read_SelectNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SelectNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SelectNode.x"), "mlxd.ir.SelectNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SelectNode.out"), "mlxd.ir.SelectNode.out")
    v2 = t.scalar(2, "<i", 4, 0, "mlxd.ir.SelectNode.axis")
    v3 = _required(
        t.table(3, _read_IntOrVid, "mlxd.ir.SelectNode.index"), "mlxd.ir.SelectNode.index"
    )
    return _types.SelectNode(
        x=v0,
        out=v1,
        axis=v2,
        index=v3,
    )


def _read_ConcatenateNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ConcatenateNode")
    v0 = _required(
        t.structs(0, 4, _read_Tid, "mlxd.ir.ConcatenateNode.inputs"),
        "mlxd.ir.ConcatenateNode.inputs",
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.ConcatenateNode.out"), "mlxd.ir.ConcatenateNode.out"
    )
    v2 = t.scalar(2, "<i", 4, 0, "mlxd.ir.ConcatenateNode.axis")
    return _types.ConcatenateNode(
        inputs=v0,
        out=v1,
        axis=v2,
    )


def _read_StackNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.StackNode")
    v0 = _required(
        t.structs(0, 4, _read_Tid, "mlxd.ir.StackNode.inputs"), "mlxd.ir.StackNode.inputs"
    )
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.StackNode.out"), "mlxd.ir.StackNode.out")
    v2 = t.scalar(2, "<i", 4, 0, "mlxd.ir.StackNode.axis")
    return _types.StackNode(
        inputs=v0,
        out=v1,
        axis=v2,
    )


def _read_SplitNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SplitNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SplitNode.x"), "mlxd.ir.SplitNode.x")
    v1 = _required(t.structs(1, 4, _read_Tid, "mlxd.ir.SplitNode.outs"), "mlxd.ir.SplitNode.outs")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.SplitNode.sizes")
    v3 = t.scalar(3, "<i", 4, 0, "mlxd.ir.SplitNode.axis")
    return _types.SplitNode(
        x=v0,
        outs=v1,
        sizes=v2,
        axis=v3,
    )


def _read_TileNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.TileNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.TileNode.x"), "mlxd.ir.TileNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.TileNode.out"), "mlxd.ir.TileNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.TileNode.reps")
    return _types.TileNode(
        x=v0,
        out=v1,
        reps=v2,
    )


def _read_FlipNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.FlipNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.FlipNode.x"), "mlxd.ir.FlipNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.FlipNode.out"), "mlxd.ir.FlipNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.FlipNode.axes")
    return _types.FlipNode(
        x=v0,
        out=v1,
        axes=v2,
    )


def _read_PadNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.PadNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.PadNode.x"), "mlxd.ir.PadNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.PadNode.out"), "mlxd.ir.PadNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.PadNode.pad")
    v3 = t.scalar(3, "<d", 8, 0.0, "mlxd.ir.PadNode.value")
    return _types.PadNode(
        x=v0,
        out=v1,
        pad=v2,
        value=v3,
    )


def _read_TrilNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.TrilNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.TrilNode.x"), "mlxd.ir.TrilNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.TrilNode.out"), "mlxd.ir.TrilNode.out")
    v2 = t.scalar(2, "<i", 4, 0, "mlxd.ir.TrilNode.k")
    return _types.TrilNode(
        x=v0,
        out=v1,
        k=v2,
    )


def _read_TriuNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.TriuNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.TriuNode.x"), "mlxd.ir.TriuNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.TriuNode.out"), "mlxd.ir.TriuNode.out")
    v2 = t.scalar(2, "<i", 4, 0, "mlxd.ir.TriuNode.k")
    return _types.TriuNode(
        x=v0,
        out=v1,
        k=v2,
    )


def _read_TakeNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.TakeNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.TakeNode.x"), "mlxd.ir.TakeNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.TakeNode.indices"), "mlxd.ir.TakeNode.indices"
    )
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.TakeNode.out"), "mlxd.ir.TakeNode.out")
    v3 = t.scalar(3, "<i", 4, 0, "mlxd.ir.TakeNode.axis")
    return _types.TakeNode(
        x=v0,
        indices=v1,
        out=v2,
        axis=v3,
    )


def _read_TakeAlongAxisNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.TakeAlongAxisNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.TakeAlongAxisNode.x"), "mlxd.ir.TakeAlongAxisNode.x"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.TakeAlongAxisNode.indices"),
        "mlxd.ir.TakeAlongAxisNode.indices",
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.TakeAlongAxisNode.out"), "mlxd.ir.TakeAlongAxisNode.out"
    )
    v3 = t.scalar(3, "<i", 4, 0, "mlxd.ir.TakeAlongAxisNode.axis")
    return _types.TakeAlongAxisNode(
        x=v0,
        indices=v1,
        out=v2,
        axis=v3,
    )


def _read_IndexNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.IndexNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.IndexNode.x"), "mlxd.ir.IndexNode.x")
    v1 = _required(
        t.structs(1, 4, _read_Tid, "mlxd.ir.IndexNode.indices"), "mlxd.ir.IndexNode.indices"
    )
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.IndexNode.out"), "mlxd.ir.IndexNode.out")
    return _types.IndexNode(
        x=v0,
        indices=v1,
        out=v2,
    )


def _read_ScatterNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ScatterNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ScatterNode.x"), "mlxd.ir.ScatterNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.ScatterNode.indices"), "mlxd.ir.ScatterNode.indices"
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.ScatterNode.updates"), "mlxd.ir.ScatterNode.updates"
    )
    v3 = _required(t.struct(3, 4, _read_Tid, "mlxd.ir.ScatterNode.out"), "mlxd.ir.ScatterNode.out")
    v4 = t.scalar(4, "<i", 4, 0, "mlxd.ir.ScatterNode.axis")
    return _types.ScatterNode(
        x=v0,
        indices=v1,
        updates=v2,
        out=v3,
        axis=v4,
    )


def _read_ScatterAddNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ScatterAddNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.ScatterAddNode.x"), "mlxd.ir.ScatterAddNode.x"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.ScatterAddNode.indices"),
        "mlxd.ir.ScatterAddNode.indices",
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.ScatterAddNode.updates"),
        "mlxd.ir.ScatterAddNode.updates",
    )
    v3 = _required(
        t.struct(3, 4, _read_Tid, "mlxd.ir.ScatterAddNode.out"), "mlxd.ir.ScatterAddNode.out"
    )
    v4 = t.scalar(4, "<i", 4, 0, "mlxd.ir.ScatterAddNode.axis")
    return _types.ScatterAddNode(
        x=v0,
        indices=v1,
        updates=v2,
        out=v3,
        axis=v4,
    )


def _read_SliceUpdateNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SliceUpdateNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.SliceUpdateNode.target"),
        "mlxd.ir.SliceUpdateNode.target",
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.SliceUpdateNode.update"),
        "mlxd.ir.SliceUpdateNode.update",
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.SliceUpdateNode.out"), "mlxd.ir.SliceUpdateNode.out"
    )
    v3 = t.scalar(3, "<i", 4, 0, "mlxd.ir.SliceUpdateNode.axis")
    v4 = _required(
        t.table(4, _read_IntOrVid, "mlxd.ir.SliceUpdateNode.start"), "mlxd.ir.SliceUpdateNode.start"
    )
    return _types.SliceUpdateNode(
        target=v0,
        update=v1,
        out=v2,
        axis=v3,
        start=v4,
    )


def _read_ArangeNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ArangeNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ArangeNode.out"), "mlxd.ir.ArangeNode.out")
    v1 = t.table(1, _read_FloatOrVid, "mlxd.ir.ArangeNode.start")
    v2 = _required(
        t.table(2, _read_FloatOrVid, "mlxd.ir.ArangeNode.stop"), "mlxd.ir.ArangeNode.stop"
    )
    v3 = t.table(3, _read_FloatOrVid, "mlxd.ir.ArangeNode.step")
    v4 = _enum(
        _types.DType,
        t.scalar(4, "<b", 1, 0, "mlxd.ir.ArangeNode.dtype"),
        "mlxd.ir.ArangeNode.dtype",
    )
    return _types.ArangeNode(
        out=v0,
        start=v1,
        stop=v2,
        step=v3,
        dtype=v4,
    )


def _read_FullNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.FullNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.FullNode.out"), "mlxd.ir.FullNode.out")
    v1 = t.tables(1, _read_IntOrVid, "mlxd.ir.FullNode.shape")
    v2 = _required(t.table(2, _read_FloatOrVid, "mlxd.ir.FullNode.value"), "mlxd.ir.FullNode.value")
    v3 = _enum(
        _types.DType, t.scalar(3, "<b", 1, 0, "mlxd.ir.FullNode.dtype"), "mlxd.ir.FullNode.dtype"
    )
    return _types.FullNode(
        out=v0,
        shape=v1,
        value=v2,
        dtype=v3,
    )


def _read_FullLikeNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.FullLikeNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.FullLikeNode.x"), "mlxd.ir.FullLikeNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.FullLikeNode.out"), "mlxd.ir.FullLikeNode.out"
    )
    v2 = t.scalar(2, "<d", 8, 0.0, "mlxd.ir.FullLikeNode.value")
    v3 = _enum(
        _types.DType,
        t.scalar(3, "<b", 1, None, "mlxd.ir.FullLikeNode.dtype"),
        "mlxd.ir.FullLikeNode.dtype",
    )
    return _types.FullLikeNode(
        x=v0,
        out=v1,
        value=v2,
        dtype=v3,
    )


def _read_SymSizeNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SymSizeNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SymSizeNode.x"), "mlxd.ir.SymSizeNode.x")
    v1 = t.scalar(1, "<i", 4, 0, "mlxd.ir.SymSizeNode.dim")
    v2 = _required(t.struct(2, 4, _read_Vid, "mlxd.ir.SymSizeNode.out"), "mlxd.ir.SymSizeNode.out")
    return _types.SymSizeNode(
        x=v0,
        dim=v1,
        out=v2,
    )


def _read_ItemNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ItemNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ItemNode.x"), "mlxd.ir.ItemNode.x")
    v1 = _required(t.struct(1, 4, _read_Vid, "mlxd.ir.ItemNode.out"), "mlxd.ir.ItemNode.out")
    return _types.ItemNode(
        x=v0,
        out=v1,
    )


def _read_IntBinaryNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.IntBinaryNode")
    v0 = _enum(
        _types.IntBinaryOp,
        t.scalar(0, "<b", 1, 0, "mlxd.ir.IntBinaryNode.op"),
        "mlxd.ir.IntBinaryNode.op",
    )
    v1 = _required(t.table(1, _read_IntOrVid, "mlxd.ir.IntBinaryNode.a"), "mlxd.ir.IntBinaryNode.a")
    v2 = _required(t.table(2, _read_IntOrVid, "mlxd.ir.IntBinaryNode.b"), "mlxd.ir.IntBinaryNode.b")
    v3 = _required(
        t.struct(3, 4, _read_Vid, "mlxd.ir.IntBinaryNode.out"), "mlxd.ir.IntBinaryNode.out"
    )
    return _types.IntBinaryNode(
        op=v0,
        a=v1,
        b=v2,
        out=v3,
    )


def _read_IndexPutNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.IndexPutNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.IndexPutNode.x"), "mlxd.ir.IndexPutNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.IndexPutNode.indices"), "mlxd.ir.IndexPutNode.indices"
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.IndexPutNode.values"), "mlxd.ir.IndexPutNode.values"
    )
    v3 = _required(
        t.struct(3, 4, _read_Tid, "mlxd.ir.IndexPutNode.out"), "mlxd.ir.IndexPutNode.out"
    )
    v4 = t.scalar(4, "<i", 4, 0, "mlxd.ir.IndexPutNode.axis")
    return _types.IndexPutNode(
        x=v0,
        indices=v1,
        values=v2,
        out=v3,
        axis=v4,
    )


def _read_TanNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.TanNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.TanNode.x"), "mlxd.ir.TanNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.TanNode.out"), "mlxd.ir.TanNode.out")
    return _types.TanNode(
        x=v0,
        out=v1,
    )


def _read_SinhNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SinhNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SinhNode.x"), "mlxd.ir.SinhNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SinhNode.out"), "mlxd.ir.SinhNode.out")
    return _types.SinhNode(
        x=v0,
        out=v1,
    )


def _read_CoshNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.CoshNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.CoshNode.x"), "mlxd.ir.CoshNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.CoshNode.out"), "mlxd.ir.CoshNode.out")
    return _types.CoshNode(
        x=v0,
        out=v1,
    )


def _read_ArcSinNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ArcSinNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ArcSinNode.x"), "mlxd.ir.ArcSinNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ArcSinNode.out"), "mlxd.ir.ArcSinNode.out")
    return _types.ArcSinNode(
        x=v0,
        out=v1,
    )


def _read_ArcCosNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ArcCosNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ArcCosNode.x"), "mlxd.ir.ArcCosNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ArcCosNode.out"), "mlxd.ir.ArcCosNode.out")
    return _types.ArcCosNode(
        x=v0,
        out=v1,
    )


def _read_ArcTanNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ArcTanNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ArcTanNode.x"), "mlxd.ir.ArcTanNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ArcTanNode.out"), "mlxd.ir.ArcTanNode.out")
    return _types.ArcTanNode(
        x=v0,
        out=v1,
    )


def _read_ArcSinhNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ArcSinhNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ArcSinhNode.x"), "mlxd.ir.ArcSinhNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ArcSinhNode.out"), "mlxd.ir.ArcSinhNode.out")
    return _types.ArcSinhNode(
        x=v0,
        out=v1,
    )


def _read_ArcCoshNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ArcCoshNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ArcCoshNode.x"), "mlxd.ir.ArcCoshNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ArcCoshNode.out"), "mlxd.ir.ArcCoshNode.out")
    return _types.ArcCoshNode(
        x=v0,
        out=v1,
    )


def _read_ArcTanhNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ArcTanhNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ArcTanhNode.x"), "mlxd.ir.ArcTanhNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ArcTanhNode.out"), "mlxd.ir.ArcTanhNode.out")
    return _types.ArcTanhNode(
        x=v0,
        out=v1,
    )


def _read_Log2Node(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.Log2Node")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.Log2Node.x"), "mlxd.ir.Log2Node.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.Log2Node.out"), "mlxd.ir.Log2Node.out")
    return _types.Log2Node(
        x=v0,
        out=v1,
    )


def _read_Log10Node(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.Log10Node")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.Log10Node.x"), "mlxd.ir.Log10Node.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.Log10Node.out"), "mlxd.ir.Log10Node.out")
    return _types.Log10Node(
        x=v0,
        out=v1,
    )


def _read_Log1pNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.Log1pNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.Log1pNode.x"), "mlxd.ir.Log1pNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.Log1pNode.out"), "mlxd.ir.Log1pNode.out")
    return _types.Log1pNode(
        x=v0,
        out=v1,
    )


def _read_Expm1Node(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.Expm1Node")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.Expm1Node.x"), "mlxd.ir.Expm1Node.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.Expm1Node.out"), "mlxd.ir.Expm1Node.out")
    return _types.Expm1Node(
        x=v0,
        out=v1,
    )


def _read_SignNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SignNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SignNode.x"), "mlxd.ir.SignNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SignNode.out"), "mlxd.ir.SignNode.out")
    return _types.SignNode(
        x=v0,
        out=v1,
    )


def _read_TruncNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.TruncNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.TruncNode.x"), "mlxd.ir.TruncNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.TruncNode.out"), "mlxd.ir.TruncNode.out")
    return _types.TruncNode(
        x=v0,
        out=v1,
    )


def _read_SquareNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SquareNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SquareNode.x"), "mlxd.ir.SquareNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.SquareNode.out"), "mlxd.ir.SquareNode.out")
    return _types.SquareNode(
        x=v0,
        out=v1,
    )


def _read_IsNanNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.IsNanNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.IsNanNode.x"), "mlxd.ir.IsNanNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.IsNanNode.out"), "mlxd.ir.IsNanNode.out")
    return _types.IsNanNode(
        x=v0,
        out=v1,
    )


def _read_IsInfNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.IsInfNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.IsInfNode.x"), "mlxd.ir.IsInfNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.IsInfNode.out"), "mlxd.ir.IsInfNode.out")
    return _types.IsInfNode(
        x=v0,
        out=v1,
    )


def _read_IsPosInfNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.IsPosInfNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.IsPosInfNode.x"), "mlxd.ir.IsPosInfNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.IsPosInfNode.out"), "mlxd.ir.IsPosInfNode.out"
    )
    return _types.IsPosInfNode(
        x=v0,
        out=v1,
    )


def _read_IsNegInfNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.IsNegInfNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.IsNegInfNode.x"), "mlxd.ir.IsNegInfNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.IsNegInfNode.out"), "mlxd.ir.IsNegInfNode.out"
    )
    return _types.IsNegInfNode(
        x=v0,
        out=v1,
    )


def _read_BitwiseNotNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.BitwiseNotNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.BitwiseNotNode.x"), "mlxd.ir.BitwiseNotNode.x"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.BitwiseNotNode.out"), "mlxd.ir.BitwiseNotNode.out"
    )
    return _types.BitwiseNotNode(
        x=v0,
        out=v1,
    )


def _read_BitwiseAndNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.BitwiseAndNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.BitwiseAndNode.a"), "mlxd.ir.BitwiseAndNode.a"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.BitwiseAndNode.b"), "mlxd.ir.BitwiseAndNode.b"
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.BitwiseAndNode.out"), "mlxd.ir.BitwiseAndNode.out"
    )
    return _types.BitwiseAndNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_BitwiseOrNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.BitwiseOrNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.BitwiseOrNode.a"), "mlxd.ir.BitwiseOrNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.BitwiseOrNode.b"), "mlxd.ir.BitwiseOrNode.b")
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.BitwiseOrNode.out"), "mlxd.ir.BitwiseOrNode.out"
    )
    return _types.BitwiseOrNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_BitwiseXorNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.BitwiseXorNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.BitwiseXorNode.a"), "mlxd.ir.BitwiseXorNode.a"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.BitwiseXorNode.b"), "mlxd.ir.BitwiseXorNode.b"
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.BitwiseXorNode.out"), "mlxd.ir.BitwiseXorNode.out"
    )
    return _types.BitwiseXorNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_ArcTan2Node(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.ArcTan2Node")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.ArcTan2Node.a"), "mlxd.ir.ArcTan2Node.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.ArcTan2Node.b"), "mlxd.ir.ArcTan2Node.b")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.ArcTan2Node.out"), "mlxd.ir.ArcTan2Node.out")
    return _types.ArcTan2Node(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_LogAddExpNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LogAddExpNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.LogAddExpNode.a"), "mlxd.ir.LogAddExpNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.LogAddExpNode.b"), "mlxd.ir.LogAddExpNode.b")
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.LogAddExpNode.out"), "mlxd.ir.LogAddExpNode.out"
    )
    return _types.LogAddExpNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_RemainderNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.RemainderNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.RemainderNode.a"), "mlxd.ir.RemainderNode.a")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.RemainderNode.b"), "mlxd.ir.RemainderNode.b")
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.RemainderNode.out"), "mlxd.ir.RemainderNode.out"
    )
    return _types.RemainderNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_LogSumExpNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LogSumExpNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.LogSumExpNode.x"), "mlxd.ir.LogSumExpNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.LogSumExpNode.out"), "mlxd.ir.LogSumExpNode.out"
    )
    v2 = t.scalars(2, "i", 4, "mlxd.ir.LogSumExpNode.axes")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.LogSumExpNode.keepdims")
    return _types.LogSumExpNode(
        x=v0,
        out=v1,
        axes=v2,
        keepdims=v3,
    )


def _read_CumProdNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.CumProdNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.CumProdNode.x"), "mlxd.ir.CumProdNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.CumProdNode.out"), "mlxd.ir.CumProdNode.out")
    v2 = t.scalar(2, "<i", 4, 0, "mlxd.ir.CumProdNode.axis")
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.CumProdNode.reverse")
    return _types.CumProdNode(
        x=v0,
        out=v1,
        axis=v2,
        reverse=v3,
    )


def _read_SortNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SortNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.SortNode.x"), "mlxd.ir.SortNode.x")
    v1 = t.struct(1, 4, _read_Tid, "mlxd.ir.SortNode.values_out")
    v2 = t.struct(2, 4, _read_Tid, "mlxd.ir.SortNode.indices_out")
    v3 = t.scalar(3, "<i", 4, -1, "mlxd.ir.SortNode.axis")
    v4 = t.scalar(4, "<?", 1, False, "mlxd.ir.SortNode.descending")
    return _types.SortNode(
        x=v0,
        values_out=v1,
        indices_out=v2,
        axis=v3,
        descending=v4,
    )


def _read_RollNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.RollNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.RollNode.x"), "mlxd.ir.RollNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.RollNode.out"), "mlxd.ir.RollNode.out")
    v2 = t.scalars(2, "i", 4, "mlxd.ir.RollNode.shifts")
    v3 = t.scalars(3, "i", 4, "mlxd.ir.RollNode.axes")
    return _types.RollNode(
        x=v0,
        out=v1,
        shifts=v2,
        axes=v3,
    )


def _read_PoolNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.PoolNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.PoolNode.x"), "mlxd.ir.PoolNode.x")
    v1 = _required(t.struct(1, 4, _read_Tid, "mlxd.ir.PoolNode.out"), "mlxd.ir.PoolNode.out")
    v2 = t.struct(2, 4, _read_Tid, "mlxd.ir.PoolNode.indices_out")
    v3 = _enum(
        _types.PoolKind, t.scalar(3, "<b", 1, 0, "mlxd.ir.PoolNode.kind"), "mlxd.ir.PoolNode.kind"
    )
    v4 = t.scalars(4, "i", 4, "mlxd.ir.PoolNode.kernel")
    v5 = t.scalars(5, "i", 4, "mlxd.ir.PoolNode.stride")
    v6 = t.scalars(6, "i", 4, "mlxd.ir.PoolNode.padding")
    v7 = t.scalars(7, "i", 4, "mlxd.ir.PoolNode.dilation")
    v8 = t.scalar(8, "<?", 1, False, "mlxd.ir.PoolNode.ceil_mode")
    v9 = t.scalar(9, "<?", 1, True, "mlxd.ir.PoolNode.count_include_pad")
    v10 = t.scalar(10, "<i", 4, 0, "mlxd.ir.PoolNode.divisor_override")
    return _types.PoolNode(
        x=v0,
        out=v1,
        indices_out=v2,
        kind=v3,
        kernel=v4,
        stride=v5,
        padding=v6,
        dilation=v7,
        ceil_mode=v8,
        count_include_pad=v9,
        divisor_override=v10,
    )


def _read_UpsampleNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.UpsampleNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.UpsampleNode.x"), "mlxd.ir.UpsampleNode.x")
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.UpsampleNode.out"), "mlxd.ir.UpsampleNode.out"
    )
    v2 = _enum(
        _types.UpsampleMode,
        t.scalar(2, "<b", 1, 0, "mlxd.ir.UpsampleNode.mode"),
        "mlxd.ir.UpsampleNode.mode",
    )
    v3 = t.scalar(3, "<?", 1, False, "mlxd.ir.UpsampleNode.align_corners")
    v4 = t.scalars(4, "i", 4, "mlxd.ir.UpsampleNode.out_size")
    v5 = t.scalars(5, "d", 8, "mlxd.ir.UpsampleNode.scales")
    return _types.UpsampleNode(
        x=v0,
        out=v1,
        mode=v2,
        align_corners=v3,
        out_size=v4,
        scales=v5,
    )


def _read_LogicalXorNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.LogicalXorNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.LogicalXorNode.a"), "mlxd.ir.LogicalXorNode.a"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.LogicalXorNode.b"), "mlxd.ir.LogicalXorNode.b"
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.LogicalXorNode.out"), "mlxd.ir.LogicalXorNode.out"
    )
    return _types.LogicalXorNode(
        a=v0,
        b=v1,
        out=v2,
    )


def _read_CondNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.CondNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.CondNode.pred"), "mlxd.ir.CondNode.pred")
    v1 = t.scalar(1, "<I", 4, 0, "mlxd.ir.CondNode.then_chain")
    v2 = t.scalar(2, "<I", 4, 0, "mlxd.ir.CondNode.else_chain")
    v3 = t.structs(3, 4, _read_Tid, "mlxd.ir.CondNode.operands")
    v4 = t.structs(4, 4, _read_Tid, "mlxd.ir.CondNode.outs")
    return _types.CondNode(
        pred=v0,
        then_chain=v1,
        else_chain=v2,
        operands=v3,
        outs=v4,
    )


def _read_WhileNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.WhileNode")
    v0 = t.structs(0, 4, _read_Tid, "mlxd.ir.WhileNode.inits")
    v1 = t.structs(1, 4, _read_Tid, "mlxd.ir.WhileNode.outs")
    v2 = t.scalar(2, "<I", 4, 0, "mlxd.ir.WhileNode.cond_chain")
    v3 = t.scalar(3, "<I", 4, 0, "mlxd.ir.WhileNode.body_chain")
    v4 = _required(
        t.struct(4, 4, _read_Tid, "mlxd.ir.WhileNode.pred_out"), "mlxd.ir.WhileNode.pred_out"
    )
    v5 = t.structs(5, 4, _read_Tid, "mlxd.ir.WhileNode.operands")
    return _types.WhileNode(
        inits=v0,
        outs=v1,
        cond_chain=v2,
        body_chain=v3,
        pred_out=v4,
        operands=v5,
    )


def _read_SampleNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.SampleNode")
    v0 = _required(
        t.struct(0, 4, _read_Tid, "mlxd.ir.SampleNode.logits"), "mlxd.ir.SampleNode.logits"
    )
    v1 = _required(
        t.struct(1, 4, _read_Tid, "mlxd.ir.SampleNode.temperature"),
        "mlxd.ir.SampleNode.temperature",
    )
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.SampleNode.top_p"), "mlxd.ir.SampleNode.top_p"
    )
    v3 = _required(
        t.struct(3, 4, _read_Tid, "mlxd.ir.SampleNode.uniform"), "mlxd.ir.SampleNode.uniform"
    )
    v4 = _required(t.struct(4, 4, _read_Tid, "mlxd.ir.SampleNode.out"), "mlxd.ir.SampleNode.out")
    return _types.SampleNode(
        logits=v0,
        temperature=v1,
        top_p=v2,
        uniform=v3,
        out=v4,
    )


def _read_AllSumNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.AllSumNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.AllSumNode.x"), "mlxd.ir.AllSumNode.x")
    v1 = t.scalar(1, "<i", 4, 1, "mlxd.ir.AllSumNode.group_size")
    v2 = _required(t.struct(2, 4, _read_Tid, "mlxd.ir.AllSumNode.out"), "mlxd.ir.AllSumNode.out")
    return _types.AllSumNode(
        x=v0,
        group_size=v1,
        out=v2,
    )


def _read_AllGatherNode(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.AllGatherNode")
    v0 = _required(t.struct(0, 4, _read_Tid, "mlxd.ir.AllGatherNode.x"), "mlxd.ir.AllGatherNode.x")
    v1 = t.scalar(1, "<i", 4, 1, "mlxd.ir.AllGatherNode.group_size")
    v2 = _required(
        t.struct(2, 4, _read_Tid, "mlxd.ir.AllGatherNode.out"), "mlxd.ir.AllGatherNode.out"
    )
    return _types.AllGatherNode(
        x=v0,
        group_size=v1,
        out=v2,
    )


def _read_OpNode(buf, kind, pos):
    """(discriminant, value) of union mlxd.ir.OpNode; a discriminant
    this schema does not know reads as (the number, None)."""
    case = _read_OpNode_CASES.get(kind)
    if case is None:
        return kind, None
    return case[0], case[1](buf, pos)


def _read_Instruction(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.Instruction")
    k1, v1 = t.union(1, 0, _read_OpNode, "mlxd.ir.Instruction.op")
    _required(k1, "mlxd.ir.Instruction.op")
    return _types.Instruction(
        op=v1,
        op_type=k1,
    )


def _read_InstructionChain(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.InstructionChain")
    v0 = t.tables(0, _read_Instruction, "mlxd.ir.InstructionChain.instructions")
    return _types.InstructionChain(
        instructions=v0,
    )


def _read_MLXGraph(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.MLXGraph")
    v0 = t.scalar(0, "<I", 4, 1, "mlxd.ir.MLXGraph.version")
    v1 = t.scalar(1, "<I", 4, 0, "mlxd.ir.MLXGraph.num_constant_tensors")
    v2 = t.scalar(2, "<I", 4, 0, "mlxd.ir.MLXGraph.num_input_tensors")
    v3 = t.scalar(3, "<I", 4, 0, "mlxd.ir.MLXGraph.num_output_tensors")
    v4 = t.scalar(4, "<I", 4, 0, "mlxd.ir.MLXGraph.num_mutable_buffer_tensors")
    v5 = t.scalar(5, "<I", 4, 0, "mlxd.ir.MLXGraph.num_temp_tensors")
    v6 = t.scalar(6, "<I", 4, 0, "mlxd.ir.MLXGraph.num_values")
    v7 = t.tables(7, _read_InstructionChain, "mlxd.ir.MLXGraph.instruction_chains")
    v8 = t.scalar(8, "<I", 4, 0, "mlxd.ir.MLXGraph.main_chain")
    v9 = t.scalar(9, "<i", 4, -1, "mlxd.ir.MLXGraph.init_chain")
    v10 = t.structs(10, 8, _read_SlotRef, "mlxd.ir.MLXGraph.input_map")
    v11 = t.structs(11, 8, _read_SlotRef, "mlxd.ir.MLXGraph.output_map")
    v12 = t.structs(12, 8, _read_SlotRef, "mlxd.ir.MLXGraph.mutable_buffer_map")
    v13 = t.tables(13, _read_NamedSlot, "mlxd.ir.MLXGraph.named_slots")
    v14 = t.tables(14, _read_TensorMeta, "mlxd.ir.MLXGraph.tensor_meta")
    v15 = t.scalar(15, "<?", 1, True, "mlxd.ir.MLXGraph.compile_chains")
    v16 = t.table(16, _read_RunAhead, "mlxd.ir.MLXGraph.run_ahead")
    return _types.MLXGraph(
        version=v0,
        num_constant_tensors=v1,
        num_input_tensors=v2,
        num_output_tensors=v3,
        num_mutable_buffer_tensors=v4,
        num_temp_tensors=v5,
        num_values=v6,
        instruction_chains=v7,
        main_chain=v8,
        init_chain=v9,
        input_map=v10,
        output_map=v11,
        mutable_buffer_map=v12,
        named_slots=v13,
        tensor_meta=v14,
        compile_chains=v15,
        run_ahead=v16,
    )


def _read_RunAhead(buf, pos):
    t = _Table(buf, pos, "mlxd.ir.RunAhead")
    v0 = t.scalars(0, "I", 4, "mlxd.ir.RunAhead.fed_inputs")
    v1 = t.scalars(1, "I", 4, "mlxd.ir.RunAhead.fed_from_outputs")
    v2 = t.scalars(2, "I", 4, "mlxd.ir.RunAhead.advanced_inputs")
    return _types.RunAhead(
        fed_inputs=v0,
        fed_from_outputs=v1,
        advanced_inputs=v2,
    )


def _read_PayloadHeader(buf, pos):
    """struct mlxd.ir.PayloadHeader, 24 bytes at `pos` (the caller checked they are there)."""
    return _types.PayloadHeader(
        zero=_struct.unpack_from("<I", buf, pos)[0],
        magic=list(_struct.unpack_from("<4B", buf, pos + 4)),
        data_offset=_struct.unpack_from("<Q", buf, pos + 8)[0],
        data_size=_struct.unpack_from("<Q", buf, pos + 16)[0],
    )


# discriminant -> (its enum member, the reader of its table), union mlxd.ir.OpNode
_read_OpNode_CASES = {
    1: (_types.OpNodeType.AddNode, _read_AddNode),
    2: (_types.OpNodeType.SubtractNode, _read_SubtractNode),
    3: (_types.OpNodeType.MultiplyNode, _read_MultiplyNode),
    4: (_types.OpNodeType.DivideNode, _read_DivideNode),
    5: (_types.OpNodeType.PowerNode, _read_PowerNode),
    6: (_types.OpNodeType.MaximumNode, _read_MaximumNode),
    7: (_types.OpNodeType.MinimumNode, _read_MinimumNode),
    8: (_types.OpNodeType.EqualNode, _read_EqualNode),
    9: (_types.OpNodeType.NotEqualNode, _read_NotEqualNode),
    10: (_types.OpNodeType.LessNode, _read_LessNode),
    11: (_types.OpNodeType.LessEqualNode, _read_LessEqualNode),
    12: (_types.OpNodeType.GreaterNode, _read_GreaterNode),
    13: (_types.OpNodeType.GreaterEqualNode, _read_GreaterEqualNode),
    14: (_types.OpNodeType.LogicalAndNode, _read_LogicalAndNode),
    15: (_types.OpNodeType.LogicalOrNode, _read_LogicalOrNode),
    16: (_types.OpNodeType.NegNode, _read_NegNode),
    17: (_types.OpNodeType.AbsNode, _read_AbsNode),
    18: (_types.OpNodeType.ExpNode, _read_ExpNode),
    19: (_types.OpNodeType.LogNode, _read_LogNode),
    20: (_types.OpNodeType.SqrtNode, _read_SqrtNode),
    21: (_types.OpNodeType.RsqrtNode, _read_RsqrtNode),
    22: (_types.OpNodeType.SinNode, _read_SinNode),
    23: (_types.OpNodeType.CosNode, _read_CosNode),
    24: (_types.OpNodeType.TanhNode, _read_TanhNode),
    25: (_types.OpNodeType.SigmoidNode, _read_SigmoidNode),
    26: (_types.OpNodeType.ErfNode, _read_ErfNode),
    27: (_types.OpNodeType.FloorNode, _read_FloorNode),
    28: (_types.OpNodeType.CeilNode, _read_CeilNode),
    29: (_types.OpNodeType.RoundNode, _read_RoundNode),
    30: (_types.OpNodeType.ReciprocalNode, _read_ReciprocalNode),
    31: (_types.OpNodeType.LogicalNotNode, _read_LogicalNotNode),
    32: (_types.OpNodeType.ReluNode, _read_ReluNode),
    33: (_types.OpNodeType.SiluNode, _read_SiluNode),
    34: (_types.OpNodeType.GeluNode, _read_GeluNode),
    35: (_types.OpNodeType.LeakyReluNode, _read_LeakyReluNode),
    36: (_types.OpNodeType.ClipNode, _read_ClipNode),
    37: (_types.OpNodeType.WhereNode, _read_WhereNode),
    38: (_types.OpNodeType.AsTypeNode, _read_AsTypeNode),
    39: (_types.OpNodeType.CopyNode, _read_CopyNode),
    40: (_types.OpNodeType.SumNode, _read_SumNode),
    41: (_types.OpNodeType.MeanNode, _read_MeanNode),
    42: (_types.OpNodeType.MaxNode, _read_MaxNode),
    43: (_types.OpNodeType.MinNode, _read_MinNode),
    44: (_types.OpNodeType.ProdNode, _read_ProdNode),
    45: (_types.OpNodeType.AnyNode, _read_AnyNode),
    46: (_types.OpNodeType.AllNode, _read_AllNode),
    47: (_types.OpNodeType.VarNode, _read_VarNode),
    48: (_types.OpNodeType.StdNode, _read_StdNode),
    49: (_types.OpNodeType.ArgMaxNode, _read_ArgMaxNode),
    50: (_types.OpNodeType.ArgMinNode, _read_ArgMinNode),
    51: (_types.OpNodeType.CumSumNode, _read_CumSumNode),
    52: (_types.OpNodeType.SoftmaxNode, _read_SoftmaxNode),
    53: (_types.OpNodeType.LogSoftmaxNode, _read_LogSoftmaxNode),
    54: (_types.OpNodeType.LinearNode, _read_LinearNode),
    55: (_types.OpNodeType.AddmmNode, _read_AddmmNode),
    56: (_types.OpNodeType.MatmulNode, _read_MatmulNode),
    57: (_types.OpNodeType.LayerNormNode, _read_LayerNormNode),
    58: (_types.OpNodeType.RmsNormNode, _read_RmsNormNode),
    59: (_types.OpNodeType.ConvNode, _read_ConvNode),
    60: (_types.OpNodeType.ScaledDotProductAttentionNode, _read_ScaledDotProductAttentionNode),
    61: (_types.OpNodeType.ReshapeNode, _read_ReshapeNode),
    62: (_types.OpNodeType.TransposeNode, _read_TransposeNode),
    63: (_types.OpNodeType.ExpandDimsNode, _read_ExpandDimsNode),
    64: (_types.OpNodeType.SqueezeNode, _read_SqueezeNode),
    65: (_types.OpNodeType.BroadcastToNode, _read_BroadcastToNode),
    66: (_types.OpNodeType.SliceNode, _read_SliceNode),
    67: (_types.OpNodeType.SelectNode, _read_SelectNode),
    68: (_types.OpNodeType.ConcatenateNode, _read_ConcatenateNode),
    69: (_types.OpNodeType.StackNode, _read_StackNode),
    70: (_types.OpNodeType.SplitNode, _read_SplitNode),
    71: (_types.OpNodeType.TileNode, _read_TileNode),
    72: (_types.OpNodeType.FlipNode, _read_FlipNode),
    73: (_types.OpNodeType.PadNode, _read_PadNode),
    74: (_types.OpNodeType.TrilNode, _read_TrilNode),
    75: (_types.OpNodeType.TriuNode, _read_TriuNode),
    76: (_types.OpNodeType.TakeNode, _read_TakeNode),
    77: (_types.OpNodeType.TakeAlongAxisNode, _read_TakeAlongAxisNode),
    78: (_types.OpNodeType.IndexNode, _read_IndexNode),
    79: (_types.OpNodeType.ScatterAddNode, _read_ScatterAddNode),
    80: (_types.OpNodeType.SliceUpdateNode, _read_SliceUpdateNode),
    81: (_types.OpNodeType.ArangeNode, _read_ArangeNode),
    82: (_types.OpNodeType.FullNode, _read_FullNode),
    83: (_types.OpNodeType.FullLikeNode, _read_FullLikeNode),
    84: (_types.OpNodeType.SymSizeNode, _read_SymSizeNode),
    85: (_types.OpNodeType.ItemNode, _read_ItemNode),
    86: (_types.OpNodeType.IntBinaryNode, _read_IntBinaryNode),
    87: (_types.OpNodeType.IndexPutNode, _read_IndexPutNode),
    88: (_types.OpNodeType.TanNode, _read_TanNode),
    89: (_types.OpNodeType.SinhNode, _read_SinhNode),
    90: (_types.OpNodeType.CoshNode, _read_CoshNode),
    91: (_types.OpNodeType.ArcSinNode, _read_ArcSinNode),
    92: (_types.OpNodeType.ArcCosNode, _read_ArcCosNode),
    93: (_types.OpNodeType.ArcTanNode, _read_ArcTanNode),
    94: (_types.OpNodeType.ArcSinhNode, _read_ArcSinhNode),
    95: (_types.OpNodeType.ArcCoshNode, _read_ArcCoshNode),
    96: (_types.OpNodeType.ArcTanhNode, _read_ArcTanhNode),
    97: (_types.OpNodeType.Log2Node, _read_Log2Node),
    98: (_types.OpNodeType.Log10Node, _read_Log10Node),
    99: (_types.OpNodeType.Log1pNode, _read_Log1pNode),
    100: (_types.OpNodeType.Expm1Node, _read_Expm1Node),
    101: (_types.OpNodeType.SignNode, _read_SignNode),
    102: (_types.OpNodeType.TruncNode, _read_TruncNode),
    103: (_types.OpNodeType.SquareNode, _read_SquareNode),
    104: (_types.OpNodeType.IsNanNode, _read_IsNanNode),
    105: (_types.OpNodeType.IsInfNode, _read_IsInfNode),
    106: (_types.OpNodeType.BitwiseNotNode, _read_BitwiseNotNode),
    107: (_types.OpNodeType.BitwiseAndNode, _read_BitwiseAndNode),
    108: (_types.OpNodeType.BitwiseOrNode, _read_BitwiseOrNode),
    109: (_types.OpNodeType.BitwiseXorNode, _read_BitwiseXorNode),
    110: (_types.OpNodeType.ArcTan2Node, _read_ArcTan2Node),
    111: (_types.OpNodeType.LogAddExpNode, _read_LogAddExpNode),
    112: (_types.OpNodeType.RemainderNode, _read_RemainderNode),
    113: (_types.OpNodeType.LogSumExpNode, _read_LogSumExpNode),
    114: (_types.OpNodeType.CumProdNode, _read_CumProdNode),
    115: (_types.OpNodeType.SortNode, _read_SortNode),
    116: (_types.OpNodeType.RollNode, _read_RollNode),
    117: (_types.OpNodeType.PoolNode, _read_PoolNode),
    118: (_types.OpNodeType.UpsampleNode, _read_UpsampleNode),
    119: (_types.OpNodeType.LogicalXorNode, _read_LogicalXorNode),
    120: (_types.OpNodeType.CondNode, _read_CondNode),
    121: (_types.OpNodeType.WhileNode, _read_WhileNode),
    122: (_types.OpNodeType.IsPosInfNode, _read_IsPosInfNode),
    123: (_types.OpNodeType.IsNegInfNode, _read_IsNegInfNode),
    124: (_types.OpNodeType.QuantizedLinearNode, _read_QuantizedLinearNode),
    125: (_types.OpNodeType.DequantizeNode, _read_DequantizeNode),
    126: (_types.OpNodeType.RopeNode, _read_RopeNode),
    127: (_types.OpNodeType.GatherMMNode, _read_GatherMMNode),
    128: (_types.OpNodeType.GatherQMMNode, _read_GatherQMMNode),
    129: (_types.OpNodeType.ScatterNode, _read_ScatterNode),
    130: (_types.OpNodeType.SampleNode, _read_SampleNode),
    131: (_types.OpNodeType.AllSumNode, _read_AllSumNode),
    132: (_types.OpNodeType.AllGatherNode, _read_AllGatherNode),
}


def decode(buf, *, size_prefixed=False):
    """The `MLXGraph` (the schema's root_type) that `buf` holds,
    after checking its file identifier. `size_prefixed`: `buf` starts
    with its length, as `encode(..., size_prefixed=True)` writes it."""
    buf = _as_buffer(buf)
    start = _root_start(buf, size_prefixed, "mlxd.ir.MLXGraph", _types.FILE_IDENTIFIER)
    try:
        return _read_MLXGraph(buf, _follow(buf, start, "mlxd.ir.MLXGraph"))
    except RecursionError:
        raise DecodeError("the buffer nests tables deeper than Python can follow") from None
