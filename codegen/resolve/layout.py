"""Layout, the last phase of a table or struct: a struct's field offsets,
padding, size and alignment; a table's vtable slots (from `id` attributes or in
order) and each field's default.

Input: the typed fields (codegen.resolve.fields), the structs built so far.
Output: a model.Struct or model.Table, or a located error.
"""

from __future__ import annotations

from typing import Mapping

from .. import model as m
from .. import syntax as s
from ..diagnostics import SchemaError
from ..model import Location, TypeKind, TypeRef
from .attributes import declaration_fields, find, has, model_attributes
from .defaults import Defaults
from .fields import TypedField, check_generated_names
from .literals import parse_c_integer
from .names import UNION_TYPE_SUFFIX, Entry

MAX_FORCE_ALIGN = 32  # FLATBUFFERS_MAX_ALIGNMENT

# ---------------------------------------------------------------- structs


def build_struct(
    entry: Entry, typed: list[TypedField], structs: Mapping[str, m.Struct]
) -> m.Struct:
    decl: s.StructSyntax = entry.syntax
    offsets, sizes = [], []
    offset, alignment = 0, 1
    for _, type_ in typed:
        size, field_alignment = size_and_alignment(type_, structs)
        offset = _round_up(offset, field_alignment)
        offsets.append(offset)
        sizes.append(size)
        offset += size
        alignment = max(alignment, field_alignment)
    alignment = forced_alignment(decl, alignment)
    struct_size = _round_up(offset, alignment)
    check_generated_names(typed)
    ends = offsets[1:] + [struct_size]  # where each field's padding ends
    fields = [
        m.StructField(
            name=field.name.text,
            type=type_,
            offset=field_offset,
            size=size,
            padding=end - field_offset - size,
            doc=field.doc,
            attributes=model_attributes(field.attributes),
            location=field.name.location,
        )
        for (field, type_), field_offset, size, end in zip(typed, offsets, sizes, ends)
    ]
    return m.Struct(
        **declaration_fields(decl), fields=tuple(fields), size=struct_size, alignment=alignment
    )


def size_and_alignment(type_: TypeRef, structs: Mapping[str, m.Struct]) -> tuple[int, int]:
    if type_.kind is TypeKind.ARRAY:
        size, alignment = size_and_alignment(type_.element, structs)
        return size * type_.length, alignment
    if type_.kind is TypeKind.STRUCT:
        struct = structs[type_.decl]
        return struct.size, struct.alignment
    return type_.scalar.size, type_.scalar.size


def forced_alignment(decl: s.StructSyntax, natural: int) -> int:
    attribute = find(decl.attributes, "force_align")
    if attribute is None:
        return natural
    # Read as flatc reads it: a ubyte, from a number or a string constant.
    value = parse_c_integer(attribute.value.text, 0, 255) if attribute.value else None
    if value is None or value & (value - 1) or not natural <= value <= MAX_FORCE_ALIGN:
        raise SchemaError.at(
            _attribute_location(attribute),
            f"force_align must be a power of two from the struct's natural alignment "
            f"{natural} to {MAX_FORCE_ALIGN}",
        )
    return value


def _round_up(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


# ---------------------------------------------------------------- tables


def build_table(entry: Entry, typed: list[TypedField], defaults: Defaults) -> m.Table:
    decl: s.TableSyntax = entry.syntax
    slots = table_slots(typed, decl)
    check_generated_names(typed)
    fields = [
        _table_field(field, type_, slot, defaults.of_field(field, type_, entry))
        for (field, type_), slot in zip(typed, slots)
    ]
    return m.Table(**declaration_fields(decl), fields=tuple(fields))


def _table_field(
    field: s.FieldSyntax, type_: TypeRef, slot: int, default: m.Default
) -> m.TableField:
    return m.TableField(
        name=field.name.text,
        type=type_,
        slot=slot,
        default=default,
        required=has(field.attributes, "required"),
        deprecated=has(field.attributes, "deprecated"),
        optional=default.kind is m.DefaultKind.NULL,
        key=has(field.attributes, "key"),
        doc=field.doc,
        attributes=model_attributes(field.attributes),
        location=field.name.location,
    )


def table_slots(typed: list[TypedField], decl: s.TableSyntax) -> list[int]:
    """Vtable slot of each field's value; a union's type field sits just before it."""
    ids = [find(field.attributes, "id") for field, _ in typed]
    if not any(ids):
        return _sequential_slots([type_ for _, type_ in typed])
    missing = next((f for (f, _), i in zip(typed, ids) if i is None), None)
    if missing is not None:
        raise SchemaError.at(
            missing.name.location,
            f"field '{missing.name.text}' has no 'id': either all fields of "
            f"'{decl.name.text}' have an id or none does",
        )
    return _slots_from_ids(typed, ids)


def _sequential_slots(types: list[TypeRef]) -> list[int]:
    """Slots in declaration order; a union takes two (its type field first)."""
    slots, next_slot = [], 0
    for type_ in types:
        next_slot += type_.kind is TypeKind.UNION
        slots.append(next_slot)
        next_slot += 1
    return slots


def _slots_from_ids(typed: list[TypedField], ids: list[s.AttributeSyntax]) -> list[int]:
    slots = []
    claimed: dict[int, tuple[str, s.AttributeSyntax]] = {}  # id -> field, its `id`
    for (field, type_), attribute in zip(typed, ids):
        slot = _field_id(field, attribute)
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


def _field_id(field: s.FieldSyntax, attribute: s.AttributeSyntax) -> int:
    # flatc reads a bare `id` as id 0, and an id as a ushort (from a number or
    # a string constant).
    value = parse_c_integer(attribute.value.text, 0, 0xFFFF) if attribute.value else 0
    if value is None:
        raise SchemaError.at(
            _attribute_location(attribute),
            f"id of field '{field.name.text}' must be an integer in [0; 65535]",
        )
    return value


def _attribute_location(attribute: s.AttributeSyntax) -> Location:
    """Where an attribute's value is written, else the attribute's name."""
    return attribute.value.location if attribute.value else attribute.location
