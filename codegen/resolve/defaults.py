"""Defaults of table fields (and the zero a struct field may be given), read as
flatc reads them: numbers, quoted numbers, booleans, conversion functions,
enum value names, `null`.

Input: a field, its resolved type and the declaration it is in (enum value
names are looked up from there). Output: a model.Default, or a located error.
"""

from __future__ import annotations

import math
from typing import Optional

from .. import model as m
from .. import syntax as s
from ..diagnostics import SchemaError
from ..model import Scalar, TypeKind, TypeRef
from ..targets import flatc_python_rules
from .enums import check_has_zero, has_value
from .literals import (
    MASK64,
    as_signed,
    is_null,
    parse_c_integer,
    parse_float,
    parse_integer,
    range_text,
    shown,
    starts_like_name,
)
from .names import Built, Dropped, Entry, Names

MAX_FUNCTION_DEPTH = 64  # FLATBUFFERS_MAX_PARSING_DEPTH
# flatc reads bool defaults as 8-bit integers, so `= 2` is fine for a bool.
BOOL_DEFAULT_RANGE = (0, 255)
ANY_64_BIT = (-(1 << 63), (1 << 64) - 1)  # what a quoted integer is read into
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


class Defaults:
    def __init__(self, names: Names, built: Built):
        self.names = names
        self.built = built

    def of_field(self, field: s.FieldSyntax, type_: TypeRef, owner: Entry) -> m.Default:
        """The default of a table field, written or not."""
        literal = field.default
        if literal is None:
            return self.implicit(field, type_)
        if type_.is_scalar_like and literal.kind == "string" and not literal.plain:
            raise SchemaError.at(
                literal.location,
                "a quoted default of a scalar field must be plain: no escapes, printable "
                "ASCII only",
            )
        if is_null(literal) or (literal.kind == "string" and literal.text == "null"):
            return self.null(literal, type_)
        if type_.kind is TypeKind.STRING and literal.kind == "string" and literal.text == "0":
            return m.Default(m.DefaultKind.NONE)  # flatc takes "0" for no default
        flatc_python_rules.check_default(literal, type_)
        if not type_.is_scalar_like:
            raise SchemaError.at(
                literal.location,
                f"{type_.kind.value} fields cannot have a default value",
            )
        if literal.kind == "empty_vector":
            raise SchemaError.at(literal.location, "[] is a default for vectors only")
        if type_.kind is TypeKind.ENUM:
            return self.of_enum(field, literal, type_)
        return self.scalar(literal, type_.scalar, owner)

    def check_struct_field(self, field: s.FieldSyntax, type_: TypeRef, owner: Entry) -> None:
        """A struct field takes no default but one that flatc reads as its zero:
        an integer, bool or enum value 0, or the float written as `0`."""
        literal = field.default
        zero = False
        if type_.is_scalar_like and not is_null(literal) and literal.kind != "empty_vector":
            default = self.of_field(field, type_, owner)
            if type_.scalar.is_float:
                text = literal.text.rstrip(" ") if literal.kind == "string" else literal.text
                zero = text == "0"
            else:
                zero = default.value in (0, False) and default.kind is not m.DefaultKind.NULL
        if not zero:
            raise SchemaError.at(
                literal.location, "struct fields cannot have default values (other than 0)"
            )

    def implicit(self, field: s.FieldSyntax, type_: TypeRef) -> m.Default:
        if type_.kind is TypeKind.ENUM:
            check_has_zero(self.built.enums[type_.decl], field.name)
            return m.Default(m.DefaultKind.NONE, 0)
        if type_.kind is TypeKind.SCALAR:
            scalar = type_.scalar
            zero = False if scalar.is_bool else 0.0 if scalar.is_float else 0
            return m.Default(m.DefaultKind.NONE, zero)
        return m.Default(m.DefaultKind.NONE)

    def null(self, literal: s.Literal, type_: TypeRef) -> m.Default:
        """`= null`: an optional scalar or enum."""
        if not type_.is_scalar_like:
            raise SchemaError.at(
                literal.location, "only scalar and enum fields can be optional (= null)"
            )
        if type_.kind is TypeKind.ENUM and self.built.enums[type_.decl].value_of("null"):
            raise SchemaError.at(
                literal.location,
                f"`= null` makes the field optional, but enum '{type_.decl}' has a value "
                "named null",
            )
        return m.Default(m.DefaultKind.NULL)

    # -- scalars

    def scalar(self, literal: s.Literal, scalar: Scalar, owner: Entry) -> m.Default:
        if literal.kind == "function":
            return m.Default(m.DefaultKind.FLOAT, self.function_value(literal, scalar, owner))
        if scalar.is_bool and literal.kind != "number" and literal.text in ("true", "false"):
            return m.Default(m.DefaultKind.BOOL, literal.text == "true")
        # A quoted number may have blanks before it; flatc drops spaces after it.
        text = literal.text.rstrip(" ") if literal.kind == "string" else literal.text
        if scalar.is_float:
            value = parse_float(text.lstrip(" ")) if ")" not in text else None
            if value is None:
                raise _not_valid(literal, scalar)
            return m.Default(m.DefaultKind.FLOAT, value)
        low, high = BOOL_DEFAULT_RANGE if scalar.is_bool else scalar.int_range
        if starts_like_name(text) and not scalar.is_bool and literal.kind != "number":
            value = self.qualified_enum_values(literal, scalar, owner)
        elif literal.kind == "string":
            value = parse_c_integer(text, *ANY_64_BIT)
        else:
            value = parse_integer(text) if literal.kind == "number" else None
        if value is None:
            raise _not_valid(literal, scalar)
        if not low <= value <= high:
            raise SchemaError.at(
                literal.location,
                f"default {shown(literal)} does not fit {scalar.canonical} {range_text(low, high)}",
            )
        if scalar.is_bool:
            return m.Default(m.DefaultKind.BOOL, value != 0)
        return m.Default(m.DefaultKind.INT, value)

    def function_value(self, literal: s.Literal, scalar: Scalar, owner: Entry) -> float:
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
        if argument.kind == "empty_vector" or is_null(argument):
            raise SchemaError.at(argument.location, f"{argument.text} is not a number")
        if argument.kind == "string" and not argument.plain:
            raise SchemaError.at(argument.location, "a quoted number must be plain")
        x = self.scalar(argument, Scalar.FLOAT64, owner).value
        try:
            return function(x)
        except (ValueError, OverflowError):
            return math.nan  # C's math functions return NaN where Python's raise

    # -- enum values

    def qualified_enum_values(self, literal: s.Literal, scalar: Scalar, owner: Entry) -> int:
        """flatc's reading of an integer default written as enum values,
        `"Color.Red Color.Blue"`: each qualified by its enum (found from the
        field's namespace outwards), their values OR-ed as 64-bit integers."""
        bits = 0
        for word in literal.text.split(" "):
            enum_name, dot, value_name = word.partition(".")
            if not dot:
                raise SchemaError.at(
                    literal.location,
                    f"{shown(literal)} is not a valid {scalar.canonical} default (an enum value "
                    'needs an enum-typed field, or its enum: "Enum.Value")',
                )
            value = self.enum_value_by_name(enum_name, value_name, owner)
            if value is None:
                raise SchemaError.at(literal.location, f"'{word}' is not an enum value")
            bits |= value & MASK64
        return as_signed(bits) if scalar.is_signed else bits

    def enum_value_by_name(self, enum_name: str, value_name: str, owner: Entry) -> Optional[int]:
        namespace = owner.syntax.namespace
        for depth in range(len(namespace), -1, -1):
            entry = self.names.by_name.get(".".join(namespace[:depth] + (enum_name,)))
            if entry is None or entry.index > owner.index:
                continue
            enum = self.built.enums.get(entry.qualified)
            if enum is not None:
                found = enum.value_of(value_name)
                return found.value if found else None
            union = self.built.unions.get(entry.qualified)
            if union is not None:
                if value_name == "NONE":
                    return 0
                member = next((x for x in union.members if x.name == value_name), None)
                return member.value if member else None
            if isinstance(entry.syntax, (s.EnumSyntax, s.UnionSyntax)):
                raise Dropped()  # it failed: reported there
        return None

    def of_enum(self, field: s.FieldSyntax, literal: s.Literal, type_: TypeRef) -> m.Default:
        """An enum field's default: value names (OR-ed: bit_flags) or a number."""
        enum = self.built.enums[type_.decl]
        low, high = enum.underlying.int_range
        text = literal.text.rstrip(" ") if literal.kind == "string" else literal.text
        # flatc reads a default that starts like a name as value names (a quoted
        # one split at each single space), anything else as a number.
        if starts_like_name(text) and literal.kind in ("ident", "string"):
            names = tuple(literal.text.split(" ")) if literal.kind == "string" else (text,)
            value, kind = _enum_value_names(names, enum, literal), m.DefaultKind.ENUM
        else:
            names, kind = (), m.DefaultKind.INT
            value = _enum_number(text, literal, enum)
        if not low <= value <= high:
            raise SchemaError.at(
                literal.location,
                f"default {shown(literal)} does not fit {enum.underlying.canonical} "
                f"{range_text(low, high)}",
            )
        if not enum.bit_flags and not has_value(enum, value):
            raise SchemaError.at(
                literal.location,
                f"default {shown(literal)} of field '{field.name.text}' is not a value of enum "
                f"'{enum.name}'",
            )
        return m.Default(kind, value, names)


def _enum_value_names(names: tuple[str, ...], enum: m.Enum, literal: s.Literal) -> int:
    """The OR of the named values, as the enum's underlying type."""
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
            raise SchemaError.at(literal.location, f"'{name}' is not a value of enum '{enum.name}'")
        bits |= enum_value.value & MASK64
    return as_signed(bits) if enum.underlying.is_signed else bits


def _enum_number(text: str, literal: s.Literal, enum: m.Enum) -> int:
    """An enum default written as a number (a quoted one as C reads it)."""
    value = None
    if literal.kind == "number":
        value = parse_integer(text)
    elif literal.kind == "string":
        value = parse_c_integer(text, *ANY_64_BIT)
    if value is None:
        raise SchemaError.at(
            literal.location,
            f"{literal.text!r} is not a valid enum default: an integer or value "
            f"names of '{enum.name}'",
        )
    return value


def _not_valid(literal: s.Literal, scalar: Scalar) -> SchemaError:
    return SchemaError.at(
        literal.location, f"{shown(literal)} is not a valid {scalar.canonical} default"
    )
