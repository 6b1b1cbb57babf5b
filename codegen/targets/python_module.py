"""Generic Python target: one module per schema, `python/<stem>.py`.

The module holds, for any FlatBuffers schema:

* an `enum.IntEnum` per enum (`enum.IntFlag` for `bit_flags`);
* a keyword-only dataclass per table and per struct;
* per union `U`: a type alias `U = typing.Union[...]`, a discriminant enum
  `UType` (`NONE = 0` then one member per union member, aliases included) and a
  dict `U_TYPES` from member class to discriminant (the first member wins where
  aliases share a type; pass the table's `<field>_type` to pick another);
* `class Builders`, a serializer mixin with one method per table
  (`build_<Table>(self, builder, obj) -> offset`), per struct
  (`write_<Struct>(self, builder, obj) -> offset`, prepends the struct inline)
  and per union (`build_<Union>(self, builder, kind, value) -> offset`);
* `encode(root, ...) -> bytes` for the schema's `root_type`. A schema without a
  `root_type` still gets `encode`, which raises `TypeError` saying so (build with
  `Builders` and `flatbuffers.Builder.Finish` instead).

Naming, all deterministic (declaration order, no sets):

* a declaration keeps its short name unless another declaration in another
  namespace has the same short name; then every one of them is named by its
  namespace parts and short name joined by `_` (`A.B.Foo` -> `A_B_Foo`; one in
  the root namespace keeps `Foo`);
* a name in the escape tables below (Python keywords, the builtins and module
  internals the generated code uses, enum-reserved names) gets a trailing `_`
  (an enum member named `_sunder_` / `__dunder__`, which `enum` reserves, gets a
  trailing `x`);
* names that need no escaping are given out first, so an escaped name never
  takes a name the schema spells out (`class` -> `class__` next to a field
  `class_`); anything still colliding (with a declaration or a derived name such
  as `UType`) gets further trailing `_` until unique, earlier names winning.
* union fields `f` get a companion attribute `f_type` (flatc's own name for
  the type field) holding an optional explicit discriminant.

The logic lives in `Views`, which turns the model into frozen view records
(one per declaration, field and union member) holding every name, kind and
expression already decided; the templates under `templates/python/` only lay
those records out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import ClassVar, Iterator, Optional

import jinja2

from ..naming import schema_stem
from ..model import (
    Declaration,
    Enum,
    Schema,
    Scalar,
    Struct,
    StructField,
    Table,
    TableField,
    TypeKind,
    TypeRef,
    Union,
    attribute_value,
)

# Python keywords, as a fixed table (not `keyword.kwlist`, which depends on the
# interpreter running the generator). Soft keywords (`match`, `case`, `type`) are
# valid identifiers and are not escaped.
PYTHON_KEYWORDS: tuple[str, ...] = (
    "False", "None", "True", "and", "as", "assert", "async", "await", "break",
    "class", "continue", "def", "del", "elif", "else", "except", "finally", "for",
    "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or",
    "pass", "raise", "return", "try", "while", "with", "yield",
)  # fmt: skip

# Module-level names the generated code itself uses: builtins it calls and the
# names it defines. A declaration with one of these names gets a trailing `_`.
MODULE_RESERVED: tuple[str, ...] = (
    "annotations", "bool", "bytearray", "bytes", "dict", "float", "int", "isinstance",
    "len", "list", "memoryview", "object", "range", "reversed", "str", "tuple", "type",
    "zip", "TypeError", "ValueError", "KeyError", "globals",
    "Builders", "encode", "FILE_IDENTIFIER",
    "_dataclasses", "_enum", "_flatbuffers", "_struct", "_typing",
    "_scalars", "_offsets", "_union_type", "_check_member", "_check_length", "_NAN", "_INF",
)  # fmt: skip

# Field names that would shadow, inside a class body, a module internal that a
# default expression uses.
FIELD_RESERVED: tuple[str, ...] = tuple(n for n in MODULE_RESERVED if n.startswith("_"))

# Names an enum member may not take (`enum` reserves them).
ENUM_RESERVED: tuple[str, ...] = ("mro",)

# Scalar -> (flatbuffers.Builder Prepend* suffix, struct format, Python type).
SCALAR_TABLE: dict[Scalar, tuple[str, str, str]] = {
    Scalar.BOOL: ("Bool", "?", "bool"),
    Scalar.INT8: ("Int8", "b", "int"),
    Scalar.UINT8: ("Uint8", "B", "int"),
    Scalar.INT16: ("Int16", "h", "int"),
    Scalar.UINT16: ("Uint16", "H", "int"),
    Scalar.INT32: ("Int32", "i", "int"),
    Scalar.UINT32: ("Uint32", "I", "int"),
    Scalar.INT64: ("Int64", "q", "int"),
    Scalar.UINT64: ("Uint64", "Q", "int"),
    Scalar.FLOAT32: ("Float32", "f", "float"),
    Scalar.FLOAT64: ("Float64", "d", "float"),
}

OFFSET_SIZE = 4
BYTES = (Scalar.UINT8, Scalar.INT8)  # a vector of these may also be given as bytes


def escape(name: str, reserved: tuple[str, ...]) -> str:
    return name + "_" if name in PYTHON_KEYWORDS or name in reserved else name


def _unique(name: str, taken: dict[str, object]) -> str:
    while name in taken:
        name += "_"
    return name


def allocate(
    wanted: list[tuple[str, str]], escaped: dict[str, str], taken: dict[str, object]
) -> dict[str, str]:
    """Python names for (key, preferred name) pairs, in order. A name that needs
    no escaping keeps it if it is free; escaped names and names already taken
    get trailing `_` until unique. `escaped` maps a preferred name to its escaped
    form; `taken` (updated) holds the names already in use."""
    out: dict[str, str] = {}
    for key, preferred in wanted:
        if escaped[preferred] == preferred and preferred not in taken:
            out[key] = preferred
            taken[preferred] = key
    for key, preferred in wanted:
        if key not in out:
            out[key] = _unique(escaped[preferred], taken)
            taken[out[key]] = key
    return {key: out[key] for key, _ in wanted}


def _is_sunder_or_dunder(name: str) -> bool:
    return len(name) > 2 and name.startswith("_") and name.endswith("_")


def enum_member_name(name: str) -> str:
    """A schema enum value / union member name as a Python enum member."""
    if _is_sunder_or_dunder(name):
        return name + "x"
    return escape(name, ENUM_RESERVED)


class Names:
    """Every Python name the module uses, allocated once, in declaration order."""

    def __init__(self, schema: Schema):
        self.schema = schema
        self.decl: dict[str, str] = {}  # qualified name -> module-level name
        self.union_enum: dict[str, str] = {}  # union qualified name -> discriminant enum
        self.union_types: dict[str, str] = {}  # union qualified name -> class->discriminant dict
        self.members: dict[str, dict[str, str]] = {}  # enum/union -> value name -> member
        self.fields: dict[str, dict[str, str]] = {}  # decl -> schema field -> attribute
        self.union_type_fields: dict[str, dict[str, str]] = {}  # table -> union field -> companion
        decls = [d for d in schema.declarations if isinstance(d, (Enum, Struct, Table, Union))]
        short_count: dict[str, int] = {}
        for d in decls:
            short_count[d.name] = short_count.get(d.name, 0) + 1
        wanted = []
        for d in decls:
            base = d.name
            if short_count[d.name] > 1:
                base = "_".join(d.namespace + (d.name,))
            wanted.append((d.qualified_name, base))
        taken: dict[str, object] = {}
        self.decl = allocate(wanted, {b: escape(b, MODULE_RESERVED) for _, b in wanted}, taken)
        for u in schema.unions:
            alias = self.decl[u.qualified_name]
            self.union_enum[u.qualified_name] = _unique(alias + "Type", taken)
            taken[self.union_enum[u.qualified_name]] = u
            self.union_types[u.qualified_name] = _unique(alias + "_TYPES", taken)
            taken[self.union_types[u.qualified_name]] = u
        for d in decls:
            if isinstance(d, (Table, Struct)):
                self._fields(d)
            elif isinstance(d, Enum):
                self._members(d, [v.name for v in d.values], {})
            else:
                self._members(d, [m.name for m in d.members], {"NONE": "NONE"})

    def _members(self, d: Declaration, names: list[str], taken: dict[str, object]) -> None:
        wanted = [(n, n) for n in names]
        escaped = {n: enum_member_name(n) for n in names}
        self.members[d.qualified_name] = allocate(wanted, escaped, taken)

    def _fields(self, d: Table | Struct) -> None:
        live = [f for f in d.fields if not getattr(f, "deprecated", False)]
        taken: dict[str, object] = {}
        wanted = [(f.name, f.name) for f in live]
        names = allocate(wanted, {f.name: escape(f.name, FIELD_RESERVED) for f in live}, taken)
        # flatc itself refuses a field named like a union's `<field>_type`.
        wanted = [(f.name, f.name + "_type") for f in live if _is_union(f)]
        escaped = {w: escape(w, FIELD_RESERVED) for _, w in wanted}
        self.fields[d.qualified_name] = names
        self.union_type_fields[d.qualified_name] = allocate(wanted, escaped, taken)


def _is_union(f: TableField | StructField) -> bool:
    return f.type.kind is TypeKind.UNION


def _float_literal(value: float) -> str:
    if math.isnan(value):
        return "_NAN"
    if math.isinf(value):
        return "_INF" if value > 0 else "-_INF"
    return repr(float(value))


def _doc_lines(decl) -> tuple[str, ...]:
    """Doc comment lines, blank ones dropped, each written as one `#` line."""
    return tuple(part.strip() for line in decl.doc for part in line.splitlines() if part.strip())


def _where(owner: Declaration, name: str) -> str:
    """`ns.Owner.name` as a Python literal, naming a field or member in errors."""
    return repr(f"{owner.qualified_name}.{name}")


# ---- the view: every name, kind and expression the templates write, decided here ----


@dataclass(frozen=True)
class DataField:
    """One dataclass attribute: `name: annotation = default`."""

    name: str
    annotation: str
    default: Optional[str]  # Python source; None where the caller must pass a value
    doc: tuple[str, ...] = ()


@dataclass(frozen=True)
class EnumMemberView:
    name: str
    value: int
    doc: tuple[str, ...]


@dataclass(frozen=True)
class EnumView:
    kind: ClassVar[str] = "enum"
    name: str
    base: str  # `IntEnum`, or `IntFlag` for bit_flags
    doc: tuple[str, ...]
    members: tuple[EnumMemberView, ...]


@dataclass(frozen=True)
class StructWrite:
    """One field as `write_<Struct>` prepends it: first the padding that follows
    it in the struct, then the value."""

    kind: str  # scalar, struct, scalars (array of scalars), structs (array of structs)
    value: str  # `obj.<attribute>`
    padding: int
    prepend: str = ""  # scalar (element): `builder.Prepend<prepend>`
    method: str = ""  # struct (element): `self.<method>`
    length: int = 0  # array length
    where: str = ""  # the field, as a Python literal, for errors


@dataclass(frozen=True)
class ClassView:
    """The dataclass of a struct or table."""

    name: str
    qualified_name: str
    doc: tuple[str, ...]
    fields: tuple[DataField, ...]


@dataclass(frozen=True)
class StructView(ClassView):
    kind: ClassVar[str] = "struct"
    size: int
    alignment: int
    writes: tuple[StructWrite, ...]  # last field first, as a struct is prepended


@dataclass(frozen=True)
class TableSlot:
    """One field as `build_<Table>` writes it. `build` writes the value out of
    line, before the table starts: nothing (inline values), string, table,
    union, required_union, or a vector of scalars, strings, tables or structs.
    `place` then fills the vtable slot: scalar, optional_scalar, struct,
    required_struct, union (discriminant and offset) or offset."""

    value: str  # `obj.<attribute>`
    where: str  # the field, as a Python literal, for errors
    missing: Optional[str]  # a required field's error message, as a Python literal
    slot: int
    build: str
    place: str
    method: str = ""  # `self.<method>` builds or writes the value or each element
    prepend: str = ""  # scalar: `builder.Prepend<prepend>Slot`
    slot_default: str = ""  # scalar: the default a builder leaves out
    pack_format: str = ""  # vector of scalars: an element's `struct` format
    element_size: int = 0  # vector: bytes per element
    alignment: int = 0  # vector: element alignment, raised by force_align
    union_types: str = ""  # union: the class -> discriminant dict
    type_value: str = ""  # union: `obj.<field>_type`, an explicit discriminant
    type_slot: int = 0  # union: the discriminant's vtable slot


@dataclass(frozen=True)
class TableView(ClassView):
    kind: ClassVar[str] = "table"
    vtable_slots: int
    slots: tuple[TableSlot, ...]  # declaration order, in which values are built out of line
    write_order: tuple[TableSlot, ...]  # most aligned inline values first: little padding


@dataclass(frozen=True)
class UnionMemberView:
    name: str  # its member of the discriminant enum
    value: int
    cls: str  # the table class of its values
    where: str  # the member, as a Python literal, for errors
    method: str  # `self.<method>` builds a value


@dataclass(frozen=True)
class UnionView:
    kind: ClassVar[str] = "union"
    name: str
    qualified_name: str
    doc: tuple[str, ...]
    alias: str  # the type alias's value: `_typing.Union[...]` of the member classes
    enum: str  # the discriminant enum
    types: str  # the member class -> discriminant dict
    members: tuple[UnionMemberView, ...]
    first_members: tuple[UnionMemberView, ...]  # one per class, the first declared


@dataclass(frozen=True)
class ModuleView:
    path: str  # the schema, for the banner
    file_identifier: str  # Python literal: bytes or None
    has_file_identifier: bool
    classes: tuple[EnumView | StructView | TableView, ...]  # declaration order
    unions: tuple[UnionView, ...]  # after every class, which their aliases name
    builders: tuple[StructView | TableView | UnionView, ...]  # declaration order
    root: Optional[str]  # the root_type's class
    no_root_error: str  # Python literal: why `encode` cannot encode without a root_type


class Views:
    """Builds the view of a schema: names from `Names`, everything else from the
    model, decided once here so that the templates only lay it out."""

    def __init__(self, schema: Schema):
        self.schema = schema
        self.names = Names(schema)

    def module(self) -> ModuleView:
        schema = self.schema
        views = {
            Enum: self.enum,
            Struct: self.struct,
            Table: self.table,
            Union: self.union,
        }
        decls = [views[type(d)](d) for d in schema.declarations if type(d) in views]
        fid = schema.file_identifier
        return ModuleView(
            path=schema.path,
            file_identifier=repr(fid.encode("utf-8")) if fid is not None else "None",
            has_file_identifier=fid is not None,
            classes=tuple(v for v in decls if v.kind != "union"),
            unions=tuple(v for v in decls if v.kind == "union"),
            builders=tuple(v for v in decls if v.kind != "enum"),
            root=self.py_name(schema.root_type) if schema.root_type is not None else None,
            no_root_error=repr(
                f"{schema.path} declares no root_type; build with Builders and "
                "flatbuffers.Builder.Finish"
            ),
        )

    # ---- names -------------------------------------------------------------------

    def py_name(self, decl: Declaration | str) -> str:
        q = decl if isinstance(decl, str) else decl.qualified_name
        return self.names.decl[q]

    def attr(self, f: TableField | StructField, owner: Table | Struct) -> str:
        return self.names.fields[owner.qualified_name][f.name]

    def member(self, name: str, owner: Enum | Union) -> str:
        return self.names.members[owner.qualified_name][name]

    def builder_method(self, t: TypeRef) -> str:
        """The `Builders` method that writes a table, union or struct value."""
        verb = "write" if t.kind is TypeKind.STRUCT else "build"
        return f"{verb}_{self.py_name(t.decl)}"

    # ---- enums -------------------------------------------------------------------

    def enum(self, e: Enum) -> EnumView:
        members = tuple(
            EnumMemberView(self.member(v.name, e), v.value, _doc_lines(v)) for v in e.values
        )
        base = "IntFlag" if e.bit_flags else "IntEnum"
        return EnumView(self.py_name(e), base, _doc_lines(e), members)

    def enum_value_expr(
        self, e: Enum, value: int, names: tuple[str, ...] = (), cls: Optional[str] = None
    ) -> str:
        """`cls.Member` (several OR-ed for bit_flags names), or `cls(value)`
        where no member has the value."""
        cls = cls or self.py_name(e)
        if names:
            return " | ".join(f"{cls}.{self.member(n, e)}" for n in names)
        for v in e.values:
            if v.value == value:
                return f"{cls}.{self.member(v.name, e)}"
        return f"{cls}({value})"

    # ---- Python types ----------------------------------------------------------------

    def py_type(self, t: TypeRef) -> str:
        k = t.kind
        if k is TypeKind.SCALAR:
            return SCALAR_TABLE[t.scalar][2]
        if k is TypeKind.STRING:
            return "str"
        if k in (TypeKind.ENUM, TypeKind.STRUCT, TypeKind.TABLE, TypeKind.UNION):
            return self.py_name(t.decl)
        inner = self.py_type(t.element)
        if k is TypeKind.VECTOR and t.element.kind is TypeKind.SCALAR and t.element.scalar in BYTES:
            return f"list[{inner}] | bytes"  # bytes take the fast path
        return f"list[{inner}]"

    def annotation(self, f: TableField) -> str:
        base = self.py_type(f.type)
        if f.required or (f.type.is_scalar_like and not f.optional):
            return base
        return f"{base} | None"

    # ---- structs -----------------------------------------------------------------

    def struct(self, s: Struct) -> StructView:
        fields = tuple(
            DataField(self.attr(f, s), self.py_type(f.type), self.zero(f.type), _doc_lines(f))
            for f in s.fields
        )
        return StructView(
            name=self.py_name(s),
            qualified_name=s.qualified_name,
            doc=_doc_lines(s),
            fields=fields,
            size=s.size,
            alignment=s.alignment,
            writes=tuple(self.struct_write(f, s) for f in reversed(s.fields)),
        )

    def struct_write(self, f: StructField, owner: Struct) -> StructWrite:
        value, t = f"obj.{self.attr(f, owner)}", f.type
        if t.kind is TypeKind.STRUCT:
            return StructWrite("struct", value, f.padding, method=self.builder_method(t))
        if t.kind is not TypeKind.ARRAY:
            return StructWrite("scalar", value, f.padding, prepend=SCALAR_TABLE[t.scalar][0])
        where, element = _where(owner, f.name), t.element
        if element.kind is TypeKind.STRUCT:
            method = self.builder_method(element)
            return StructWrite(
                "structs", value, f.padding, method=method, length=t.length, where=where
            )
        prepend = SCALAR_TABLE[element.scalar][0]
        return StructWrite(
            "scalars", value, f.padding, prepend=prepend, length=t.length, where=where
        )

    def zero(self, t: TypeRef) -> str:
        """The default of a struct field (structs have no schema defaults): its
        zero value. The resolver gives every enum in a struct a 0 (or bit_flags)."""
        if t.kind is TypeKind.SCALAR:
            if t.scalar.is_bool:
                return "False"
            return "0.0" if t.scalar.is_float else "0"
        if t.kind is TypeKind.ENUM:
            return self.enum_value_expr(self.schema.lookup(t.decl), 0)
        if t.kind is TypeKind.STRUCT:
            return f"_dataclasses.field(default_factory=lambda: {self.py_name(t.decl)}())"
        el = t.element
        if el.kind is TypeKind.STRUCT:
            make = f"[{self.py_name(el.decl)}() for _i in range({t.length})]"
        else:
            make = f"[{self.zero(el)}] * {t.length}"
        return f"_dataclasses.field(default_factory=lambda: {make})"

    # ---- tables ------------------------------------------------------------------

    def table(self, t: Table) -> TableView:
        live = [f for f in t.fields if not f.deprecated]
        slots = {f.name: self.table_slot(f, t) for f in live}
        # Sorting is stable: equal alignments keep declaration order.
        write_order = sorted(live, key=lambda f: -self.slot_alignment(f.type))
        return TableView(
            name=self.py_name(t),
            qualified_name=t.qualified_name,
            doc=_doc_lines(t),
            fields=tuple(self.table_fields(t, live)),
            vtable_slots=t.vtable_slots,
            slots=tuple(slots.values()),
            write_order=tuple(slots[f.name] for f in write_order),
        )

    def table_fields(self, t: Table, live: list[TableField]) -> Iterator[DataField]:
        for f in live:
            default = self.field_default(f, t, live)
            yield DataField(self.attr(f, t), self.annotation(f), default, _doc_lines(f))
            if _is_union(f):
                companion = self.names.union_type_fields[t.qualified_name][f.name]
                enum = self.names.union_enum[f.type.decl]
                yield DataField(companion, f"{enum} | None", "None")

    def field_default(self, f: TableField, owner: Table, live: list[TableField]) -> Optional[str]:
        """The dataclass default of a table field, or None if it must be passed.
        The resolver gives non-scalar fields no default but absence."""
        if f.required:
            return None
        if f.optional or not f.type.is_scalar_like:
            return "None"
        if f.type.kind is TypeKind.SCALAR:
            return self.slot_default(f)
        e = self.schema.lookup(f.type.decl)
        cls = self.py_name(e)
        # The class body is searched first: an earlier field named like the enum hides it.
        earlier = {self.attr(other, owner) for other in live[: live.index(f)]}
        if cls in earlier:
            cls = f'globals()["{cls}"]'
        return self.enum_value_expr(e, f.default.value, f.default.enum_names, cls)

    @staticmethod
    def slot_default(f: TableField) -> str:
        """The default of a scalar or enum field as a plain literal, which the
        builder compares against."""
        s, value = f.type.scalar, f.default.value
        if f.type.kind is TypeKind.ENUM or s.is_integer:
            return repr(int(value))
        if s.is_bool:
            return "True" if value else "False"
        return _float_literal(value)

    def slot_alignment(self, t: TypeRef) -> int:
        """Alignment of what a table slot holds inline: the value of a scalar or
        struct, else an offset."""
        if t.is_scalar_like:
            return t.scalar.size
        if t.kind is TypeKind.STRUCT:
            return self.schema.lookup(t.decl).alignment
        return OFFSET_SIZE

    def table_slot(self, f: TableField, owner: Table) -> TableSlot:
        where = _where(owner, f.name)
        missing = repr(f"{owner.qualified_name}.{f.name} is required") if f.required else None
        slot = partial(TableSlot, f"obj.{self.attr(f, owner)}", where, missing, f.slot)
        t = f.type
        if t.is_scalar_like:
            place = "optional_scalar" if f.optional else "scalar"
            prepend = SCALAR_TABLE[t.scalar][0]
            default = "" if f.optional else self.slot_default(f)
            return slot("", place, prepend=prepend, slot_default=default)
        if t.kind is TypeKind.STRUCT:
            place = "required_struct" if f.required else "struct"
            return slot("", place, method=self.builder_method(t))
        if t.kind is TypeKind.UNION:
            return slot(
                "required_union" if f.required else "union",
                "union",
                method=self.builder_method(t),
                union_types=self.names.union_types[t.decl],
                type_value=f"obj.{self.names.union_type_fields[owner.qualified_name][f.name]}",
                type_slot=f.union_type_slot,
            )
        if t.kind is TypeKind.STRING:
            return slot("string", "offset")
        if t.kind is TypeKind.TABLE:
            return slot("table", "offset", method=self.builder_method(t))
        return self.vector_slot(f, slot)

    def vector_slot(self, f: TableField, slot) -> TableSlot:
        e = f.type.element
        if e.kind is TypeKind.STRING:
            return slot("strings", "offset")
        if e.kind is TypeKind.TABLE:
            return slot("tables", "offset", method=self.builder_method(e))
        alignment = self.slot_alignment(e)
        force = attribute_value(f.attributes, "force_align")
        if force is not None:
            alignment = max(alignment, int(force))
        if e.kind is TypeKind.STRUCT:
            size = self.schema.lookup(e.decl).size
            method = self.builder_method(e)
            return slot("structs", "offset", method=method, element_size=size, alignment=alignment)
        return slot(
            "scalars",
            "offset",
            pack_format=SCALAR_TABLE[e.scalar][1],
            element_size=e.scalar.size,
            alignment=alignment,
        )

    # ---- unions ------------------------------------------------------------------

    def union(self, u: Union) -> UnionView:
        """The resolver admits tables only as union members; aliases may share one."""
        enum = self.names.union_enum[u.qualified_name]
        members = tuple(
            UnionMemberView(
                self.member(m.name, u),
                m.value,
                self.py_name(m.type.decl),
                _where(u, m.name),
                self.builder_method(m.type),
            )
            for m in u.members
        )
        first: dict[str, UnionMemberView] = {}
        for m in members:
            first.setdefault(m.cls, m)
        alias = f"_typing.Union[{', '.join(first)}]" if first else "None"
        return UnionView(
            name=self.py_name(u),
            qualified_name=u.qualified_name,
            doc=_doc_lines(u),
            alias=alias,
            enum=enum,
            types=self.names.union_types[u.qualified_name],
            members=members,
            first_members=tuple(first.values()),
        )


def output_path(schema: Schema) -> str:
    return f"python/{schema_stem(schema.path)}.py"


def render(schema: Schema, env: jinja2.Environment) -> dict[str, str]:
    template = env.get_template("python/module.py.j2")
    return {output_path(schema): template.render(module=Views(schema).module())}
