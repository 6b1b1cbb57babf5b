"""Generic Python reader target: one module per schema, `python/<stem>_reader.py`.

The module reads a FlatBuffers buffer of the schema into the dataclasses of the
module `python_module` renders beside it (`<stem>.py`, imported relatively: both
live in one package):

* `decode(buf, *, size_prefixed=False)` -> the root_type's dataclass (a schema
  without a root_type gets a `decode` that raises `TypeError` saying so);
* `DecodeError`, the one error a malformed buffer raises: a wrong file
  identifier, an offset, vtable, vector or string past the end of the buffer, a
  missing required field, text that is not UTF-8, an unknown enum value, nesting
  deeper than Python can follow. Its message names the table and field.

What it gives back, per field: scalars as `int`/`float`/`bool` (absent: the
schema default; an optional scalar: None), enums as their enum (an unknown value
of a non-`bit_flags` enum is an error), strings as `str`, `[ubyte]` as `bytes`,
other vectors as lists, structs, tables and unions as dataclasses (absent:
None). A union field's companion `<field>_type` gets the discriminant read; one
this schema does not know (a newer writer's) leaves the value None and the
companion the plain number, also in a required union field.

As in `python_module`, the logic lives here (view records holding every name,
kind and expression); the templates under `templates/python/reader_*.j2` lay
them out. Names of declarations and fields come from `python_module.Names`, so
the reader builds exactly the dataclasses that module defines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

import jinja2

from ..model import Schema, Scalar, Struct, StructField, Table, TableField, TypeKind, TypeRef, Union
from ..naming import schema_stem
from .python_module import OFFSET_SIZE, SCALAR_TABLE, Names, Views, _where

TYPES = "_types"  # the dataclass module, as the reader imports it


@dataclass(frozen=True)
class ReadField:
    """One table field as its reader reads it into local `value`.

    kind: scalar, enum, struct, string, table, union, bytes, scalars, enums,
    strings, tables or structs (vectors: the element kind, plural)."""

    attr: str  # the dataclass attribute
    kind: str
    slot: int
    where: str  # `ns.Table.field`, as a Python literal
    required: bool
    fmt: str = ""  # scalar, enum, scalars, enums: `struct` format of one value, `<` included
    size: int = 0  # bytes of one scalar or struct (element)
    default: str = "None"  # scalar, enum: what an absent field reads as (Python source)
    cls: str = ""  # enum(s): the enum class; `_types.<Enum>`
    reader: str = ""  # struct(s), table(s), union: the function reading one value
    type_slot: int = 0  # union: the discriminant's slot
    companion: str = ""  # union: the `<field>_type` attribute


@dataclass(frozen=True)
class ReadStructField:
    attr: str
    kind: str  # scalar, enum, struct, scalars, enums, structs
    offset: int
    fmt: str = ""  # scalar(s), enum(s): `struct` format of one value (or all of an array)
    size: int = 0  # struct(s): bytes of one struct
    length: int = 0  # array length
    cls: str = ""  # enum(s): the enum class
    reader: str = ""  # struct(s): the function reading one
    where: str = ""


@dataclass(frozen=True)
class TableReader:
    kind: ClassVar[str] = "table"
    function: str  # `_read_<Table>`
    cls: str  # `_types.<Table>`
    qualified_name: str
    fields: tuple[ReadField, ...]


@dataclass(frozen=True)
class StructReader:
    kind: ClassVar[str] = "struct"
    function: str
    cls: str
    qualified_name: str
    size: int
    fields: tuple[ReadStructField, ...]


@dataclass(frozen=True)
class UnionCase:
    value: int
    member: str  # `_types.<UType>.<MEMBER>`
    reader: str  # the member table's function


@dataclass(frozen=True)
class UnionReader:
    kind: ClassVar[str] = "union"
    function: str  # `_read_<Union>(buf, kind, pos)` -> (discriminant, value)
    qualified_name: str
    cases: tuple[UnionCase, ...]


@dataclass(frozen=True)
class ReaderModule:
    path: str  # the schema, for the banner
    types_module: str  # the dataclass module's name (its stem)
    readers: tuple[TableReader | StructReader | UnionReader, ...]  # declaration order
    root: Optional[str]  # the root table's reader function
    root_cls: str  # the root table's class, for the docstring
    root_name: str  # the root table's qualified name, for messages
    has_file_identifier: bool
    no_root_error: str  # Python literal: why `decode` cannot decode without a root_type


class ReaderViews:
    """The reader's view of a schema, from the same names as `python_module`."""

    def __init__(self, schema: Schema):
        self.schema = schema
        self.names = Names(schema)
        self.views = Views(schema)

    def module(self) -> ReaderModule:
        schema = self.schema
        readers = []
        for d in schema.declarations:
            if isinstance(d, Table):
                readers.append(self.table(d))
            elif isinstance(d, Struct):
                readers.append(self.struct(d))
            elif isinstance(d, Union):
                readers.append(self.union(d))
        root = schema.root_type
        return ReaderModule(
            path=schema.path,
            types_module=schema_stem(schema.path),
            readers=tuple(readers),
            root=self.function(root) if root is not None else None,
            root_cls=self.names.decl[root] if root is not None else "",
            root_name=root or "",
            has_file_identifier=schema.file_identifier is not None,
            no_root_error=repr(
                f"{schema.path} declares no root_type; nothing says which table a buffer holds"
            ),
        )

    # ---- names -------------------------------------------------------------------

    def cls(self, qualified: str) -> str:
        return f"{TYPES}.{self.names.decl[qualified]}"

    def function(self, qualified: str) -> str:
        return f"_read_{self.names.decl[qualified]}"

    def attr(self, f: TableField | StructField, owner: Table | Struct) -> str:
        return self.names.fields[owner.qualified_name][f.name]

    @staticmethod
    def fmt(scalar: Scalar, count: int = 1) -> str:
        return f"<{count if count > 1 else ''}{SCALAR_TABLE[scalar][1]}"

    # ---- tables ------------------------------------------------------------------

    def table(self, t: Table) -> TableReader:
        fields = tuple(self.table_field(f, t) for f in t.fields if not f.deprecated)
        return TableReader(self.function(t.qualified_name), self.cls(t.qualified_name),
                           t.qualified_name, fields)  # fmt: skip

    def table_field(self, f: TableField, owner: Table) -> ReadField:
        t = f.type
        base = dict(
            attr=self.attr(f, owner), slot=f.slot, where=_where(owner, f.name), required=f.required
        )
        if t.is_scalar_like:
            default = "None" if f.optional else Views.slot_default(f)
            kind = "enum" if t.kind is TypeKind.ENUM else "scalar"
            return ReadField(kind=kind, fmt=self.fmt(t.scalar), size=t.scalar.size,
                             default=default, cls=self.enum_cls(t), **base)  # fmt: skip
        if t.kind is TypeKind.STRUCT:
            size = self.schema.lookup(t.decl).size
            return ReadField(kind="struct", size=size, reader=self.function(t.decl), **base)
        if t.kind is TypeKind.STRING:
            return ReadField(kind="string", **base)
        if t.kind is TypeKind.TABLE:
            return ReadField(kind="table", reader=self.function(t.decl), **base)
        if t.kind is TypeKind.UNION:
            companion = self.names.union_type_fields[owner.qualified_name][f.name]
            return ReadField(kind="union", reader=self.function(t.decl),
                             type_slot=f.union_type_slot, companion=companion, **base)  # fmt: skip
        return self.vector_field(t.element, base)

    def vector_field(self, e: TypeRef, base: dict) -> ReadField:
        if e.kind is TypeKind.STRING:
            return ReadField(kind="strings", size=OFFSET_SIZE, **base)
        if e.kind is TypeKind.TABLE:
            return ReadField(kind="tables", size=OFFSET_SIZE, reader=self.function(e.decl), **base)
        if e.kind is TypeKind.STRUCT:
            size = self.schema.lookup(e.decl).size
            return ReadField(kind="structs", size=size, reader=self.function(e.decl), **base)
        if e.kind is TypeKind.SCALAR and e.scalar is Scalar.UINT8:
            return ReadField(kind="bytes", size=1, **base)
        kind = "enums" if e.kind is TypeKind.ENUM else "scalars"
        return ReadField(kind=kind, fmt=SCALAR_TABLE[e.scalar][1], size=e.scalar.size,
                         cls=self.enum_cls(e), **base)  # fmt: skip

    def enum_cls(self, t: TypeRef) -> str:
        return self.cls(t.decl) if t.kind is TypeKind.ENUM else ""

    # ---- structs -----------------------------------------------------------------

    def struct(self, s: Struct) -> StructReader:
        fields = tuple(self.struct_field(f, s) for f in s.fields)
        return StructReader(self.function(s.qualified_name), self.cls(s.qualified_name),
                            s.qualified_name, s.size, fields)  # fmt: skip

    def struct_field(self, f: StructField, owner: Struct) -> ReadStructField:
        t, attr = f.type, self.attr(f, owner)
        if t.kind is TypeKind.STRUCT:
            size = self.schema.lookup(t.decl).size
            return ReadStructField(
                attr, "struct", f.offset, size=size, reader=self.function(t.decl)
            )
        if t.kind is not TypeKind.ARRAY:
            kind = "enum" if t.kind is TypeKind.ENUM else "scalar"
            return ReadStructField(attr, kind, f.offset, fmt=self.fmt(t.scalar),
                                   cls=self.enum_cls(t), where=_where(owner, f.name))  # fmt: skip
        e = t.element
        if e.kind is TypeKind.STRUCT:
            size = self.schema.lookup(e.decl).size
            return ReadStructField(attr, "structs", f.offset, size=size, length=t.length,
                                   reader=self.function(e.decl))  # fmt: skip
        kind = "enums" if e.kind is TypeKind.ENUM else "scalars"
        return ReadStructField(attr, kind, f.offset, fmt=self.fmt(e.scalar, t.length),
                               length=t.length, cls=self.enum_cls(e),
                               where=_where(owner, f.name))  # fmt: skip

    # ---- unions ------------------------------------------------------------------

    def union(self, u: Union) -> UnionReader:
        enum = f"{TYPES}.{self.names.union_enum[u.qualified_name]}"
        cases = tuple(
            UnionCase(m.value, f"{enum}.{self.names.members[u.qualified_name][m.name]}",
                      self.function(m.type.decl))  # fmt: skip
            for m in u.members
        )
        return UnionReader(self.function(u.qualified_name), u.qualified_name, cases)


def output_path(schema: Schema) -> str:
    return f"python/{schema_stem(schema.path)}_reader.py"


def render(schema: Schema, env: jinja2.Environment) -> dict[str, str]:
    template = env.get_template("python/reader_module.py.j2")
    return {output_path(schema): template.render(module=ReaderViews(schema).module())}
