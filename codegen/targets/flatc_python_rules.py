"""What only `flatc --python` refuses: the rules behind the flatc outputs under
`flatc_py/` (see pipeline.run_flatc), kept with the targets. For each, another
of flatc's languages takes a schema `--python` refuses
(tests/codegen/test_flatc_python_rules.py).

flatc's parser refuses some constructs only when Python is among the languages
it generates: vectors of unions, union members other than tables, defaults of
strings and vectors, 64-bit offsets. Its Python generator cannot write some
schemas it parsed: a nested_flatbuffer root it cannot find again (its C++
generator neither), a non-ASCII file_identifier. codegen.resolve calls each rule
where flatc applies it, among the rules of every language, so that a
declaration's first error stays the one found first there. Every rule raises a
located SchemaError or returns nothing.
"""

from __future__ import annotations

from typing import Container

from .. import syntax as s
from ..diagnostics import SchemaError
from ..model import Location, TypeKind, TypeRef

ONLY_TABLES = "union members must be tables (flatc --python supports no other union members)"


def check_vector_element(element: TypeRef, written: s.VectorType) -> None:
    if element.kind is TypeKind.UNION:
        raise SchemaError.at(
            written.location, "vectors of unions are not supported by flatc --python"
        )


def check_union_member(kind: TypeKind, written: s.TypeSyntax) -> None:
    """`kind`: the kind of type the member names (other languages take structs)."""
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


def check_64_bit_offsets(attribute: s.AttributeSyntax, type_: TypeRef) -> None:
    """`offset64` or `vector64` (the attribute) on a string or vector: other
    fields may have neither in any language (codegen.resolve.attributes)."""
    if type_.kind in (TypeKind.STRING, TypeKind.VECTOR):
        raise SchemaError.at(
            attribute.location,
            f"flatc --python does not support 64-bit offsets ({attribute.name})",
        )


def check_default(literal: s.Literal, type_: TypeRef) -> None:
    """A default written for a string or vector field (other than a string's
    "0", which flatc takes for no default)."""
    if type_.kind in (TypeKind.STRING, TypeKind.VECTOR):
        raise SchemaError.at(
            literal.location,
            "flatc --python does not support default values for strings and vectors",
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
