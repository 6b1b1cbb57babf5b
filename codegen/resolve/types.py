"""Types: what a written type means, as a linked model.TypeRef.

Input: a written type and the declaration it is written in (its namespace and
place); `Names` says where a name binds, `Built` what is known of the enums.
Output: a TypeRef, or a located error (a reference to a declaration that failed
raises `Dropped`: no new error).
"""

from __future__ import annotations

from .. import syntax as s
from ..diagnostics import SchemaError
from ..model import Scalar, TypeKind, TypeRef
from ..targets import flatc_python_rules
from .literals import parse_integer
from .names import DECLARATION_KINDS, Built, Entry, Names

MAX_ARRAY_LENGTH = 0xFFFF  # array lengths are stored as uint16
NESTED_VECTORS = "nested vector types are not supported (wrap the inner vector in a table)"


class TypeResolver:
    def __init__(self, names: Names, built: Built):
        self.names = names
        self.built = built

    def resolve(self, written: s.TypeSyntax, owner: Entry) -> TypeRef:
        if isinstance(written, s.VectorType):
            element = self.element(written, owner)
            flatc_python_rules.check_vector_element(element, written)
            return TypeRef(TypeKind.VECTOR, element=element)
        if isinstance(written, s.ArrayType):
            element = self.element(written, owner)
            length = parse_integer(written.length.text)
            if length is None or not 0 < length <= MAX_ARRAY_LENGTH:
                raise SchemaError.at(
                    written.length.location,
                    f"fixed-length array length must be an integer in [1; {MAX_ARRAY_LENGTH}], "
                    f"not {written.length.text}",
                )
            return TypeRef(TypeKind.ARRAY, element=element, length=length)
        return self.named(written.name, owner)

    def element(self, written: s.VectorType | s.ArrayType, owner: Entry) -> TypeRef:
        element = self.resolve(written.element, owner)
        if element.kind in (TypeKind.VECTOR, TypeKind.ARRAY):
            raise SchemaError.at(written.location, NESTED_VECTORS)
        return element

    def named(self, name: s.Name, owner: Entry) -> TypeRef:
        scalar = Scalar.from_name(name.text)
        if scalar is not None:
            return TypeRef(TypeKind.SCALAR, scalar=scalar)
        if name.text == "string":
            return TypeRef(TypeKind.STRING)
        entry = self.names.bound_entry(name)
        if entry is None:
            raise self.not_found(name, owner)
        self.names.usable(entry)
        kind = DECLARATION_KINDS[type(entry.syntax)]
        if kind is not TypeKind.ENUM:
            return TypeRef(kind, decl=entry.qualified)
        enum = self.built.enums.get(entry.qualified)
        if enum is None:
            # `enum E : E`: flatc reads E's underlying type while it is still int.
            return TypeRef(TypeKind.SCALAR, scalar=Scalar.INT32)
        return TypeRef(TypeKind.ENUM, scalar=enum.underlying, decl=entry.qualified)

    def not_found(self, name: s.Name, owner: Entry) -> SchemaError:
        """Why a name that no declaration completes is wrong, in the best words we have."""
        namespace = owner.syntax.namespace
        later = self.names.later_enum_or_union(name, namespace)
        if later is not None:
            kind = "enum" if isinstance(later.syntax, s.EnumSyntax) else "union"
            return SchemaError.at(
                name.location,
                f"{kind} '{later.qualified}' is used before its declaration; flatc needs "
                f"enums and unions declared before use",
            )
        service = self.names.service_named(name.text, namespace)
        if service is not None:
            return SchemaError.at(name.location, f"'{service}' is an rpc_service, not a type")
        return unknown_type(name)

    def union_member(self, member: s.UnionMemberSyntax, owner: Entry) -> TypeRef:
        written = member.type
        if not (isinstance(written, s.NamedType) and member.alias is None):
            flatc_python_rules.check_string_union_member(written)
            type_ = self.resolve(written, owner)
            flatc_python_rules.check_union_member(type_.kind, written)
            return type_
        # A bare member names a table or struct, even one called `int` or `string`.
        entry = self.names.bound_entry(written.name)
        if entry is None and (Scalar.from_name(written.name.text) or written.name.text == "string"):
            # flatc takes it for a table never declared; we say why it cannot be a member.
            raise SchemaError.at(written.location, flatc_python_rules.ONLY_TABLES)
        if entry is None:
            raise unknown_type(written.name)
        kind = DECLARATION_KINDS[type(self.names.usable(entry).syntax)]
        flatc_python_rules.check_union_member(kind, written)
        return TypeRef(TypeKind.TABLE, decl=entry.qualified)

    def enum_underlying(self, decl: s.EnumSyntax, entry: Entry) -> Scalar:
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
            binding = self.names.binding(written.name)
            if binding.kind == "enum" or Scalar.from_name(written.name.text):
                scalar = self.named(written.name, entry).scalar
        if scalar is None or not scalar.is_integer:
            raise SchemaError.at(
                written.location, "the underlying type of an enum must be an integer type"
            )
        return scalar


def unknown_type(name: s.Name) -> SchemaError:
    return SchemaError.at(
        name.location, f"unknown type '{name.text}' (check its spelling and namespace)"
    )
