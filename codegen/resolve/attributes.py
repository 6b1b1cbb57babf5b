"""Attributes: which names may be used, what their values may be, and the rules
flatc applies to the attributes of table and struct fields (each against the
field's resolved type and what flatc knows where the field is written).

Input: the statements (names, values) or a field with its resolved type.
Output: nothing but errors; `model_attributes` carries them into the model.
"""

from __future__ import annotations

from typing import Iterable, Optional

from .. import model as m
from .. import syntax as s
from ..diagnostics import SchemaError
from ..model import Scalar, TypeKind, TypeRef
from ..targets import flatc_python_rules
from .literals import is_null, parse_integer, range_text
from .names import Entry, ErrorSink, Names

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
INT32_RANGE = Scalar.INT32.int_range  # flatc reads an attribute's number as an int32
HASHES_BY_SIZE = {
    2: ("fnv1_16", "fnv1a_16"),
    4: ("fnv1_32", "fnv1a_32"),
    8: ("fnv1_64", "fnv1a_64"),
}
HASHABLE = (Scalar.INT16, Scalar.UINT16, Scalar.INT32, Scalar.UINT32, Scalar.INT64, Scalar.UINT64)
WIDE_OFFSETS = ("offset64", "vector64")  # the first one written is reported
KEYABLE = (TypeKind.SCALAR, TypeKind.ENUM, TypeKind.STRING, TypeKind.STRUCT, TypeKind.ARRAY)


def find(attributes: Iterable[s.AttributeSyntax], name: str) -> Optional[s.AttributeSyntax]:
    return next((a for a in attributes if a.name == name), None)


def has(attributes: Iterable[s.AttributeSyntax], name: str) -> bool:
    return find(attributes, name) is not None


def model_attributes(attributes: Iterable[s.AttributeSyntax]) -> tuple[m.Attribute, ...]:
    return tuple(
        m.Attribute(a.name, a.value.text if a.value else None, a.location) for a in attributes
    )


def declaration_fields(decl: s.DeclarationSyntax) -> dict:
    """What every model declaration takes from its syntax."""
    return dict(
        name=decl.name.text,
        namespace=decl.namespace,
        doc=decl.doc,
        attributes=model_attributes(decl.attributes),
        location=decl.name.location,
        file=decl.file,
    )


# ---------------------------------------------------------------- names and values


def check_attribute_names(statements: list[s.Statement], error: ErrorSink) -> None:
    """User attributes must be declared (`attribute "x";`) before their first
    use; a number given to any attribute must be an int32."""
    declared: set[str] = set()
    for statement in statements:
        if isinstance(statement, s.AttributeDecl):
            declared.add(statement.name)
        elif isinstance(statement, s.DeclarationSyntax):
            for attribute in _all_attributes(statement):
                if attribute.name not in KNOWN_ATTRIBUTES and attribute.name not in declared:
                    error(
                        attribute.location,
                        f"attribute '{attribute.name}' is not declared; add "
                        f'`attribute "{attribute.name}";` before its first use',
                    )
                _check_value(attribute, error)


def _check_value(attribute: s.AttributeSyntax, error: ErrorSink) -> None:
    value = attribute.value
    if value is None or value.kind != "number":
        return
    number = parse_integer(value.text)
    if number is None:
        error(
            value.location,
            f"value of attribute '{attribute.name}' must be an integer or a string, "
            f"not {value.text}",
        )
    elif not INT32_RANGE[0] <= number <= INT32_RANGE[1]:
        error(
            value.location,
            f"value of attribute '{attribute.name}' does not fit int32 "
            f"{range_text(*INT32_RANGE)}: {value.text}",
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


def check_no_force_align(decl: s.DeclarationSyntax) -> None:
    force_align = find(decl.attributes, "force_align")
    if force_align is not None:
        raise SchemaError.at(
            force_align.location,
            "force_align is for structs (and vectors), not enums and unions",
        )


# ---------------------------------------------------------------- fields


class FieldAttributes:
    """The attribute rules of table and struct fields; `check` and `check_key`
    raise the first rule a field breaks."""

    def __init__(self, names: Names, root_file: s.SchemaFile):
        self.names = names
        self.root_file = root_file

    def check(self, field: s.FieldSyntax, type_: TypeRef, owner: Entry) -> None:
        """The rules flatc applies to table and struct fields alike."""
        self.check_required(field, type_, owner)
        is_ubyte_vector = (  # of ubyte, or of an enum of ubyte
            type_.kind is TypeKind.VECTOR
            and type_.element.kind in (TypeKind.SCALAR, TypeKind.ENUM)
            and type_.element.scalar is Scalar.UINT8
        )
        nested = find(field.attributes, "nested_flatbuffer")
        if nested is not None:
            if not is_ubyte_vector:
                raise SchemaError.at(
                    nested.location, "nested_flatbuffer applies only to a [ubyte] field"
                )
            self.check_nested_root(nested, owner)
        flexbuffer = find(field.attributes, "flexbuffer")
        if flexbuffer is not None and not is_ubyte_vector:
            raise SchemaError.at(flexbuffer.location, "flexbuffer applies only to a [ubyte] field")
        check_hash(field, type_)
        self.check_native(field, type_)
        check_64_bit_offsets(field, type_)

    def check_required(self, field: s.FieldSyntax, type_: TypeRef, owner: Entry) -> None:
        required = find(field.attributes, "required")
        if required is None:
            return
        if isinstance(owner.syntax, s.StructSyntax):
            raise SchemaError.at(
                required.location, "struct fields are always present; 'required' is not allowed"
            )
        if type_.is_scalar_like:
            raise SchemaError.at(
                required.location, "only non-scalar table fields can be 'required'"
            )
        if field.default is not None and is_null(field.default):
            raise SchemaError.at(required.location, "a field cannot be both optional and required")

    def check_native(self, field: s.FieldSyntax, type_: TypeRef) -> None:
        shared = find(field.attributes, "shared")
        if shared is not None and type_.kind is not TypeKind.STRING:
            raise SchemaError.at(shared.location, "'shared' applies only to string fields")
        alloc = find(field.attributes, "native_custom_alloc")
        if alloc is not None:
            raise SchemaError.at(
                alloc.location, "native_custom_alloc applies to tables and structs, not fields"
            )
        inline = find(field.attributes, "native_inline")
        if inline is None:
            return
        # flatc asks what it knows where the field is written: a struct declared
        # later is not yet a struct there, a table or struct not yet declared
        # may still be a table.
        known_struct = self.names.known_struct(field.type)
        allowed = type_.kind is TypeKind.STRUCT and known_struct
        if type_.kind is TypeKind.VECTOR:
            element = type_.element.kind
            allowed = element is TypeKind.TABLE or (
                element is TypeKind.STRUCT and (known_struct or self.names.pending(field.type))
            )
        if not allowed:
            raise SchemaError.at(
                inline.location,
                "'native_inline' applies only to a struct declared before the field, or to "
                "a vector of structs or of tables",
            )

    def check_nested_root(self, nested: s.AttributeSyntax, owner: Entry) -> None:
        if nested.value is None or nested.value.kind != "string":
            raise SchemaError.at(
                nested.location, "nested_flatbuffer needs the root table name as a string"
            )
        entry = self.names.bound_entry(s.Name(nested.value.text, nested.value.location))
        if entry is None or not isinstance(entry.syntax, (s.TableSyntax, s.StructSyntax)):
            raise SchemaError.at(
                nested.value.location,
                f"nested_flatbuffer names unknown table '{nested.value.text}'",
            )
        flatc_python_rules.check_nested_root(
            nested.value, entry.qualified, owner.syntax, self.root_file, self.names.by_name
        )

    def check_key(
        self, field: s.FieldSyntax, type_: TypeRef, previous: Optional[s.FieldSyntax]
    ) -> Optional[s.FieldSyntax]:
        """Check a `key` attribute; returns the key field so far."""
        key = find(field.attributes, "key")
        if key is None:
            return previous
        if previous is not None:
            raise SchemaError.at(
                key.location,
                f"only one field may be the 'key' (already '{previous.name.text}')",
            )
        if type_.kind is TypeKind.STRUCT and not self.names.known_struct(field.type):
            raise SchemaError.at(
                key.location,
                "a 'key' struct field needs the struct declared before it (flatc does not "
                "know it is a struct yet)",
            )
        if type_.kind not in KEYABLE:
            raise SchemaError.at(
                key.location, "a 'key' field must be a string, a scalar, a struct or an array"
            )
        if field.default is not None and is_null(field.default):
            raise SchemaError.at(key.location, "an optional (= null) field cannot be the 'key'")
        return field


def check_64_bit_offsets(field: s.FieldSyntax, type_: TypeRef) -> None:
    """`offset64` and `vector64` apply to strings and vectors only (and those
    flatc --python refuses)."""
    wide = next((a for name in WIDE_OFFSETS for a in field.attributes if a.name == name), None)
    if wide is None:
        return
    if type_.kind not in (TypeKind.STRING, TypeKind.VECTOR):
        raise SchemaError.at(
            wide.location,
            f"flatc --python does not support 64-bit offsets on this field type ({wide.name})",
        )
    flatc_python_rules.check_64_bit_offsets(wide, type_)


def check_hash(field: s.FieldSyntax, type_: TypeRef) -> None:
    hash_attribute = find(field.attributes, "hash")
    cpp_type = find(field.attributes, "cpp_type")
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
        where = hash_attribute.value.location if hash_attribute.value else hash_attribute.location
        raise SchemaError.at(
            where,
            f"unknown hash '{algorithm}' for {element.scalar.size * 8}-bit fields; "
            f"use one of {', '.join(allowed)}",
        )
