"""What each written name means, decided as flatc decides it: in one pass over
the statements in the order flatc reads them, with flatc's symbol tables as they
are at each point.

flatc looks a type name up among the enums and unions declared so far (the
innermost enclosing namespace first), then among tables and structs. A table or
struct name it does not know yet becomes a pending declaration, filed under the
name as written, that the next table or struct of that name (plain name) or of
that qualified name (dotted name) completes, in whatever namespace. What flatc
checks about a type at the point of use sees only what is known there: a
struct declared later is, at a use before it, not yet a struct.

The resolver asks this module where a name binds and what was known about its
target where it was written; it reports the errors itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from . import syntax as s
from .model import Location, Scalar


@dataclass(frozen=True)
class Binding:
    """A written type name at one place.

    kind: `enum` (an enum or union, known at once), `struct` (a table or struct,
    possibly one declared later), `none` (not a type: a scalar or `string`).
    target: the qualified name of the declaration it names in the end, or None
    if no declaration ever completes it (an error: flatc's "type referenced but
    not defined"). known_struct: the target was already declared as a struct
    (not a table, not pending) where the name is written. pending: the target
    was not declared yet there."""

    kind: str
    target: Optional[str]
    known_struct: bool = False
    pending: bool = False


@dataclass
class _Symbol:
    """A table or struct in flatc's table of them: pending until declared."""

    pending: bool
    fixed: bool = False
    qualified: Optional[str] = None  # once declared


@dataclass(frozen=True)
class Bindings:
    types: dict[Location, Binding]  # by the location of the written name
    field_clashes: dict[Location, str]  # field name -> the table or struct it names
    roots: dict[Location, "RootBinding"]

    def type_at(self, location: Location) -> Binding:
        return self.types.get(location, Binding("none", None))


@dataclass(frozen=True)
class RootBinding:
    """root_type: found (at that point, by flatc's two lookups), struct_then
    (it was a struct there), target (what it names in the end, if anything)."""

    found: bool
    struct_then: bool
    target: Optional[str]


def bind(statements: Iterable[s.Statement]) -> Bindings:
    return _Binder().run(statements)


def _qualify(namespace: tuple[str, ...], name: str) -> str:
    return ".".join(namespace + (name,))


class _Binder:
    def __init__(self) -> None:
        self.structs: dict[str, _Symbol] = {}
        self.enums: dict[str, str] = {}  # qualified -> qualified
        self.namespace: tuple[str, ...] = ()
        self.sites: dict[Location, tuple[str, Optional[_Symbol], Optional[str], bool, bool]] = {}
        self.field_clashes: dict[Location, str] = {}
        self.roots: dict[Location, tuple[bool, bool, Optional[_Symbol]]] = {}

    # -- flatc's lookups

    def find_enum(self, name: str) -> Optional[str]:
        """Enums: the innermost enclosing namespace first, the global one last."""
        for depth in range(len(self.namespace), 0, -1):
            found = self.enums.get(_qualify(self.namespace[:depth], name))
            if found:
                return found
        return self.enums.get(name)

    def find_struct(self, name: str) -> Optional[_Symbol]:
        """Tables and structs: a pending one under the name as written, then
        any under the current namespace, then each enclosing one, then global."""
        symbol = self.structs.get(name)
        if symbol is not None and symbol.pending:
            return symbol
        symbol = self.structs.get(_qualify(self.namespace, name))
        if symbol is not None:
            return symbol
        for depth in range(len(self.namespace) - 1, 0, -1):
            symbol = self.structs.get(_qualify(self.namespace[:depth], name))
            if symbol is not None:
                return symbol
        return self.structs.get(name)

    def use_struct(self, name: str) -> _Symbol:
        symbol = self.find_struct(name)
        if symbol is None:
            symbol = _Symbol(pending=True)
            self.structs[name] = symbol
        return symbol

    def declare_struct(self, decl: s.DeclarationSyntax) -> None:
        name = decl.name.text
        qualified = _qualify(self.namespace, name)
        symbol = self.structs.get(name)
        if symbol is not None and symbol.pending:
            del self.structs[name]
            self.structs[qualified] = symbol  # replaces any symbol filed there
        else:
            symbol = self.structs.get(qualified)
            if symbol is None:
                symbol = _Symbol(pending=True)
                self.structs[qualified] = symbol
            elif not symbol.pending:
                return  # declared twice: the resolver reports it
        symbol.pending = False
        symbol.fixed = isinstance(decl, s.StructSyntax)
        symbol.qualified = qualified

    # -- recording

    def record_type(self, written: s.TypeSyntax) -> None:
        if isinstance(written, (s.VectorType, s.ArrayType)):
            self.record_type(written.element)
            return
        name = written.name
        if "." not in name.text and (Scalar.from_name(name.text) or name.text == "string"):
            return
        self.record_name(name, enums_first=True)

    def record_name(self, name: s.Name, enums_first: bool) -> None:
        enum = self.find_enum(name.text) if enums_first else None
        if enum is not None:
            self.sites[name.location] = ("enum", None, enum, False, False)
            return
        symbol = self.use_struct(name.text)
        known_struct = not symbol.pending and symbol.fixed
        self.sites[name.location] = ("struct", symbol, None, known_struct, symbol.pending)

    # -- the pass

    def run(self, statements: Iterable[s.Statement]) -> Bindings:
        for statement in statements:
            if isinstance(statement, (s.DeclarationSyntax, s.RootType)):
                self.namespace = statement.namespace
            if isinstance(statement, (s.TableSyntax, s.StructSyntax)):
                self.declare_struct(statement)
                for field_syntax in statement.fields:
                    self.record_field(field_syntax)
            elif isinstance(statement, (s.EnumSyntax, s.UnionSyntax)):
                qualified = _qualify(self.namespace, statement.name.text)
                self.enums.setdefault(qualified, qualified)
                if isinstance(statement, s.EnumSyntax):
                    if statement.underlying is not None:
                        self.record_type(statement.underlying)
                    continue
                for member in statement.members:
                    if member.alias is not None:
                        self.record_type(member.type)
                    elif isinstance(member.type, s.NamedType):
                        self.record_name(member.type.name, enums_first=False)
            elif isinstance(statement, s.RpcServiceSyntax):
                for method in statement.methods:
                    self.record_name(method.request, enums_first=True)
                    self.record_name(method.response, enums_first=True)
            elif isinstance(statement, s.RootType):
                self.record_root(statement)
        return self.result()

    def record_field(self, field_syntax: s.FieldSyntax) -> None:
        name = field_syntax.name.text
        clash = self.find_struct(name)
        if clash is not None:
            self.field_clashes[field_syntax.name.location] = clash.qualified or name
        self.record_type(field_syntax.type)
        for attribute in field_syntax.attributes:
            value = attribute.value
            if (
                attribute.name == "nested_flatbuffer"
                and value is not None
                and value.kind == "string"
            ):
                self.record_name(s.Name(value.text, value.location), enums_first=False)

    def record_root(self, statement: s.RootType) -> None:
        name = statement.name.text
        symbol = self.structs.get(name) or self.structs.get(_qualify(self.namespace, name))
        if symbol is None:
            self.roots[statement.name.location] = (False, False, None)
        else:
            self.roots[statement.name.location] = (
                True,
                symbol.fixed and not symbol.pending,
                symbol,
            )

    def result(self) -> Bindings:
        types = {}
        for where, (kind, symbol, enum, known_struct, pending) in self.sites.items():
            target = enum if kind == "enum" else symbol.qualified
            types[where] = Binding(kind, target, known_struct, pending)
        roots = {
            where: RootBinding(found, struct_then, symbol.qualified if symbol else None)
            for where, (found, struct_then, symbol) in self.roots.items()
        }
        return Bindings(types, self.field_clashes, roots)
