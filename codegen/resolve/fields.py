"""The fields of tables and structs, one by one in order: name, type and
attributes, each checked as flatc checks them.

Input: a table's or struct's declaration. Output: its fields with their
resolved types, in order, for the layout (codegen.resolve.layout); or the
first error, located.
"""

from __future__ import annotations

from typing import Optional

from .. import syntax as s
from ..diagnostics import SchemaError
from ..model import TypeKind, TypeRef
from .attributes import FieldAttributes, find
from .defaults import Defaults
from .enums import check_has_zero
from .names import Built, Entry, Names, check_union_type_field
from .types import TypeResolver

TypedField = tuple[s.FieldSyntax, TypeRef]
# A field `x` of these kinds also makes flatc's generators write these names, so
# no other field may have them (a union's `x_type` is a field of its own).
CLASHING_SUFFIXES = {
    TypeKind.UNION: ("Type",),
    TypeKind.VECTOR: ("_length", "Length"),
    TypeKind.STRING: ("_byte_vector", "ByteVector"),
}


class FieldTypes:
    def __init__(
        self,
        names: Names,
        built: Built,
        types: TypeResolver,
        attributes: FieldAttributes,
        defaults: Defaults,
    ):
        self.names = names
        self.built = built
        self.types = types
        self.attributes = attributes
        self.defaults = defaults

    def of_struct(self, entry: Entry) -> list[TypedField]:
        decl: s.StructSyntax = entry.syntax
        if not decl.fields:
            raise SchemaError.at(decl.name.location, "a struct needs at least one field")
        typed: list[TypedField] = []
        seen: dict[str, s.FieldSyntax] = {}
        key_field: Optional[s.FieldSyntax] = None
        for field in decl.fields:
            self.names.check_field_name(field, seen, decl)
            type_ = self.struct_field_type(field, entry)
            self.attributes.check(field, type_, entry)
            key_field = self.attributes.check_key(field, type_, key_field)
            typed.append((field, type_))
        return typed

    def of_table(self, entry: Entry) -> list[TypedField]:
        decl: s.TableSyntax = entry.syntax
        typed: list[TypedField] = []
        seen: dict[str, s.FieldSyntax] = {}
        key_field: Optional[s.FieldSyntax] = None
        for field in decl.fields:
            self.names.check_field_name(field, seen, decl)
            type_ = self.types.resolve(field.type, entry)
            if type_.kind is TypeKind.ARRAY:
                raise SchemaError.at(
                    field.type.location,
                    "fixed-length arrays are only allowed in structs (wrap it in a struct)",
                )
            self.attributes.check(field, type_, entry)
            if type_.kind is TypeKind.UNION:
                check_union_type_field(field, seen)
            key_field = self.attributes.check_key(field, type_, key_field)
            typed.append((field, type_))
        return typed

    def struct_field_type(self, field: s.FieldSyntax, owner: Entry) -> TypeRef:
        deprecated = find(field.attributes, "deprecated")
        if deprecated is not None:
            raise SchemaError.at(deprecated.location, "struct fields cannot be deprecated")
        type_ = self.types.resolve(field.type, owner)
        if field.default is not None:
            self.defaults.check_struct_field(field, type_, owner)
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
            check_has_zero(self.built.enums[element.decl], field.name)
        return type_

    def check_struct_complete(self, qualified: str, written: s.TypeSyntax, owner: Entry) -> None:
        if qualified == owner.qualified:
            raise SchemaError.at(written.location, f"struct '{qualified}' cannot contain itself")
        if qualified not in self.built.structs:
            raise SchemaError.at(
                written.location,
                f"struct '{qualified}' must be declared before a struct that contains it",
            )


def check_generated_names(typed: list[TypedField]) -> None:
    """No field of a table or struct may be named like what flatc writes for
    another (a rule of flatc's parser, for every language): a union `u` gets
    `uType`, a vector `v` gets `v_length` and `vLength`, a string `s` gets
    `s_byte_vector` and `sByteVector`."""
    kinds = {field.name.text: type_.kind for field, type_ in typed}
    for field, _ in typed:
        name = field.name.text
        for kind, suffixes in CLASHING_SUFFIXES.items():
            for suffix in suffixes:
                base = name[: -len(suffix)]
                if len(name) > len(suffix) and name.endswith(suffix) and kinds.get(base) is kind:
                    raise SchemaError.at(
                        field.name.location,
                        f"field '{name}' clashes with what flatc generates for the "
                        f"{kind.value} field '{base}'",
                    )
