"""Syntax tree -> resolved model (codegen.model), validating as flatc does.

The rules follow what `flatc --python` (25.12.19) accepts; each was checked
against that binary (see tests/codegen/corpus). Messages are our own words.

Resolution runs in passes over the declarations in global order (included
files first): names, enums, unions, structs (layout), tables (slots,
defaults), services, then file-level statements. A declaration that fails is
left out; later references to it are dropped silently instead of piling up
follow-on errors. All diagnostics are raised together, sorted by position.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Optional

from . import model as m
from . import syntax as s
from .binding import Binding, bind
from .diagnostics import Diagnostic, SchemaError
from .model import Location, Scalar, TypeKind, TypeRef

# Attributes flatc knows without an `attribute "name";` declaration.
KNOWN_ATTRIBUTES = frozenset(
    {
        "bit_flags",
        "cpp_ptr_type",
        "cpp_ptr_type_get",
        "cpp_str_flex_ctor",
        "cpp_str_type",
        "cpp_type",
        "csharp_partial",
        "deprecated",
        "flexbuffer",
        "force_align",
        "hash",
        "id",
        "idempotent",
        "key",
        "native_custom_alloc",
        "native_default",
        "native_inline",
        "native_type",
        "native_type_pack_name",
        "nested_flatbuffer",
        "offset64",
        "original_order",
        "private",
        "required",
        "shared",
        "streaming",
        "vector64",
    }
)

MAX_FORCE_ALIGN = 32  # FLATBUFFERS_MAX_ALIGNMENT
MAX_FUNCTION_DEPTH = 64  # FLATBUFFERS_MAX_PARSING_DEPTH
MAX_ARRAY_LENGTH = 0xFFFF  # array lengths are stored as uint16
UNION_TYPE_SUFFIX = "_type"  # a union field `u` also declares `u_type`
HASHES_BY_SIZE = {
    2: ("fnv1_16", "fnv1a_16"),
    4: ("fnv1_32", "fnv1a_32"),
    8: ("fnv1_64", "fnv1a_64"),
}
HASHABLE = (Scalar.INT16, Scalar.UINT16, Scalar.INT32, Scalar.UINT32, Scalar.INT64, Scalar.UINT64)
# flatc reads bool defaults as 8-bit integers, so `= 2` is fine for a bool.
BOOL_DEFAULT_RANGE = (0, 255)
DECIMAL_INT = re.compile(r"[+-]?[0-9]+\Z")
HEX_INT = re.compile(r"[+-]?0[xX][0-9a-fA-F]+\Z")
# An integer as C's strtoll reads a whole string (flatc's reading of numbers in
# string constants, such as `id: " 3"`): leading blanks, a sign, decimal or 0x-hex.
C_INTEGER = re.compile(r"[ \t\n\v\f\r]*([+-]?)(?:0[xX]([0-9a-fA-F]+)|([0-9]+))\Z")
INT32_RANGE = Scalar.INT32.int_range  # flatc reads an attribute's number as an int32
# A field `x` of these kinds also makes flatc --python write these names, so no
# other field may have them (a union's `x_type` is a field of its own).
CLASHING_SUFFIXES = {
    TypeKind.UNION: ("Type",),
    TypeKind.VECTOR: ("_length", "Length"),
    TypeKind.STRING: ("_byte_vector", "ByteVector"),
}
CONVERSION_FUNCTIONS = {
    "deg": math.degrees,
    "rad": math.radians,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
}
SPECIAL_FLOAT = re.compile(r"[+-]?(nan|inf|infinity)\Z")


class _Dropped(Exception):
    """A reference to a declaration that already failed: no new diagnostic."""


@dataclass(frozen=True)
class _Entry:
    """A declaration in global order."""

    index: int
    syntax: s.DeclarationSyntax
    qualified: str


def resolve(schema: s.SchemaSyntax) -> m.Schema:
    return _Resolver(schema).run()


# ---------------------------------------------------------------- literals


def parse_integer(text: str) -> Optional[int]:
    """Decimal or hexadecimal integer with optional sign, else None."""
    if DECIMAL_INT.match(text):
        return int(text, 10)
    if HEX_INT.match(text):
        sign = -1 if text.startswith("-") else 1
        return sign * int(text.lstrip("+-")[2:], 16)
    return None


def parse_c_integer(text: str, low: int, high: int) -> Optional[int]:
    """An integer in [low; high] as flatc reads one from a string constant: C's
    whole-string strtoll (leading blanks, sign, decimal or 0x-hex); an
    unsigned target takes no minus sign but -0."""
    match = C_INTEGER.match(text)
    if match is None:
        return None
    sign, hex_digits, digits = match.groups()
    value = int(hex_digits, 16) if hex_digits else int(digits)
    if sign == "-":
        if low >= 0 and value != 0:
            return None
        value = -value
    return value if low <= value <= high else None


def parse_float(text: str) -> Optional[float]:
    """A float default: decimal, hex float with exponent, nan/inf, else None."""
    lowered = text.lower()
    if "_" in lowered:
        return None  # Python's float() takes digit separators, flatc does not
    if SPECIAL_FLOAT.match(lowered):
        value = math.nan if "nan" in lowered else math.inf
        return -value if lowered.startswith("-") else value
    if lowered.lstrip("+-").startswith("0x"):
        if "p" not in lowered:
            return None  # flatc requires the binary exponent of hex floats
        try:
            return float.fromhex(lowered)
        except ValueError:
            return None
        except OverflowError:  # C's strtod gives infinity, which flatc takes
            return -math.inf if lowered.startswith("-") else math.inf
    try:
        return float(text)
    except ValueError:
        return None


def _range_text(low: int, high: int) -> str:
    return f"[{low}; {high}]"


MASK64 = (1 << 64) - 1


def _as_signed(bits: int) -> int:
    """A 64-bit pattern as int64."""
    return bits - (1 << 64) if bits >> 63 else bits


def _shown(literal: s.Literal) -> str:
    """A literal for a message: a string constant in quotes (it may be empty)."""
    return f'"{literal.text}"' if literal.kind == "string" else literal.text


def _starts_like_name(text: str) -> bool:
    return text[:1].isascii() and (text[:1].isalpha() or text[:1] == "_")


# ---------------------------------------------------------------- resolver


class _Resolver:
    def __init__(self, schema: s.SchemaSyntax):
        self.schema = schema
        self.diagnostics: list[Diagnostic] = []
        self.file_order = {f.path: i for i, f in enumerate(schema.files)}
        self.statements: list[s.Statement] = [st for f in schema.files for st in f.statements]
        self.entries: list[_Entry] = []
        self.by_name: dict[str, _Entry] = {}  # types: tables, structs, enums, unions
        self.services_by_name: dict[str, _Entry] = {}  # flatc keeps services apart
        self.bindings = bind(self.statements)
        self.failed: set[str] = set()
        self.enums: dict[str, m.Enum] = {}
        self.unions: dict[str, m.Union] = {}
        self.structs: dict[str, m.Struct] = {}
        self.tables: dict[str, m.Table] = {}
        self.services: dict[str, m.RpcService] = {}

    # -- diagnostics

    def error(self, location: Optional[Location], message: str) -> None:
        self.diagnostics.append(Diagnostic(message, location))

    def _sort_key(self, diagnostic: Diagnostic):
        loc = diagnostic.location
        if loc is None:
            return (-1, 0, 0)
        return (self.file_order.get(loc.file, len(self.file_order)), loc.line, loc.column)

    def _guarded(self, entry: _Entry, build) -> None:
        """Run build(entry); on error record it and mark the declaration failed."""
        try:
            build(entry)
        except SchemaError as error:
            self.diagnostics.extend(error.diagnostics)
            self.failed.add(entry.qualified)
        except _Dropped:
            self.failed.add(entry.qualified)

    # -- driver

    def run(self) -> m.Schema:
        self.register_declarations()
        self.check_attribute_names()
        passes = [
            (s.EnumSyntax, self.build_enum),
            (s.UnionSyntax, self.build_union),
            (s.StructSyntax, self.build_struct),
            (s.TableSyntax, self.build_table),
            (s.RpcServiceSyntax, self.build_service),
        ]
        for kind, build in passes:
            for entry in self.entries:
                if isinstance(entry.syntax, kind) and entry.qualified not in self.failed:
                    self._guarded(entry, build)
        file_level = self.file_level()
        if self.diagnostics:
            raise SchemaError(sorted(self.diagnostics, key=self._sort_key))
        types = {**self.enums, **self.unions, **self.structs, **self.tables}
        root_file = self.schema.files[-1].path
        others = tuple(f.path for f in self.schema.files[:-1])
        return m.Schema(
            path=self.schema.root,
            files=(root_file, *others),
            declarations=tuple(
                (self.services if isinstance(e.syntax, s.RpcServiceSyntax) else types)[e.qualified]
                for e in self.entries
            ),
            **file_level,
        )

    def register_declarations(self) -> None:
        for index, statement in enumerate(self.statements):
            if not isinstance(statement, s.DeclarationSyntax):
                continue
            qualified = ".".join(statement.namespace + (statement.name.text,))
            names = (
                self.services_by_name if isinstance(statement, s.RpcServiceSyntax) else self.by_name
            )
            if qualified in names:
                first = names[qualified].syntax.name.location
                self.error(
                    statement.name.location,
                    f"'{qualified}' is already declared (first at {first})",
                )
                continue
            entry = _Entry(index, statement, qualified)
            self.entries.append(entry)
            names[qualified] = entry

    # -- attributes

    def check_attribute_names(self) -> None:
        """User attributes must be declared (`attribute "x";`) before their first use."""
        declared: set[str] = set()
        for statement in self.statements:
            if isinstance(statement, s.AttributeDecl):
                declared.add(statement.name)
            elif isinstance(statement, s.DeclarationSyntax):
                for attribute in _all_attributes(statement):
                    if attribute.name not in KNOWN_ATTRIBUTES and attribute.name not in declared:
                        self.error(
                            attribute.location,
                            f"attribute '{attribute.name}' is not declared; add "
                            f'`attribute "{attribute.name}";` before its first use',
                        )
                    self.check_attribute_value(attribute)

    def check_attribute_value(self, attribute: s.AttributeSyntax) -> None:
        value = attribute.value
        if value is None or value.kind != "number":
            return
        number = parse_integer(value.text)
        if number is None:
            self.error(
                value.location,
                f"value of attribute '{attribute.name}' must be an integer or a string, "
                f"not {value.text}",
            )
        elif not INT32_RANGE[0] <= number <= INT32_RANGE[1]:
            self.error(
                value.location,
                f"value of attribute '{attribute.name}' does not fit int32 "
                f"{_range_text(*INT32_RANGE)}: {value.text}",
            )

    # -- name lookup

    def earlier_entry(self, text: str, namespace: tuple[str, ...], before: int) -> Optional[_Entry]:
        candidates = [text] + [
            ".".join(namespace[:depth] + (text,)) for depth in range(len(namespace), 0, -1)
        ]
        for qualified in candidates:
            entry = self.by_name.get(qualified)
            if entry is not None and entry.index <= before:
                return entry
        return None

    def later_enum_or_union(self, name: s.Name, namespace: tuple[str, ...]) -> Optional[_Entry]:
        """An enum or union the name would find if it were declared earlier."""
        entry = self.earlier_entry(name.text, namespace, len(self.statements))
        if entry is not None and isinstance(entry.syntax, (s.EnumSyntax, s.UnionSyntax)):
            return entry
        return None

    def resolve_type(self, written: s.TypeSyntax, owner: _Entry) -> TypeRef:
        if isinstance(written, s.VectorType):
            element = self.resolve_type(written.element, owner)
            if element.kind in (TypeKind.VECTOR, TypeKind.ARRAY):
                raise SchemaError.at(
                    written.location,
                    "nested vector types are not supported (wrap the inner " "vector in a table)",
                )
            if element.kind is TypeKind.UNION:
                raise SchemaError.at(
                    written.location, "vectors of unions are not supported by flatc --python"
                )
            return TypeRef(TypeKind.VECTOR, element=element)
        if isinstance(written, s.ArrayType):
            element = self.resolve_type(written.element, owner)
            if element.kind in (TypeKind.VECTOR, TypeKind.ARRAY):
                raise SchemaError.at(
                    written.location,
                    "nested vector types are not supported (wrap the inner " "vector in a table)",
                )
            length = parse_integer(written.length.text)
            if length is None or not 0 < length <= MAX_ARRAY_LENGTH:
                raise SchemaError.at(
                    written.length.location,
                    f"fixed-length array length must be an integer in [1; {MAX_ARRAY_LENGTH}], "
                    f"not {written.length.text}",
                )
            return TypeRef(TypeKind.ARRAY, element=element, length=length)
        return self.resolve_named_type(written.name, owner)

    def resolve_named_type(self, name: s.Name, owner: _Entry) -> TypeRef:
        scalar = Scalar.from_name(name.text)
        if scalar is not None:
            return TypeRef(TypeKind.SCALAR, scalar=scalar)
        if name.text == "string":
            return TypeRef(TypeKind.STRING)
        entry = self.bound_entry(name)
        if entry is None:
            later = self.later_enum_or_union(name, owner.syntax.namespace)
            if later is not None:
                kind = "enum" if isinstance(later.syntax, s.EnumSyntax) else "union"
                raise SchemaError.at(
                    name.location,
                    f"{kind} '{later.qualified}' is used before its declaration; flatc needs "
                    f"enums and unions declared before use",
                )
            namespace = owner.syntax.namespace
            for depth in range(len(namespace), -1, -1):
                service = ".".join(namespace[:depth] + (name.text,))
                if service in self.services_by_name:
                    raise SchemaError.at(
                        name.location, f"'{service}' is an rpc_service, not a type"
                    )
            raise SchemaError.at(
                name.location, f"unknown type '{name.text}' (check its spelling and namespace)"
            )
        decl = entry.syntax
        if entry.qualified in self.failed:
            raise _Dropped()
        if isinstance(decl, s.EnumSyntax):
            if entry.qualified not in self.enums:
                # `enum E : E`: flatc reads E's underlying type while it is still int.
                return TypeRef(TypeKind.SCALAR, scalar=Scalar.INT32)
            underlying = self.enums[entry.qualified].underlying
            return TypeRef(TypeKind.ENUM, scalar=underlying, decl=entry.qualified)
        if isinstance(decl, s.UnionSyntax):
            return TypeRef(TypeKind.UNION, decl=entry.qualified)
        if isinstance(decl, s.StructSyntax):
            return TypeRef(TypeKind.STRUCT, decl=entry.qualified)
        if isinstance(decl, s.TableSyntax):
            return TypeRef(TypeKind.TABLE, decl=entry.qualified)
        raise SchemaError.at(name.location, f"'{entry.qualified}' is an rpc_service, not a type")

    def binding(self, name: s.Name) -> Binding:
        return self.bindings.type_at(name.location)

    def bound_entry(self, name: s.Name) -> Optional[_Entry]:
        """The declaration a written name binds to, as flatc binds it (see
        codegen.binding), or None when none ever completes it."""
        binding = self.binding(name)
        if binding.target is None:
            return None
        entry = self.by_name.get(binding.target)
        if entry is None:
            raise _Dropped()  # its declaration repeats a name: reported there
        is_enum = isinstance(entry.syntax, (s.EnumSyntax, s.UnionSyntax))
        if is_enum != (binding.kind == "enum"):
            raise _Dropped()  # an enum and a table of one name: reported there
        return entry

    def known_struct(self, written: s.TypeSyntax) -> bool:
        """Whether the written type (a vector's or array's element type for
        those) named a struct already declared where it was written: flatc
        checks some attributes against what it knows there."""
        while isinstance(written, (s.VectorType, s.ArrayType)):
            written = written.element
        return self.binding(written.name).known_struct

    # -- enums

    def build_enum(self, entry: _Entry) -> None:
        decl: s.EnumSyntax = entry.syntax
        underlying = self.enum_underlying(decl, entry)
        self.check_no_force_align(decl)
        bit_flags = _has(decl.attributes, "bit_flags")
        low, high = underlying.int_range
        values: list[m.EnumValue] = []
        names: dict[str, s.EnumValueSyntax] = {}
        next_value = 0
        written = decl.values
        if not written:
            # flatc gives an empty enum one value, NONE (bit position 0 for bit_flags).
            written = (
                s.EnumValueSyntax(
                    s.Name("NONE", decl.name.location), None, (), (), decl.name.location
                ),
            )
        for value_syntax in written:
            name = value_syntax.name
            if name.text in names:
                raise SchemaError.at(
                    name.location, f"enum value '{name.text}' already exists in '{decl.name.text}'"
                )
            names[name.text] = value_syntax
            raw = next_value
            if value_syntax.value is not None:
                raw = self.integer_literal(value_syntax.value, "enum value")
            if not low <= raw <= high:
                where = value_syntax.value.location if value_syntax.value else name.location
                raise SchemaError.at(
                    where,
                    f"enum value {raw} does not fit {underlying.canonical} "
                    f"{_range_text(low, high)}",
                )
            value = raw
            if bit_flags:
                value = self.bit_flag(raw, underlying, value_syntax)
            values.append(
                m.EnumValue(
                    name.text,
                    value,
                    value_syntax.doc,
                    name.location,
                    _model_attributes(value_syntax.attributes),
                )
            )
            next_value = raw + 1
        _check_smallest_value_unique(
            decl.name.text, [(v.name, v.value, v.location) for v in values]
        )
        self.enums[entry.qualified] = m.Enum(
            **_declaration_fields(decl),
            underlying=underlying,
            values=tuple(values),
            bit_flags=bit_flags,
        )

    def bit_flag(self, position: int, underlying: Scalar, value: s.EnumValueSyntax) -> int:
        """The mask of a bit_flags value given by its bit position."""
        where = value.value.location if value.value else value.name.location
        bits = underlying.size * 8
        if not 0 <= position < bits:
            raise SchemaError.at(
                where,
                f"bit flag position {position} is out of range for {underlying.canonical} "
                f"(0 to {bits - 1})",
            )
        if underlying.is_signed and position == bits - 1:
            # flatc only warns about signed bit_flags, but refuses the sign bit.
            raise SchemaError.at(
                where,
                f"bit flag position {position} is the sign bit of {underlying.canonical}; "
                f"use an unsigned underlying type",
            )
        return 1 << position

    def enum_underlying(self, decl: s.EnumSyntax, entry: _Entry) -> Scalar:
        """An integer type, or an enum declared before, whose underlying type it takes."""
        written = decl.underlying
        if written is None:
            raise SchemaError.at(
                decl.name.location,
                f"enum '{decl.name.text}' needs an underlying integer type, "
                f"e.g. `enum {decl.name.text} : byte`",
            )
        scalar = None
        if isinstance(written, s.NamedType):
            binding = self.binding(written.name)
            if binding.kind == "enum" or Scalar.from_name(written.name.text):
                scalar = self.resolve_named_type(written.name, entry).scalar
        if scalar is None or not scalar.is_integer:
            raise SchemaError.at(
                written.location, "the underlying type of an enum must be an integer type"
            )
        return scalar

    def check_no_force_align(self, decl: s.DeclarationSyntax) -> None:
        force_align = _find(decl.attributes, "force_align")
        if force_align is not None:
            raise SchemaError.at(
                force_align.location,
                "force_align is for structs (and vectors), not enums and unions",
            )

    def integer_literal(self, literal: s.Literal, what: str) -> int:
        value = parse_integer(literal.text)
        if value is None:
            raise SchemaError.at(
                literal.location, f"{what} must be an integer, not {_shown(literal)}"
            )
        return value

    # -- unions

    def build_union(self, entry: _Entry) -> None:
        decl: s.UnionSyntax = entry.syntax
        self.check_no_force_align(decl)
        low, high = Scalar.UINT8.int_range
        members: list[m.UnionMember] = []
        by_name: dict[str, Location] = {"NONE": decl.name.location}
        next_value = 1
        for member in decl.members:
            type_ = self.union_member_type(member, entry)
            # flatc names an unaliased member after the type as written, dots as `_`.
            name = member.alias.text if member.alias else _written_name(member.type)
            name_location = member.alias.location if member.alias else member.location
            if name in by_name:
                raise SchemaError.at(
                    name_location, f"union member '{name}' already exists in '{decl.name.text}'"
                )
            by_name[name] = name_location
            value = next_value
            if member.value is not None:
                value = self.integer_literal(member.value, "union value")
                if not low <= value <= high:
                    raise SchemaError.at(
                        member.value.location,
                        f"union value {value} does not fit ubyte {_range_text(low, high)}",
                    )
            if value > high:
                raise SchemaError.at(name_location, f"union value {value} does not fit ubyte")
            members.append(m.UnionMember(name, type_, value, member.doc, name_location))
            next_value = value + 1
        _check_smallest_value_unique(
            decl.name.text,
            [("NONE", 0, decl.name.location)] + [(x.name, x.value, x.location) for x in members],
        )
        self.unions[entry.qualified] = m.Union(
            **_declaration_fields(decl),
            members=tuple(members),
        )

    def union_member_type(self, member: s.UnionMemberSyntax, owner: _Entry) -> TypeRef:
        written = member.type
        if isinstance(written, s.NamedType) and member.alias is None:
            # A bare member names a table or struct, even one called `int` or `string`.
            entry = self.bound_entry(written.name)
            builtin = Scalar.from_name(written.name.text) or written.name.text == "string"
            if entry is None and builtin:
                raise SchemaError.at(
                    written.location,
                    "union members must be tables (flatc --python supports no other union members)",
                )
            if entry is None:
                raise SchemaError.at(
                    written.name.location,
                    f"unknown type '{written.name.text}' (check its spelling and namespace)",
                )
            if entry.qualified in self.failed:
                raise _Dropped()
            if not isinstance(entry.syntax, s.TableSyntax):
                raise SchemaError.at(
                    written.location,
                    "union members must be tables (flatc --python supports no other union members)",
                )
            return TypeRef(TypeKind.TABLE, decl=entry.qualified)
        if isinstance(written, s.NamedType) and written.name.text == "string":
            raise SchemaError.at(
                written.location,
                "union members must be tables (flatc --python has no string " "union members)",
            )
        type_ = self.resolve_type(written, owner)
        if type_.kind is not TypeKind.TABLE:
            raise SchemaError.at(
                written.location,
                "union members must be tables (flatc --python supports no other union members)",
            )
        return type_

    # -- structs

    def build_struct(self, entry: _Entry) -> None:
        decl: s.StructSyntax = entry.syntax
        if not decl.fields:
            raise SchemaError.at(decl.name.location, "a struct needs at least one field")
        placed: list[tuple[s.FieldSyntax, TypeRef, int, int]] = []  # field, type, offset, size
        seen: dict[str, s.FieldSyntax] = {}
        offset = 0
        alignment = 1
        key_field: Optional[s.FieldSyntax] = None
        for field in decl.fields:
            self.check_field_name(field, seen, decl)
            type_ = self.struct_field_type(field, entry)
            self.check_field_attributes(field, type_, entry)
            key_field = self.check_key(field, type_, key_field)
            size, field_alignment = self.size_and_alignment(type_)
            offset = _round_up(offset, field_alignment)
            placed.append((field, type_, offset, size))
            offset += size
            alignment = max(alignment, field_alignment)
        alignment = self.forced_alignment(decl, alignment)
        size = _round_up(offset, alignment)
        self.check_clashing_names(decl, [(f, t) for f, t, _, _ in placed])
        fields = []
        for i, (field, type_, field_offset, field_size) in enumerate(placed):
            next_offset = placed[i + 1][2] if i + 1 < len(placed) else size
            fields.append(
                m.StructField(
                    name=field.name.text,
                    type=type_,
                    offset=field_offset,
                    size=field_size,
                    padding=next_offset - field_offset - field_size,
                    doc=field.doc,
                    attributes=_model_attributes(field.attributes),
                    location=field.name.location,
                )
            )
        self.structs[entry.qualified] = m.Struct(
            **_declaration_fields(decl),
            fields=tuple(fields),
            size=size,
            alignment=alignment,
        )

    def struct_field_type(self, field: s.FieldSyntax, owner: _Entry) -> TypeRef:
        deprecated = _find(field.attributes, "deprecated")
        if deprecated is not None:
            raise SchemaError.at(deprecated.location, "struct fields cannot be deprecated")
        type_ = self.resolve_type(field.type, owner)
        if field.default is not None:
            self.check_struct_default(field, type_, owner)
        element = type_.element if type_.kind is TypeKind.ARRAY else type_
        if element.kind not in (TypeKind.SCALAR, TypeKind.ENUM, TypeKind.STRUCT):
            raise SchemaError.at(
                field.type.location,
                "struct fields may only be scalars, enums, structs or fixed-length arrays "
                "of those",
            )
        if element.kind is TypeKind.STRUCT:
            self.check_struct_complete(element.decl, field.type, owner)
        if element.kind is TypeKind.ENUM:
            self.check_enum_has_zero(element.decl, field.name)
        return type_

    def check_struct_default(self, field: s.FieldSyntax, type_: TypeRef, owner: _Entry) -> None:
        """A struct field takes no default but one that flatc reads as its zero:
        an integer, bool or enum value 0, or the float written as `0`."""
        literal = field.default
        zero = False
        if type_.is_scalar_like and not _is_null(literal) and literal.kind != "empty_vector":
            default = self.table_default(field, type_, owner)
            if type_.scalar.is_float:
                text = literal.text.rstrip(" ") if literal.kind == "string" else literal.text
                zero = text == "0"
            else:
                zero = default.value in (0, False) and default.kind is not m.DefaultKind.NULL
        if not zero:
            raise SchemaError.at(
                literal.location, "struct fields cannot have default values (other than 0)"
            )

    def check_struct_complete(self, qualified: str, written: s.TypeSyntax, owner: _Entry) -> None:
        if qualified == owner.qualified:
            raise SchemaError.at(written.location, f"struct '{qualified}' cannot contain itself")
        if qualified not in self.structs:
            raise SchemaError.at(
                written.location,
                f"struct '{qualified}' must be declared before a struct that contains it",
            )

    def size_and_alignment(self, type_: TypeRef) -> tuple[int, int]:
        if type_.kind is TypeKind.ARRAY:
            size, alignment = self.size_and_alignment(type_.element)
            return size * type_.length, alignment
        if type_.kind is TypeKind.STRUCT:
            struct = self.structs[type_.decl]
            return struct.size, struct.alignment
        return type_.scalar.size, type_.scalar.size

    def forced_alignment(self, decl: s.StructSyntax, natural: int) -> int:
        attribute = _find(decl.attributes, "force_align")
        if attribute is None:
            return natural
        # Read as flatc reads it: a ubyte, from a number or a string constant.
        value = parse_c_integer(attribute.value.text, 0, 255) if attribute.value else None
        if value is None or value & (value - 1) or not natural <= value <= MAX_FORCE_ALIGN:
            where = attribute.value.location if attribute.value else attribute.location
            raise SchemaError.at(
                where,
                f"force_align must be a power of two from the struct's natural alignment "
                f"{natural} to {MAX_FORCE_ALIGN}",
            )
        return value

    def check_enum_has_zero(self, qualified: str, where: s.Name) -> None:
        enum = self.enums[qualified]
        if not enum.bit_flags and not _enum_has_value(enum, 0):
            raise SchemaError.at(
                where.location,
                f"enum '{enum.name}' has no value 0, the implicit default of field "
                f"'{where.text}'",
            )

    # -- tables

    def build_table(self, entry: _Entry) -> None:
        decl: s.TableSyntax = entry.syntax
        seen: dict[str, s.FieldSyntax] = {}
        resolved: list[tuple[s.FieldSyntax, TypeRef]] = []
        key_field: Optional[s.FieldSyntax] = None
        for field in decl.fields:
            self.check_field_name(field, seen, decl)
            type_ = self.table_field_type(field, entry)
            if type_.kind is TypeKind.UNION:
                _check_unique_union_type_field(field, seen)
            key_field = self.check_key(field, type_, key_field)
            resolved.append((field, type_))
        slots = self.table_slots(resolved, decl)
        self.check_clashing_names(decl, resolved)
        fields = [
            self.table_field(field, type_, slot, entry)
            for (field, type_), slot in zip(resolved, slots)
        ]
        self.tables[entry.qualified] = m.Table(
            **_declaration_fields(decl),
            fields=tuple(fields),
        )

    def table_field_type(self, field: s.FieldSyntax, owner: _Entry) -> TypeRef:
        type_ = self.resolve_type(field.type, owner)
        if type_.kind is TypeKind.ARRAY:
            raise SchemaError.at(
                field.type.location,
                "fixed-length arrays are only allowed in structs (wrap it in a struct)",
            )
        self.check_field_attributes(field, type_, owner)
        return type_

    def check_field_name(
        self, field: s.FieldSyntax, seen: dict[str, s.FieldSyntax], owner: s.DeclarationSyntax
    ) -> None:
        """Unique in its table or struct, and not the name of a table or struct
        flatc knows where the field is written (its own included)."""
        clash = self.bindings.field_clashes.get(field.name.location)
        if clash is not None:
            raise SchemaError.at(
                field.name.location,
                f"field '{field.name.text}' cannot have the name of table or struct '{clash}'",
            )
        previous = seen.get(field.name.text)
        if previous is not None:
            raise SchemaError.at(
                field.name.location,
                f"field '{field.name.text}' already exists (first at line {previous.location.line})",
            )
        seen[field.name.text] = field

    def check_clashing_names(
        self, decl: s.DeclarationSyntax, fields: list[tuple[s.FieldSyntax, TypeRef]]
    ) -> None:
        """No field may be named like what flatc --python writes for another: a
        union `u` gets `uType`, a vector `v` gets `v_length` and `vLength`, a
        string `s` gets `s_byte_vector` and `sByteVector`."""
        kinds = {field.name.text: type_.kind for field, type_ in fields}
        for field, _ in fields:
            name = field.name.text
            for kind, suffixes in CLASHING_SUFFIXES.items():
                for suffix in suffixes:
                    base = name[: -len(suffix)]
                    if (
                        len(name) > len(suffix)
                        and name.endswith(suffix)
                        and kinds.get(base) is kind
                    ):
                        raise SchemaError.at(
                            field.name.location,
                            f"field '{name}' clashes with what flatc generates for the "
                            f"{kind.value} field '{base}'",
                        )

    def check_field_attributes(self, field: s.FieldSyntax, type_: TypeRef, owner: _Entry) -> None:
        """Attribute rules flatc applies to table and struct fields alike."""
        required = _find(field.attributes, "required")
        optional = field.default is not None and _is_null(field.default)
        if required is not None and isinstance(owner.syntax, s.StructSyntax):
            raise SchemaError.at(
                required.location, "struct fields are always present; 'required' is not allowed"
            )
        if required is not None and type_.is_scalar_like:
            raise SchemaError.at(
                required.location, "only non-scalar table fields can be 'required'"
            )
        if required is not None and optional:
            raise SchemaError.at(required.location, "a field cannot be both optional and required")
        is_ubyte_vector = (  # of ubyte, or of an enum of ubyte
            type_.kind is TypeKind.VECTOR
            and type_.element.kind in (TypeKind.SCALAR, TypeKind.ENUM)
            and type_.element.scalar is Scalar.UINT8
        )
        nested = _find(field.attributes, "nested_flatbuffer")
        if nested is not None:
            if not is_ubyte_vector:
                raise SchemaError.at(
                    nested.location, "nested_flatbuffer applies only to a [ubyte] field"
                )
            self.check_nested_root(nested, owner)
        flexbuffer = _find(field.attributes, "flexbuffer")
        if flexbuffer is not None and not is_ubyte_vector:
            raise SchemaError.at(flexbuffer.location, "flexbuffer applies only to a [ubyte] field")
        self.check_hash(field, type_)
        self.check_native_attributes(field, type_)
        for name in ("offset64", "vector64"):
            attribute = _find(field.attributes, name)
            if attribute is not None:
                what = (
                    "64-bit offsets"
                    if type_.kind in (TypeKind.STRING, TypeKind.VECTOR)
                    else "64-bit offsets on this field type"
                )
                raise SchemaError.at(
                    attribute.location, f"flatc --python does not support {what} ({name})"
                )

    def check_native_attributes(self, field: s.FieldSyntax, type_: TypeRef) -> None:
        shared = _find(field.attributes, "shared")
        if shared is not None and type_.kind is not TypeKind.STRING:
            raise SchemaError.at(shared.location, "'shared' applies only to string fields")
        alloc = _find(field.attributes, "native_custom_alloc")
        if alloc is not None:
            raise SchemaError.at(
                alloc.location, "native_custom_alloc applies to tables and structs, not fields"
            )
        inline = _find(field.attributes, "native_inline")
        if inline is None:
            return
        # flatc asks what it knows where the field is written: a struct declared
        # later is not yet a struct there, a table or struct not yet declared
        # may still be a table.
        known_struct = self.known_struct(field.type)
        allowed = type_.kind is TypeKind.STRUCT and known_struct
        if type_.kind is TypeKind.VECTOR:
            element = type_.element.kind
            allowed = element is TypeKind.TABLE or (
                element is TypeKind.STRUCT and (known_struct or self.pending(field.type))
            )
        if not allowed:
            raise SchemaError.at(
                inline.location,
                "'native_inline' applies only to a struct declared before the field, or to "
                "a vector of structs or of tables",
            )

    def pending(self, written: s.TypeSyntax) -> bool:
        while isinstance(written, (s.VectorType, s.ArrayType)):
            written = written.element
        return self.binding(written.name).pending

    def check_nested_root(self, nested: s.AttributeSyntax, owner: _Entry) -> None:
        if nested.value is None or nested.value.kind != "string":
            raise SchemaError.at(
                nested.location, "nested_flatbuffer needs the root table name as a string"
            )
        name = s.Name(nested.value.text, nested.value.location)
        entry = self.bound_entry(name)
        if entry is None or not isinstance(entry.syntax, (s.TableSyntax, s.StructSyntax)):
            raise SchemaError.at(
                nested.value.location,
                f"nested_flatbuffer names unknown table '{nested.value.text}'",
            )
        self.check_nested_root_for_python(nested.value, owner)

    def check_nested_root_for_python(self, value: s.Literal, owner: _Entry) -> None:
        """flatc --python looks the root up again, as an absolute name or in the
        namespace in effect at the end of the root schema, and aborts when that
        fails; so only those spellings work for tables of the root schema."""
        if owner.syntax.file != self.schema.files[-1].path:
            return
        last_namespace = next(
            (
                st.parts
                for st in reversed(self.schema.files[-1].statements)
                if isinstance(st, s.NamespaceDecl)
            ),
            (),
        )
        spellings = (value.text, ".".join(last_namespace + (value.text,)))
        if not any(name in self.by_name for name in spellings):
            raise SchemaError.at(
                value.location,
                f"flatc --python cannot find nested_flatbuffer root '{value.text}': write it "
                f"fully qualified ('{self.lookup_qualified(value, owner)}')",
            )

    def lookup_qualified(self, value: s.Literal, owner: _Entry) -> str:
        entry = self.bound_entry(s.Name(value.text, value.location))
        return entry.qualified if entry else value.text

    def check_hash(self, field: s.FieldSyntax, type_: TypeRef) -> None:
        hash_attribute = _find(field.attributes, "hash")
        cpp_type = _find(field.attributes, "cpp_type")
        if hash_attribute is None:
            if cpp_type is not None:
                raise SchemaError.at(cpp_type.location, "cpp_type needs a 'hash' attribute")
            return
        element = type_.element if type_.kind is TypeKind.VECTOR else type_
        if not element.is_scalar_like or element.scalar not in HASHABLE:
            raise SchemaError.at(
                hash_attribute.location,
                "only short, ushort, int, uint, long and ulong fields (or vectors of them) "
                "can be hashed",
            )
        algorithm = hash_attribute.value.text if hash_attribute.value else ""
        allowed = HASHES_BY_SIZE[element.scalar.size]
        if algorithm not in allowed:
            where = (
                hash_attribute.value.location if hash_attribute.value else hash_attribute.location
            )
            raise SchemaError.at(
                where,
                f"unknown hash '{algorithm}' for {element.scalar.size * 8}-bit fields; "
                f"use one of {', '.join(allowed)}",
            )

    def check_key(
        self, field: s.FieldSyntax, type_: TypeRef, previous: Optional[s.FieldSyntax]
    ) -> Optional[s.FieldSyntax]:
        """Check a `key` attribute; returns the key field so far."""
        key = _find(field.attributes, "key")
        if key is None:
            return previous
        if previous is not None:
            raise SchemaError.at(
                key.location,
                f"only one field may be the 'key' (already '{previous.name.text}')",
            )
        keyable = (TypeKind.SCALAR, TypeKind.ENUM, TypeKind.STRING, TypeKind.STRUCT, TypeKind.ARRAY)
        if type_.kind is TypeKind.STRUCT and not self.known_struct(field.type):
            raise SchemaError.at(
                key.location,
                "a 'key' struct field needs the struct declared before it (flatc does not "
                "know it is a struct yet)",
            )
        if type_.kind not in keyable:
            raise SchemaError.at(
                key.location, "a 'key' field must be a string, a scalar, a struct or an array"
            )
        if field.default is not None and _is_null(field.default):
            raise SchemaError.at(key.location, "an optional (= null) field cannot be the 'key'")
        return field

    def table_slots(
        self, resolved: list[tuple[s.FieldSyntax, TypeRef]], decl: s.TableSyntax
    ) -> list[int]:
        """Vtable slot of each field's value; a union's type field sits just before it."""
        ids = [_find(field.attributes, "id") for field, _ in resolved]
        if not any(ids):
            return _sequential_slots([type_ for _, type_ in resolved])
        missing = next((f for (f, _), i in zip(resolved, ids) if i is None), None)
        if missing is not None:
            raise SchemaError.at(
                missing.name.location,
                f"field '{missing.name.text}' has no 'id': either all fields of "
                f"'{decl.name.text}' have an id or none does",
            )
        return self.slots_from_ids(resolved, ids)

    def slots_from_ids(
        self, resolved: list[tuple[s.FieldSyntax, TypeRef]], ids: list[s.AttributeSyntax]
    ) -> list[int]:
        slots = []
        claimed: dict[int, tuple[str, s.AttributeSyntax]] = {}  # id -> field, its `id`
        for (field, type_), attribute in zip(resolved, ids):
            slot = self.field_id(field, attribute)
            taken = [slot]
            if type_.kind is TypeKind.UNION:
                if slot == 0:
                    raise SchemaError.at(
                        _attribute_location(attribute),
                        f"union field '{field.name.text}' needs an id of at least 1: its type "
                        f"field '{field.name.text}{UNION_TYPE_SUFFIX}' takes id - 1",
                    )
                taken = [slot - 1, slot]
            for one in taken:
                if one in claimed:
                    raise SchemaError.at(
                        _attribute_location(attribute),
                        f"id {one} of field '{field.name.text}' is already used by "
                        f"'{claimed[one][0]}'",
                    )
                claimed[one] = (field.name.text, attribute)
            slots.append(slot)
        gap = next((i for i in range(len(claimed)) if i not in claimed), None)
        if gap is not None:
            _, attribute = claimed[min(i for i in claimed if i > gap)]
            raise SchemaError.at(
                _attribute_location(attribute),
                f"field ids must be consecutive from 0: id {gap} is missing",
            )
        return slots

    def field_id(self, field: s.FieldSyntax, attribute: s.AttributeSyntax) -> int:
        # flatc reads a bare `id` as id 0, and an id as a ushort (from a number or
        # a string constant).
        value = parse_c_integer(attribute.value.text, 0, 0xFFFF) if attribute.value else 0
        if value is None:
            where = attribute.value.location if attribute.value else attribute.location
            raise SchemaError.at(
                where, f"id of field '{field.name.text}' must be an integer in [0; 65535]"
            )
        return value

    def table_field(
        self, field: s.FieldSyntax, type_: TypeRef, slot: int, owner: _Entry
    ) -> m.TableField:
        default = self.table_default(field, type_, owner)
        return m.TableField(
            name=field.name.text,
            type=type_,
            slot=slot,
            default=default,
            required=_has(field.attributes, "required"),
            deprecated=_has(field.attributes, "deprecated"),
            optional=default.kind is m.DefaultKind.NULL,
            key=_has(field.attributes, "key"),
            doc=field.doc,
            attributes=_model_attributes(field.attributes),
            location=field.name.location,
        )

    # -- defaults

    def table_default(self, field: s.FieldSyntax, type_: TypeRef, owner: _Entry) -> m.Default:
        literal = field.default
        if literal is None:
            return self.implicit_default(field, type_)
        if type_.is_scalar_like and literal.kind == "string" and not literal.plain:
            raise SchemaError.at(
                literal.location,
                "a quoted default of a scalar field must be plain: no escapes, printable "
                "ASCII only",
            )
        if _is_null(literal) or (literal.kind == "string" and literal.text == "null"):
            if not type_.is_scalar_like:
                raise SchemaError.at(
                    literal.location, "only scalar and enum fields can be optional (= null)"
                )
            if type_.kind is TypeKind.ENUM and self.enums[type_.decl].value_of("null"):
                raise SchemaError.at(
                    literal.location,
                    f"`= null` makes the field optional, but enum '{type_.decl}' has a value "
                    "named null",
                )
            return m.Default(m.DefaultKind.NULL)
        if type_.kind is TypeKind.STRING and literal.kind == "string" and literal.text == "0":
            return m.Default(m.DefaultKind.NONE)  # flatc takes "0" for no default
        if type_.kind in (TypeKind.STRING, TypeKind.VECTOR):
            raise SchemaError.at(
                literal.location,
                "flatc --python does not support default values for strings and vectors",
            )
        if not type_.is_scalar_like:
            raise SchemaError.at(
                literal.location,
                f"{type_.kind.value} fields cannot have a default value",
            )
        if literal.kind == "empty_vector":
            raise SchemaError.at(literal.location, "[] is a default for vectors only")
        if type_.kind is TypeKind.ENUM:
            return self.enum_default(field, literal, type_, owner)
        return self.scalar_default(literal, type_.scalar, owner)

    def implicit_default(self, field: s.FieldSyntax, type_: TypeRef) -> m.Default:
        if type_.kind is TypeKind.ENUM:
            self.check_enum_has_zero(type_.decl, field.name)
            return m.Default(m.DefaultKind.NONE, 0)
        if type_.kind is TypeKind.SCALAR:
            scalar = type_.scalar
            zero = False if scalar.is_bool else 0.0 if scalar.is_float else 0
            return m.Default(m.DefaultKind.NONE, zero)
        return m.Default(m.DefaultKind.NONE)

    def scalar_default(self, literal: s.Literal, scalar: Scalar, owner: _Entry) -> m.Default:
        if literal.kind == "function":
            return m.Default(m.DefaultKind.FLOAT, self.function_value(literal, scalar, owner))
        if scalar.is_bool and literal.kind != "number" and literal.text in ("true", "false"):
            return m.Default(m.DefaultKind.BOOL, literal.text == "true")
        # A quoted number may have blanks before it; flatc drops spaces after it.
        text = literal.text.rstrip(" ") if literal.kind == "string" else literal.text
        if scalar.is_float:
            value = parse_float(text.lstrip(" ")) if ")" not in text else None
            if value is None:
                raise SchemaError.at(
                    literal.location, f"{_shown(literal)} is not a valid {scalar.canonical} default"
                )
            return m.Default(m.DefaultKind.FLOAT, value)
        low, high = BOOL_DEFAULT_RANGE if scalar.is_bool else scalar.int_range
        if _starts_like_name(text) and not scalar.is_bool and literal.kind != "number":
            value = self.qualified_enum_values(literal, scalar, owner)
        elif literal.kind == "string":
            value = parse_c_integer(text, -(1 << 63), (1 << 64) - 1)
        else:
            value = parse_integer(text) if literal.kind == "number" else None
        if value is None:
            raise SchemaError.at(
                literal.location, f"{_shown(literal)} is not a valid {scalar.canonical} default"
            )
        if not low <= value <= high:
            raise SchemaError.at(
                literal.location,
                f"default {_shown(literal)} does not fit {scalar.canonical} {_range_text(low, high)}",
            )
        if scalar.is_bool:
            return m.Default(m.DefaultKind.BOOL, value != 0)
        return m.Default(m.DefaultKind.INT, value)

    def function_value(self, literal: s.Literal, scalar: Scalar, owner: _Entry) -> float:
        """`deg(x)`, `cos(x)`...: flatc's conversion functions, for floats only."""
        if not scalar.is_float:
            raise SchemaError.at(
                literal.location,
                f"conversion function {literal.text}() applies only to float and double fields",
            )
        function = CONVERSION_FUNCTIONS.get(literal.text)
        if function is None:
            known = ", ".join(CONVERSION_FUNCTIONS)
            raise SchemaError.at(
                literal.location, f"unknown conversion function {literal.text}() (known: {known})"
            )
        depth, inner = 0, literal
        while inner.kind == "function":
            depth, inner = depth + 1, inner.argument
        if depth > MAX_FUNCTION_DEPTH:
            raise SchemaError.at(
                literal.location,
                f"conversion functions nested deeper than flatc's {MAX_FUNCTION_DEPTH} levels",
            )
        argument = literal.argument
        if argument.kind == "empty_vector" or _is_null(argument):
            raise SchemaError.at(argument.location, f"{argument.text} is not a number")
        if argument.kind == "string" and not argument.plain:
            raise SchemaError.at(argument.location, "a quoted number must be plain")
        x = self.scalar_default(argument, Scalar.FLOAT64, owner).value
        try:
            return function(x)
        except (ValueError, OverflowError):
            return math.nan  # C's math functions return NaN where Python's raise

    def qualified_enum_values(self, literal: s.Literal, scalar: Scalar, owner: _Entry) -> int:
        """flatc's reading of an integer default written as enum values,
        `"Color.Red Color.Blue"`: each qualified by its enum (found from the
        field's namespace outwards), their values OR-ed as 64-bit integers."""
        bits = 0
        for word in literal.text.split(" "):
            enum_name, dot, value_name = word.partition(".")
            if not dot:
                raise SchemaError.at(
                    literal.location,
                    f"{_shown(literal)} is not a valid {scalar.canonical} default (an enum value "
                    'needs an enum-typed field, or its enum: "Enum.Value")',
                )
            value = self.enum_value_by_name(enum_name, value_name, owner)
            if value is None:
                raise SchemaError.at(literal.location, f"'{word}' is not an enum value")
            bits |= value & MASK64
        return _as_signed(bits) if scalar.is_signed else bits

    def enum_value_by_name(self, enum_name: str, value_name: str, owner: _Entry) -> Optional[int]:
        namespace = owner.syntax.namespace
        for depth in range(len(namespace), -1, -1):
            entry = self.by_name.get(".".join(namespace[:depth] + (enum_name,)))
            if entry is None or entry.index > owner.index:
                continue
            if entry.qualified in self.enums:
                found = self.enums[entry.qualified].value_of(value_name)
                return found.value if found else None
            if entry.qualified in self.unions:
                if value_name == "NONE":
                    return 0
                member = next(
                    (x for x in self.unions[entry.qualified].members if x.name == value_name), None
                )
                return member.value if member else None
            if isinstance(entry.syntax, (s.EnumSyntax, s.UnionSyntax)):
                raise _Dropped()  # it failed: reported there
        return None

    def enum_default(
        self, field: s.FieldSyntax, literal: s.Literal, type_: TypeRef, owner: _Entry
    ) -> m.Default:
        enum = self.enums[type_.decl]
        low, high = enum.underlying.int_range
        text = literal.text.rstrip(" ") if literal.kind == "string" else literal.text
        # flatc reads a default that starts like a name as value names (a quoted
        # one split at each single space), anything else as a number.
        if _starts_like_name(text) and literal.kind in ("ident", "string"):
            names = tuple(literal.text.split(" ")) if literal.kind == "string" else (text,)
            bits = 0
            for name in names:
                enum_value = enum.value_of(name)
                if not name:
                    raise SchemaError.at(
                        literal.location,
                        f"enum default {literal.text!r} has an empty value name "
                        "(separate names by exactly one space)",
                    )
                if enum_value is None:
                    raise SchemaError.at(
                        literal.location, f"'{name}' is not a value of enum '{enum.name}'"
                    )
                bits |= enum_value.value & MASK64
            value = _as_signed(bits) if enum.underlying.is_signed else bits
            kind = m.DefaultKind.ENUM
        else:
            names = ()
            kind = m.DefaultKind.INT
            if literal.kind == "number":
                value = parse_integer(text)
            elif literal.kind == "string":
                value = parse_c_integer(text, -(1 << 63), (1 << 64) - 1)
            else:
                value = None
            if value is None:
                raise SchemaError.at(
                    literal.location,
                    f"{literal.text!r} is not a valid enum default: an integer or value "
                    f"names of '{enum.name}'",
                )
        if not low <= value <= high:
            raise SchemaError.at(
                literal.location,
                f"default {_shown(literal)} does not fit {enum.underlying.canonical} "
                f"{_range_text(low, high)}",
            )
        if not enum.bit_flags and not _enum_has_value(enum, value):
            raise SchemaError.at(
                literal.location,
                f"default {_shown(literal)} of field '{field.name.text}' is not a value of enum "
                f"'{enum.name}'",
            )
        return m.Default(kind, value, names)

    # -- services

    def build_service(self, entry: _Entry) -> None:
        decl: s.RpcServiceSyntax = entry.syntax
        methods = []
        seen: dict[str, Location] = {}
        for method in decl.methods:
            if method.name.text in seen:
                raise SchemaError.at(
                    method.name.location, f"rpc method '{method.name.text}' already exists"
                )
            seen[method.name.text] = method.name.location
            request = self.rpc_table(method.request, entry)
            response = self.rpc_table(method.response, entry)
            methods.append(
                m.RpcMethod(
                    name=method.name.text,
                    request=request,
                    response=response,
                    attributes=_model_attributes(method.attributes),
                    doc=method.doc,
                    location=method.name.location,
                )
            )
        self.services[entry.qualified] = m.RpcService(
            **_declaration_fields(decl),
            methods=tuple(methods),
        )

    def rpc_table(self, name: s.Name, owner: _Entry) -> str:
        """flatc wants a table, and takes what it does not know yet for one (even
        a struct declared later). The name is never a scalar: `int` is a table
        called int."""
        entry = self.bound_entry(name)
        if entry is None:
            raise SchemaError.at(
                name.location, f"unknown type '{name.text}' (check its spelling and namespace)"
            )
        if entry.qualified in self.failed:
            raise _Dropped()
        pending = self.binding(name).pending
        if not isinstance(entry.syntax, s.TableSyntax) and not (
            isinstance(entry.syntax, s.StructSyntax) and pending
        ):
            raise SchemaError.at(name.location, "rpc request and response types must be tables")
        return entry.qualified

    # -- file-level statements

    def file_level(self) -> dict:
        """Statements about the whole schema. They are checked in every file, but
        as flatc forgets an included file's root_type, file_identifier and
        file_extension, only the root file's count."""
        root_file = self.schema.files[-1].path
        root_type = file_identifier = file_extension = None
        attributes: list[str] = []
        native_includes: list[str] = []
        for statement in self.statements:
            in_root = _statement_file(statement) == root_file
            if isinstance(statement, s.RootType):
                found = self.root_type(statement)
                if in_root:
                    root_type = found or root_type
            elif isinstance(statement, s.FileIdentifier):
                if len(statement.value.encode("utf-8")) != 4:
                    self.error(
                        statement.location,
                        f"file_identifier must be exactly 4 bytes, not {statement.value!r}",
                    )
                if in_root:
                    file_identifier = statement.value
            elif isinstance(statement, s.FileExtension) and in_root:
                file_extension = statement.value
            elif isinstance(statement, s.AttributeDecl) and statement.name not in attributes:
                attributes.append(statement.name)
            elif isinstance(statement, s.NativeInclude):
                native_includes.append(statement.path)
            elif isinstance(statement, s.JsonObject) and in_root and root_type is None:
                self.error(
                    statement.location, "JSON data in a schema needs a root_type declared before it"
                )
        if file_identifier is not None:
            self.check_identifier_for_python(file_identifier)
        return dict(
            root_type=root_type if root_type in self.tables else None,
            file_identifier=file_identifier,
            file_extension=file_extension,
            attributes=tuple(attributes),
            native_includes=tuple(native_includes),
        )

    def check_identifier_for_python(self, identifier: str) -> None:
        """flatc --python aborts writing a non-ASCII identifier into table code."""
        root_file = self.schema.files[-1].path
        has_tables = any(
            isinstance(e.syntax, s.TableSyntax) and e.syntax.file == root_file for e in self.entries
        )
        if has_tables and any(ord(c) >= 0x80 for c in identifier):
            statement = next(
                st for st in reversed(self.statements) if isinstance(st, s.FileIdentifier)
            )
            self.error(
                statement.location,
                "flatc --python cannot write a file_identifier with non-ASCII characters "
                "into the code of this schema's tables",
            )

    def root_type(self, statement: s.RootType) -> Optional[str]:
        """flatc looks the name up as written, then in the current namespace (no
        enclosing ones), among the tables and structs it knows at that point,
        pending ones included; it must not be a struct there."""
        found = self.bindings.roots[statement.name.location]
        if not found.found:
            self.error(statement.name.location, f"unknown root type '{statement.name.text}'")
            return None
        if found.struct_then:
            self.error(statement.name.location, "the root type must be a table")
            return None
        return found.target


# ---------------------------------------------------------------- helpers


def _statement_file(statement: s.Statement) -> Optional[str]:
    location = getattr(statement, "location", None)
    return location.file if location is not None else None


def _sequential_slots(types: list[TypeRef]) -> list[int]:
    """Slots in declaration order; a union takes two (its type field first)."""
    slots, next_slot = [], 0
    for type_ in types:
        next_slot += type_.kind is TypeKind.UNION
        slots.append(next_slot)
        next_slot += 1
    return slots


def _attribute_location(attribute: s.AttributeSyntax) -> Location:
    return attribute.value.location if attribute.value else attribute.location


def _round_up(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


def _check_smallest_value_unique(owner: str, values: list[tuple[str, int, Location]]) -> None:
    """flatc sorts the values and compares each with the first (smallest) one
    only, so a repeat of the smallest value is an error and other repeats are
    accepted (they become aliases). We accept exactly what flatc accepts."""
    if not values:
        return
    smallest = min(value for _, value, _ in values)
    repeats = [(name, loc) for name, value, loc in values if value == smallest]
    if len(repeats) > 1:
        (first, _), (second, location) = repeats[0], repeats[1]
        raise SchemaError.at(
            location,
            f"values of '{owner}' must be unique: '{first}' and '{second}' are both {smallest}",
        )


def _enum_has_value(enum: m.Enum, value: int) -> bool:
    return any(v.value == value for v in enum.values)


def _is_null(literal: s.Literal) -> bool:
    return literal.kind == "ident" and literal.text == "null"


def _find(attributes: Iterable[s.AttributeSyntax], name: str) -> Optional[s.AttributeSyntax]:
    return next((a for a in attributes if a.name == name), None)


def _has(attributes: Iterable[s.AttributeSyntax], name: str) -> bool:
    return _find(attributes, name) is not None


def _declaration_fields(decl) -> dict:
    """What every model declaration takes from its syntax."""
    return dict(
        name=decl.name.text,
        namespace=decl.namespace,
        doc=decl.doc,
        attributes=_model_attributes(decl.attributes),
        location=decl.name.location,
        file=decl.file,
    )


def _model_attributes(attributes: Iterable[s.AttributeSyntax]) -> tuple[m.Attribute, ...]:
    return tuple(
        m.Attribute(a.name, a.value.text if a.value else None, a.location) for a in attributes
    )


def _all_attributes(decl: s.DeclarationSyntax) -> list[s.AttributeSyntax]:
    found = list(decl.attributes)
    for part in (
        getattr(decl, "fields", ())
        + getattr(decl, "values", ())
        + getattr(decl, "members", ())
        + getattr(decl, "methods", ())
    ):
        found.extend(part.attributes)
    return found


def _check_unique_union_type_field(field: s.FieldSyntax, seen: dict[str, s.FieldSyntax]) -> None:
    """A union field `u` also declares `u_type`; the two must not collide."""
    type_name = field.name.text + UNION_TYPE_SUFFIX
    previous = seen.get(type_name)
    if previous is not None:
        raise SchemaError.at(
            field.name.location,
            f"field '{type_name}' already exists: union field '{field.name.text}' declares it",
        )
    seen[type_name] = field


def _written_name(written: s.TypeSyntax) -> str:
    return written.name.text.replace(".", "_") if isinstance(written, s.NamedType) else ""
