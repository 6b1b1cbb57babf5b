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

The logic lives in the small named filters registered on the environment in
`render`; the shape of the output lives in `templates/python/module.py.j2`.
"""

from __future__ import annotations

import math

import jinja2

from ..naming import schema_stem
from ..model import (
    Declaration,
    DefaultKind,
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
        wanted = [(f.name, f.name + "_type") for f in live if _union_kind(f.type)]
        escaped = {w: escape(w, FIELD_RESERVED) for _, w in wanted}
        self.fields[d.qualified_name] = names
        self.union_type_fields[d.qualified_name] = allocate(wanted, escaped, taken)


def _union_kind(t: TypeRef) -> bool:
    return t.kind is TypeKind.UNION or (
        t.kind is TypeKind.VECTOR and t.element is not None and t.element.kind is TypeKind.UNION
    )


def _float_literal(value: float) -> str:
    if math.isnan(value):
        return "_NAN"
    if math.isinf(value):
        return "_INF" if value > 0 else "-_INF"
    return repr(float(value))


def _string_literal(value: str) -> str:
    # repr() of a str is deterministic and a valid Python literal.
    return repr(value)


class Filters:
    """The named filters and functions the templates call."""

    def __init__(self, schema: Schema):
        self.schema = schema
        self.names = Names(schema)

    # ---- naming ----------------------------------------------------------------

    def py_name(self, decl: Declaration | str) -> str:
        q = decl if isinstance(decl, str) else decl.qualified_name
        return self.names.decl[q]

    def union_enum(self, union: Union | str) -> str:
        q = union if isinstance(union, str) else union.qualified_name
        return self.names.union_enum[q]

    def union_types(self, union: Union | str) -> str:
        q = union if isinstance(union, str) else union.qualified_name
        return self.names.union_types[q]

    def attr(self, f: TableField | StructField, owner: Table | Struct) -> str:
        return self.names.fields[owner.qualified_name][f.name]

    def type_attr(self, f: TableField, owner: Table) -> str:
        return self.names.union_type_fields[owner.qualified_name][f.name]

    def member(self, name: str, owner: Enum | Union) -> str:
        return self.names.members[owner.qualified_name][name]

    @staticmethod
    def decl_kind(d: Declaration) -> str:
        for cls, name in ((Enum, "enum"), (Struct, "struct"), (Table, "table"), (Union, "union")):
            if isinstance(d, cls):
                return name
        return "other"

    @staticmethod
    def is_union(f: TableField) -> bool:
        return _union_kind(f.type)

    # ---- kinds -------------------------------------------------------------------

    @staticmethod
    def kind(t: TypeRef) -> str:
        return t.kind.value

    @staticmethod
    def live_fields(d: Table) -> list[TableField]:
        return [f for f in d.fields if not f.deprecated]

    # ---- Python types ----------------------------------------------------------------

    def py_type(self, t: TypeRef) -> str:
        k = t.kind
        if k is TypeKind.SCALAR:
            return SCALAR_TABLE[t.scalar][2]
        if k is TypeKind.STRING:
            return "str"
        if k in (TypeKind.ENUM, TypeKind.STRUCT, TypeKind.TABLE, TypeKind.UNION):
            return self.py_name(t.decl)
        if k is TypeKind.ARRAY:
            return f"list[{self.py_type(t.element)}]"
        if k is TypeKind.VECTOR:
            inner = self.py_type(t.element)
            if t.element.kind is TypeKind.SCALAR and t.element.scalar in (
                Scalar.UINT8,
                Scalar.INT8,
            ):
                return f"list[{inner}] | bytes"
            return f"list[{inner}]"
        raise ValueError(f"unknown type kind {k}")

    def annotation(self, f: TableField) -> str:
        base = self.py_type(f.type)
        if f.required:
            return base
        if f.type.is_scalar_like and not f.optional:
            return base
        return f"{base} | None"

    def union_type_annotation(self, f: TableField) -> str:
        t = f.type
        if t.kind is TypeKind.UNION:
            return f"{self.union_enum(t.decl)} | None"
        return f"list[{self.union_enum(t.element.decl)}] | None"

    # ---- defaults ------------------------------------------------------------------

    def enum_value_expr(
        self, e: Enum, value: int, names: tuple[str, ...] = (), cls: str | None = None
    ) -> str:
        cls = cls or self.py_name(e)
        if names:
            return " | ".join(f"{cls}.{self.member(n, e)}" for n in names)
        for v in e.values:
            if v.value == value:
                return f"{cls}.{self.member(v.name, e)}"
        return f"{cls}({value})"

    def scalar_default_expr(self, f: TableField, cls: str | None = None) -> str:
        """The dataclass default of a scalar or enum field."""
        t, d = f.type, f.default
        if t.kind is TypeKind.ENUM:
            e = self.schema.lookup(t.decl)
            return self.enum_value_expr(e, self._int_default(f), d.enum_names, cls)
        return self.slot_default(f)

    @staticmethod
    def _int_default(f: TableField) -> int:
        v = f.default.value
        return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else int(bool(v))

    def slot_default(self, f: TableField) -> str:
        """The default a builder compares a scalar against, as a plain literal."""
        t, d = f.type, f.default
        if t.kind is TypeKind.ENUM:
            return repr(self._int_default(f))
        s = t.scalar
        if s.is_bool:
            return "True" if d.value else "False"
        if s.is_float:
            return _float_literal(d.value if d.value is not None else 0.0)
        value = d.value if d.value is not None else 0
        return repr(int(value))

    def field_default(self, f: TableField, owner: Table) -> str | None:
        """Python source for the dataclass default of a table field, or None if the
        field must be passed."""
        if f.required:
            return None
        if f.optional:
            return "None"
        if f.type.is_scalar_like:
            if self.default_needs_globals(f, owner):
                return self.scalar_default_expr(f, f'globals()["{self.py_name(f.type.decl)}"]')
            return self.scalar_default_expr(f)
        if f.default.kind is DefaultKind.EMPTY_VECTOR:
            return "_dataclasses.field(default_factory=list)"
        if f.default.kind is DefaultKind.STRING and f.default.value is not None:
            return _string_literal(f.default.value)
        return "None"

    def struct_field_default(self, f: StructField) -> str | None:
        """Zero value of a struct field (structs have no schema defaults), or None
        where no zero value exists (an enum without a 0 member)."""
        return self._zero(f.type)

    def _zero(self, t: TypeRef) -> str | None:
        k = t.kind
        if k is TypeKind.SCALAR:
            if t.scalar.is_bool:
                return "False"
            return "0.0" if t.scalar.is_float else "0"
        if k is TypeKind.ENUM:
            e = self.schema.lookup(t.decl)
            if e.bit_flags or any(v.value == 0 for v in e.values):
                return self.enum_value_expr(e, 0)
            return None
        if k is TypeKind.STRUCT:
            s = self.schema.lookup(t.decl)
            if all(self._zero(sf.type) is not None for sf in s.fields):
                return f"_dataclasses.field(default_factory=lambda: {self.py_name(s)}())"
            return None
        if k is TypeKind.ARRAY:
            el = t.element
            if el.kind is TypeKind.STRUCT:
                inner = self._zero(el)
                if inner is None:
                    return None
                return (
                    "_dataclasses.field(default_factory=lambda: "
                    f"[{self.py_name(el.decl)}() for _i in range({t.length})])"
                )
            inner = self._zero(el)
            if inner is None:
                return None
            return f"_dataclasses.field(default_factory=lambda: [{inner}] * {t.length})"
        raise ValueError(f"struct field of kind {k}")

    def default_needs_globals(self, f: TableField, owner: Table) -> bool:
        """An enum default written in the class body is looked up in the class
        namespace first: if an earlier field has the enum's name, go through
        `globals()` instead."""
        if f.type.kind is not TypeKind.ENUM or f.optional or f.required:
            return False
        enum_name = self.py_name(f.type.decl)
        for other in self.live_fields(owner):
            if other is f:
                return False
            if self.attr(other, owner) == enum_name:
                return True
        return False

    # ---- serialization -------------------------------------------------------------

    @staticmethod
    def prepend(s: Scalar) -> str:
        return SCALAR_TABLE[s][0]

    @staticmethod
    def pack_format(s: Scalar) -> str:
        return SCALAR_TABLE[s][1]

    def inline_size(self, t: TypeRef) -> int:
        """Bytes a value of this type occupies where it is stored inline (table
        slot, vector element, struct field)."""
        k = t.kind
        if k in (TypeKind.SCALAR, TypeKind.ENUM):
            return t.scalar.size
        if k is TypeKind.STRUCT:
            return self.schema.lookup(t.decl).size
        if k is TypeKind.ARRAY:
            return self.inline_size(t.element) * t.length
        return OFFSET_SIZE

    def inline_alignment(self, t: TypeRef) -> int:
        k = t.kind
        if k in (TypeKind.SCALAR, TypeKind.ENUM):
            return t.scalar.size
        if k is TypeKind.STRUCT:
            return self.schema.lookup(t.decl).alignment
        if k is TypeKind.ARRAY:
            return self.inline_alignment(t.element)
        return OFFSET_SIZE

    def vector_alignment(self, f: TableField) -> int:
        """Element alignment of a vector field, raised by `force_align` if given."""
        align = self.inline_alignment(f.type.element)
        for a in f.attributes:
            if a.name == "force_align" and a.value is not None:
                align = max(align, int(a.value))
        return align

    def write_order(self, d: Table) -> list[TableField]:
        """Fields in the order they are written into the table: largest first,
        then declaration order, so that little padding is needed."""
        live = self.live_fields(d)
        return sorted(live, key=lambda f: -self.inline_alignment(f.type))

    @staticmethod
    def struct_layout(s: Struct) -> list[tuple[StructField, int]]:
        """(field, padding after it) in reverse field order, as a struct is
        prepended; the padding is what separates the field from the next one (or
        from the end of the struct), from the laid-out offsets."""
        out = []
        fields = list(s.fields)
        for i, f in enumerate(fields):
            end = fields[i + 1].offset if i + 1 < len(fields) else s.size
            out.append((f, end - (f.offset + f.size)))
        out.reverse()
        return out

    def leading_padding(self, s: Struct) -> int:
        return s.fields[0].offset if s.fields else 0

    def union_class(self, m) -> str:
        """The Python class a union member's value is an instance of."""
        if m.type.kind is TypeKind.STRING:
            return "str"
        return self.py_name(m.type.decl)

    def union_first_members(self, u: Union) -> list:
        """One member per distinct Python class, the first declared wins."""
        seen: dict[str, object] = {}
        out = []
        for m in u.members:
            c = self.union_class(m)
            if c not in seen:
                seen[c] = m
                out.append(m)
        return out

    def union_alias(self, u: Union) -> str:
        classes: list[str] = []
        for m in u.members:
            c = self.union_class(m)
            if c not in classes:
                classes.append(c)
        if not classes:
            return "None"
        return f"_typing.Union[{', '.join(classes)}]"

    def root_table(self) -> Table | None:
        if self.schema.root_type is None:
            return None
        return self.schema.lookup(self.schema.root_type)

    def file_identifier_literal(self) -> str:
        fid = self.schema.file_identifier
        if fid is None:
            return "None"
        return repr(fid.encode("utf-8"))

    def doc_lines(self, decl) -> list[str]:
        lines = []
        for line in getattr(decl, "doc", ()):
            lines.extend(part.strip() for part in line.splitlines() if part.strip())
        return lines

    @staticmethod
    def pystr(value: str) -> str:
        return repr(value)

    def register(self, env: jinja2.Environment) -> None:
        for name in (
            "py_name",
            "decl_kind",
            "is_union",
            "slot_default",
            "union_enum",
            "union_types",
            "attr",
            "type_attr",
            "member",
            "kind",
            "live_fields",
            "py_type",
            "annotation",
            "union_type_annotation",
            "field_default",
            "struct_field_default",
            "prepend",
            "pack_format",
            "inline_size",
            "vector_alignment",
            "write_order",
            "struct_layout",
            "leading_padding",
            "union_class",
            "union_first_members",
            "union_alias",
            "doc_lines",
            "pystr",
        ):
            env.filters["py_" + name if not name.startswith("py_") else name] = getattr(self, name)
        env.globals["py_root_table"] = self.root_table
        env.globals["py_file_identifier"] = self.file_identifier_literal


def output_path(schema: Schema) -> str:
    return f"python/{schema_stem(schema.path)}.py"


def render(schema: Schema, env: jinja2.Environment) -> dict[str, str]:
    filters = Filters(schema)
    filters.register(env)
    template = env.get_template("python/module.py.j2")
    text = template.render(schema=schema)
    return {output_path(schema): text}
