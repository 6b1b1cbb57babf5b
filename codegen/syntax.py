"""The schema syntax tree: what the parser read, before any name is resolved.

Every node carries the Location of the token a diagnostic about it should point
at (a declaration's or field's name, a default value, an attribute...).
Namespaces are already attached to declarations (the parser tracks `namespace`
statements), but type names are still the dotted text written in the schema.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

from .model import Location


@dataclass(frozen=True)
class Span:
    """Where a construct lies in its file's text, as character offsets: from
    its first doc comment (or its first token) to just after its last token.
    For tools that edit a schema (`python -m codegen add-op`)."""

    start: int
    end: int


@dataclass(frozen=True)
class Name:
    """An identifier or dotted name as written, e.g. `a.b.T`."""

    text: str
    location: Location


@dataclass(frozen=True)
class Literal:
    """A constant as written. kind: number, string (text unquoted, escapes
    decoded), ident (a bare word such as an enum value, true, nan, -inf),
    empty_vector (`[]`), function (a conversion function such as `deg(90)`:
    text is its name, argument the literal it applies to).

    `plain` is false for a string constant with an escape sequence or a
    character outside printable ASCII (flatc takes only plain strings as the
    default of a scalar)."""

    kind: str
    text: str
    location: Location
    plain: bool = True
    argument: Optional["Literal"] = None


@dataclass(frozen=True)
class AttributeSyntax:
    name: str
    value: Optional[Literal]
    location: Location


@dataclass(frozen=True)
class NamedType:
    name: Name
    location: Location


@dataclass(frozen=True)
class VectorType:
    element: "TypeSyntax"
    location: Location


@dataclass(frozen=True)
class ArrayType:
    element: "TypeSyntax"
    length: Literal
    location: Location


TypeSyntax = Union[NamedType, VectorType, ArrayType]


@dataclass(frozen=True)
class FieldSyntax:
    name: Name
    type: TypeSyntax
    default: Optional[Literal]
    attributes: tuple[AttributeSyntax, ...]
    doc: tuple[str, ...]
    location: Location


@dataclass(frozen=True)
class EnumValueSyntax:
    name: Name
    value: Optional[Literal]
    attributes: tuple[AttributeSyntax, ...]
    doc: tuple[str, ...]
    location: Location


@dataclass(frozen=True)
class UnionMemberSyntax:
    alias: Optional[Name]
    type: TypeSyntax
    value: Optional[Literal]
    attributes: tuple[AttributeSyntax, ...]
    doc: tuple[str, ...]
    location: Location
    span: Optional[Span] = None


@dataclass(frozen=True)
class RpcMethodSyntax:
    name: Name
    request: Name
    response: Name
    attributes: tuple[AttributeSyntax, ...]
    doc: tuple[str, ...]
    location: Location


@dataclass(frozen=True)
class DeclarationSyntax:
    name: Name
    namespace: tuple[str, ...]
    attributes: tuple[AttributeSyntax, ...]
    doc: tuple[str, ...]
    location: Location
    file: str
    span: Optional[Span] = None


@dataclass(frozen=True)
class TableSyntax(DeclarationSyntax):
    fields: tuple[FieldSyntax, ...] = ()


@dataclass(frozen=True)
class StructSyntax(DeclarationSyntax):
    fields: tuple[FieldSyntax, ...] = ()


@dataclass(frozen=True)
class EnumSyntax(DeclarationSyntax):
    underlying: Optional[TypeSyntax] = None
    values: tuple[EnumValueSyntax, ...] = ()


@dataclass(frozen=True)
class UnionSyntax(DeclarationSyntax):
    members: tuple[UnionMemberSyntax, ...] = ()


@dataclass(frozen=True)
class RpcServiceSyntax(DeclarationSyntax):
    methods: tuple[RpcMethodSyntax, ...] = ()


@dataclass(frozen=True)
class Include:
    path: str
    location: Location


@dataclass(frozen=True)
class NativeInclude:
    path: str
    location: Location


@dataclass(frozen=True)
class NamespaceDecl:
    parts: tuple[str, ...]
    location: Location


@dataclass(frozen=True)
class AttributeDecl:
    name: str
    location: Location


@dataclass(frozen=True)
class RootType:
    name: Name
    namespace: tuple[str, ...]
    location: Location


@dataclass(frozen=True)
class FileIdentifier:
    value: str
    location: Location  # of the string


@dataclass(frozen=True)
class FileExtension:
    value: str
    location: Location


@dataclass(frozen=True)
class JsonObject:
    """Data after the schema; flatc reads it as a buffer, we only skip it."""

    location: Location


Statement = Union[
    Include,
    NativeInclude,
    NamespaceDecl,
    AttributeDecl,
    RootType,
    FileIdentifier,
    FileExtension,
    JsonObject,
    TableSyntax,
    StructSyntax,
    EnumSyntax,
    UnionSyntax,
    RpcServiceSyntax,
]


@dataclass(frozen=True)
class SchemaFile:
    """One parsed file: its statements in source order."""

    path: str
    statements: tuple[Statement, ...]

    @property
    def includes(self) -> tuple[Include, ...]:
        return tuple(s for s in self.statements if isinstance(s, Include))


@dataclass(frozen=True)
class SchemaSyntax:
    """The root file and every file it includes, each once, in the order their
    declarations take effect: included files before the files that include them."""

    root: str
    files: tuple[SchemaFile, ...]  # dependency order: includes first, root last
