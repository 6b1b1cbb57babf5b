"""What only `flatc --python` refuses: the rules behind the flatc outputs under
`flatc_py/` (see pipeline.run_flatc), kept with the targets.

flatc's parser refuses some constructs only when Python is among the languages
it generates (vectors of unions, union members other than tables, defaults of
strings and vectors, 64-bit offsets), and its Python generator cannot write some
schemas it parsed (a field named like an accessor it writes for another field, a
nested_flatbuffer root it cannot find again, a non-ASCII file_identifier).
codegen.resolve calls each rule where flatc's parser applies it, among the rules
of every language, so that a declaration's first error stays the one found
first there. Every rule raises a located SchemaError or returns nothing.
"""

from __future__ import annotations

from typing import Container, Optional

from .. import syntax as s
from ..diagnostics import SchemaError
from ..model import Location, TypeKind, TypeRef

# A field `x` of these kinds also makes flatc --python write these names, so no
# other field may have them (a union's `x_type` is a field of its own).
CLASHING_SUFFIXES = {
    TypeKind.UNION: ("Type",),
    TypeKind.VECTOR: ("_length", "Length"),
    TypeKind.STRING: ("_byte_vector", "ByteVector"),
}
ONLY_TABLES = "union members must be tables (flatc --python supports no other union members)"


def check_vector_element(element: TypeRef, written: s.VectorType) -> None:
    if element.kind is TypeKind.UNION:
        raise SchemaError.at(
            written.location, "vectors of unions are not supported by flatc --python"
        )


def check_union_member(kind: Optional[TypeKind], written: s.TypeSyntax) -> None:
    """`kind`: the kind of type the member names; None for a scalar or `string`
    written as a bare member, which names no declaration."""
    if kind is not TypeKind.TABLE:
        raise SchemaError.at(written.location, ONLY_TABLES)


def check_string_union_member(written: s.TypeSyntax) -> None:
    """A member written as `string` with an alias (`S: string`; a bare `string`
    names a table), refused before its type is looked up."""
    if isinstance(written, s.NamedType) and written.name.text == "string":
        raise SchemaError.at(
            written.location,
            "union members must be tables (flatc --python has no string union members)",
        )


def check_field_attributes(field: s.FieldSyntax, type_: TypeRef) -> None:
    for name in ("offset64", "vector64"):
        attribute = next((a for a in field.attributes if a.name == name), None)
        if attribute is not None:
            what = (
                "64-bit offsets"
                if type_.kind in (TypeKind.STRING, TypeKind.VECTOR)
                else "64-bit offsets on this field type"
            )
            raise SchemaError.at(
                attribute.location, f"flatc --python does not support {what} ({name})"
            )


def check_default(literal: s.Literal, type_: TypeRef) -> None:
    """A default written for a string or vector field (other than a string's
    "0", which flatc takes for no default)."""
    if type_.kind in (TypeKind.STRING, TypeKind.VECTOR):
        raise SchemaError.at(
            literal.location,
            "flatc --python does not support default values for strings and vectors",
        )


def check_clashing_names(fields: list[tuple[s.FieldSyntax, TypeRef]]) -> None:
    """No field of a table or struct may be named like what flatc --python
    writes for another: a union `u` gets `uType`, a vector `v` gets `v_length`
    and `vLength`, a string `s` gets `s_byte_vector` and `sByteVector`."""
    kinds = {field.name.text: type_.kind for field, type_ in fields}
    for field, _ in fields:
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


def check_nested_root(
    value: s.Literal,
    qualified: str,
    owner: s.DeclarationSyntax,
    root_file: s.SchemaFile,
    declared: Container[str],
) -> None:
    """flatc --python looks a nested_flatbuffer root (`value`, which names the
    table `qualified`) up again, as an absolute name or in the namespace in
    effect at the end of the root schema, and aborts when that fails; so only
    those spellings work for tables of the root schema. `declared`: the
    qualified names of every type."""
    if owner.file != root_file.path:
        return
    last_namespace = next(
        (st.parts for st in reversed(root_file.statements) if isinstance(st, s.NamespaceDecl)),
        (),
    )
    spellings = (value.text, ".".join(last_namespace + (value.text,)))
    if not any(name in declared for name in spellings):
        raise SchemaError.at(
            value.location,
            f"flatc --python cannot find nested_flatbuffer root '{value.text}': write it "
            f"fully qualified ('{qualified}')",
        )


def check_file_identifier(identifier: str, location: Location, root_has_tables: bool) -> None:
    """flatc --python aborts writing a non-ASCII identifier into table code."""
    if root_has_tables and any(ord(c) >= 0x80 for c in identifier):
        raise SchemaError.at(
            location,
            "flatc --python cannot write a file_identifier with non-ASCII characters "
            "into the code of this schema's tables",
        )
