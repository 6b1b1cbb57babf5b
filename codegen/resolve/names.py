"""Names and scopes, the first phase: the declarations in global order (each
qualified name once), what each written type name means (codegen.binding
decides it as flatc does), the rules on field names, and what has been built
of each declaration so far.

Input: the statements of every file, included files first. Output: `Names`,
which the later phases ask; `Built`, which they fill.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from .. import model as m
from .. import syntax as s
from ..binding import Binding, bind
from ..diagnostics import SchemaError
from ..model import Location, TypeKind

UNION_TYPE_SUFFIX = "_type"  # a union field `u` also declares `u_type`
# The kind of type a declaration's name stands for.
DECLARATION_KINDS = {
    s.EnumSyntax: TypeKind.ENUM,
    s.UnionSyntax: TypeKind.UNION,
    s.StructSyntax: TypeKind.STRUCT,
    s.TableSyntax: TypeKind.TABLE,
}


class Dropped(Exception):
    """A reference to a declaration that already failed: no new diagnostic."""


@dataclass(frozen=True)
class Entry:
    """A declaration in global order."""

    index: int
    syntax: s.DeclarationSyntax
    qualified: str


ErrorSink = Callable[[Optional[Location], str], None]


class Names:
    """Every declaration by qualified name, services apart (flatc keeps them in
    a namespace of their own), and the declarations that failed."""

    def __init__(self, statements: list[s.Statement], error: ErrorSink):
        self.statements = statements
        self.entries: list[Entry] = []
        self.by_name: dict[str, Entry] = {}  # types: tables, structs, enums, unions
        self.services_by_name: dict[str, Entry] = {}
        self.bindings = bind(statements)
        self.failed: set[str] = set()
        self._register(error)

    def _register(self, error: ErrorSink) -> None:
        for index, statement in enumerate(self.statements):
            if not isinstance(statement, s.DeclarationSyntax):
                continue
            qualified = ".".join(statement.namespace + (statement.name.text,))
            names = (
                self.services_by_name if isinstance(statement, s.RpcServiceSyntax) else self.by_name
            )
            if qualified in names:
                first = names[qualified].syntax.name.location
                error(
                    statement.name.location, f"'{qualified}' is already declared (first at {first})"
                )
                continue
            entry = Entry(index, statement, qualified)
            self.entries.append(entry)
            names[qualified] = entry

    def usable(self, entry: Entry) -> Entry:
        """The entry, unless its declaration failed (reported there)."""
        if entry.qualified in self.failed:
            raise Dropped()
        return entry

    # -- where a written name binds

    def binding(self, name: s.Name) -> Binding:
        return self.bindings.type_at(name.location)

    def bound_entry(self, name: s.Name) -> Optional[Entry]:
        """The declaration a written name binds to, as flatc binds it (see
        codegen.binding), or None when none ever completes it."""
        binding = self.binding(name)
        if binding.target is None:
            return None
        entry = self.by_name.get(binding.target)
        if entry is None:
            raise Dropped()  # its declaration repeats a name: reported there
        is_enum = isinstance(entry.syntax, (s.EnumSyntax, s.UnionSyntax))
        if is_enum != (binding.kind == "enum"):
            raise Dropped()  # an enum and a table of one name: reported there
        return entry

    def known_struct(self, written: s.TypeSyntax) -> bool:
        """Whether the written type (a vector's or array's element type for
        those) named a struct already declared where it was written: flatc
        checks some attributes against what it knows there."""
        return self.binding(_element_name(written)).known_struct

    def pending(self, written: s.TypeSyntax) -> bool:
        """Whether the written type (or its element type) was not declared yet there."""
        return self.binding(_element_name(written)).pending

    # -- lookups by text

    def earlier_entry(self, text: str, namespace: tuple[str, ...], before: int) -> Optional[Entry]:
        """The type `text` names from `namespace` (as written, then innermost
        namespace outwards) among the declarations up to index `before`."""
        candidates = [text] + [
            ".".join(namespace[:depth] + (text,)) for depth in range(len(namespace), 0, -1)
        ]
        for qualified in candidates:
            entry = self.by_name.get(qualified)
            if entry is not None and entry.index <= before:
                return entry
        return None

    def later_enum_or_union(self, name: s.Name, namespace: tuple[str, ...]) -> Optional[Entry]:
        """An enum or union the name would find if it were declared earlier."""
        entry = self.earlier_entry(name.text, namespace, len(self.statements))
        if entry is not None and isinstance(entry.syntax, (s.EnumSyntax, s.UnionSyntax)):
            return entry
        return None

    def service_named(self, text: str, namespace: tuple[str, ...]) -> Optional[str]:
        """The qualified name of a service `text` names from `namespace`, innermost first."""
        for depth in range(len(namespace), -1, -1):
            service = ".".join(namespace[:depth] + (text,))
            if service in self.services_by_name:
                return service
        return None

    # -- field names

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


def check_union_type_field(field: s.FieldSyntax, seen: dict[str, s.FieldSyntax]) -> None:
    """A union field `u` also declares `u_type`; the two must not collide."""
    type_name = field.name.text + UNION_TYPE_SUFFIX
    previous = seen.get(type_name)
    if previous is not None:
        raise SchemaError.at(
            field.name.location,
            f"field '{type_name}' already exists: union field '{field.name.text}' declares it",
        )
    seen[type_name] = field


@dataclass
class Built:
    """The model declarations built so far, by qualified name and kind."""

    enums: dict[str, m.Enum] = field(default_factory=dict)
    unions: dict[str, m.Union] = field(default_factory=dict)
    structs: dict[str, m.Struct] = field(default_factory=dict)
    tables: dict[str, m.Table] = field(default_factory=dict)
    services: dict[str, m.RpcService] = field(default_factory=dict)

    def add(self, qualified: str, declaration: m.Declaration) -> None:
        self._of_kind(declaration)[qualified] = declaration

    def in_order(self, entries: list[Entry]) -> tuple[m.Declaration, ...]:
        """The built declaration of each entry (all of them built)."""
        types = {**self.enums, **self.unions, **self.structs, **self.tables}
        return tuple(
            (self.services if isinstance(e.syntax, s.RpcServiceSyntax) else types)[e.qualified]
            for e in entries
        )

    def _of_kind(self, declaration: m.Declaration) -> dict:
        kinds = {
            m.Enum: self.enums,
            m.Union: self.unions,
            m.Struct: self.structs,
            m.Table: self.tables,
            m.RpcService: self.services,
        }
        return kinds[type(declaration)]


def _element_name(written: s.TypeSyntax) -> s.Name:
    while isinstance(written, (s.VectorType, s.ArrayType)):
        written = written.element
    return written.name
