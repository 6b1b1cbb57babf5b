"""Enums and unions: their values, checked and computed as flatc does.

Input: an enum's or union's declaration; `TypeResolver` for its underlying type
or its members' types. Output: a model.Enum or model.Union, or a located error.
"""

from __future__ import annotations

from .. import model as m
from .. import syntax as s
from ..diagnostics import SchemaError
from ..model import Location, Scalar
from .attributes import check_no_force_align, declaration_fields, has, model_attributes
from .literals import integer_literal, range_text
from .names import Entry
from .types import TypeResolver


def build_enum(entry: Entry, types: TypeResolver) -> m.Enum:
    decl: s.EnumSyntax = entry.syntax
    underlying = types.enum_underlying(decl, entry)
    check_no_force_align(decl)
    bit_flags = has(decl.attributes, "bit_flags")
    values: list[m.EnumValue] = []
    names: set[str] = set()
    next_value = 0
    for value_syntax in _written_values(decl):
        name = value_syntax.name
        if name.text in names:
            raise SchemaError.at(
                name.location, f"enum value '{name.text}' already exists in '{decl.name.text}'"
            )
        names.add(name.text)
        raw = next_value
        if value_syntax.value is not None:
            raw = integer_literal(value_syntax.value, "enum value")
        value = _enum_value(raw, underlying, bit_flags, value_syntax)
        values.append(
            m.EnumValue(
                name.text,
                value,
                value_syntax.doc,
                name.location,
                model_attributes(value_syntax.attributes),
            )
        )
        next_value = raw + 1
    _check_smallest_value_unique(decl.name.text, [(v.name, v.value, v.location) for v in values])
    return m.Enum(
        **declaration_fields(decl),
        underlying=underlying,
        values=tuple(values),
        bit_flags=bit_flags,
    )


def _written_values(decl: s.EnumSyntax) -> tuple[s.EnumValueSyntax, ...]:
    """The values as written; flatc gives an empty enum one, NONE (bit position
    0 for bit_flags)."""
    if decl.values:
        return decl.values
    none = s.Name("NONE", decl.name.location)
    return (s.EnumValueSyntax(none, None, (), (), decl.name.location),)


def _enum_value(raw: int, underlying: Scalar, bit_flags: bool, value: s.EnumValueSyntax) -> int:
    """The value of a written (or counted) `raw`: itself, or for bit_flags the
    mask of the bit position it gives."""
    where = value.value.location if value.value else value.name.location
    low, high = underlying.int_range
    if not low <= raw <= high:
        raise SchemaError.at(
            where, f"enum value {raw} does not fit {underlying.canonical} {range_text(low, high)}"
        )
    if not bit_flags:
        return raw
    bits = underlying.size * 8
    if not 0 <= raw < bits:
        raise SchemaError.at(
            where,
            f"bit flag position {raw} is out of range for {underlying.canonical} "
            f"(0 to {bits - 1})",
        )
    if underlying.is_signed and raw == bits - 1:
        # flatc only warns about signed bit_flags, but refuses the sign bit.
        raise SchemaError.at(
            where,
            f"bit flag position {raw} is the sign bit of {underlying.canonical}; "
            f"use an unsigned underlying type",
        )
    return 1 << raw


def build_union(entry: Entry, types: TypeResolver) -> m.Union:
    decl: s.UnionSyntax = entry.syntax
    check_no_force_align(decl)
    low, high = Scalar.UINT8.int_range
    members: list[m.UnionMember] = []
    by_name: dict[str, Location] = {"NONE": decl.name.location}
    next_value = 1
    for member in decl.members:
        type_ = types.union_member(member, entry)
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
            value = integer_literal(member.value, "union value")
            if not low <= value <= high:
                raise SchemaError.at(
                    member.value.location,
                    f"union value {value} does not fit ubyte {range_text(low, high)}",
                )
        if value > high:
            raise SchemaError.at(name_location, f"union value {value} does not fit ubyte")
        members.append(m.UnionMember(name, type_, value, member.doc, name_location))
        next_value = value + 1
    _check_smallest_value_unique(
        decl.name.text,
        [("NONE", 0, decl.name.location)] + [(x.name, x.value, x.location) for x in members],
    )
    return m.Union(**declaration_fields(decl), members=tuple(members))


def _written_name(written: s.TypeSyntax) -> str:
    return written.name.text.replace(".", "_") if isinstance(written, s.NamedType) else ""


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


def has_value(enum: m.Enum, value: int) -> bool:
    return any(v.value == value for v in enum.values)


def check_has_zero(enum: m.Enum, where: s.Name) -> None:
    """A field of this enum with no default written takes 0, which must be a
    value (any value goes for bit_flags)."""
    if not enum.bit_flags and not has_value(enum, 0):
        raise SchemaError.at(
            where.location,
            f"enum '{enum.name}' has no value 0, the implicit default of field '{where.text}'",
        )
