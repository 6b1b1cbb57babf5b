"""Syntax tree -> resolved model (codegen.model), validating as flatc does.

The rules follow what `flatc --python` (25.12.19) accepts; each was checked
against that binary (see tests/codegen/corpus). Messages are our own words.

`resolve` runs the phases, each a module of this package:

- `names`: the declarations in global order (included files first), each
  qualified name once, and what each written type name means;
- `attributes`: attribute names and values (all reported, in statement order);
- then each declaration, one kind after the other: enums and unions (`enums`,
  with `types` for what a written type means), structs and tables (`fields`:
  name, type and attributes of each field; then `layout`: offsets, vtable
  slots and `defaults`), services (`services`);
- `file_level`: root_type, file_identifier and the other statements.

The rules that only matter for flatc's Python output live with the targets
(codegen.targets.flatc_python_rules); the phases call them where flatc
applies them. A declaration that fails is left out; later references to it are
dropped silently instead of piling up follow-on errors. All diagnostics are
raised together, sorted by position.
"""

from __future__ import annotations

from typing import Callable, Optional

from .. import model as m
from .. import syntax as s
from ..diagnostics import Diagnostic, SchemaError
from ..model import Location
from . import enums, layout, services
from .attributes import FieldAttributes, check_attribute_names
from .defaults import Defaults
from .fields import FieldTypes
from .file_level import file_level
from .names import Built, Dropped, Entry, Names
from .types import TypeResolver

__all__ = ["resolve"]


def resolve(schema: s.SchemaSyntax) -> m.Schema:
    """The model of a parsed schema; raises SchemaError with every diagnostic."""
    diagnostics: list[Diagnostic] = []

    def error(location: Optional[Location], message: str) -> None:
        diagnostics.append(Diagnostic(message, location))

    statements = [st for f in schema.files for st in f.statements]
    names = Names(statements, error)
    check_attribute_names(statements, error)
    built = Built()
    for kind, build in _declaration_passes(schema, names, built):
        for entry in names.entries:
            if isinstance(entry.syntax, kind) and entry.qualified not in names.failed:
                _build_one(entry, build, names, built, diagnostics)
    schema_level = file_level(schema, names, built, error)
    if diagnostics:
        file_order = {f.path: i for i, f in enumerate(schema.files)}
        raise SchemaError(sorted(diagnostics, key=lambda d: _position(d, file_order)))
    root_file = schema.files[-1].path
    others = tuple(f.path for f in schema.files[:-1])
    return m.Schema(
        path=schema.root,
        files=(root_file, *others),
        declarations=built.in_order(names.entries),
        **schema_level,
    )


Build = Callable[[Entry], m.Declaration]


def _declaration_passes(
    schema: s.SchemaSyntax, names: Names, built: Built
) -> list[tuple[type, Build]]:
    """One pass per kind of declaration, in the order later kinds need earlier ones."""
    types = TypeResolver(names, built)
    defaults = Defaults(names, built)
    attributes = FieldAttributes(names, schema.files[-1])
    fields = FieldTypes(names, built, types, attributes, defaults)
    return [
        (s.EnumSyntax, lambda entry: enums.build_enum(entry, types)),
        (s.UnionSyntax, lambda entry: enums.build_union(entry, types)),
        (
            s.StructSyntax,
            lambda entry: layout.build_struct(entry, fields.of_struct(entry), built.structs),
        ),
        (
            s.TableSyntax,
            lambda entry: layout.build_table(entry, fields.of_table(entry), defaults),
        ),
        (s.RpcServiceSyntax, lambda entry: services.build_service(entry, names)),
    ]


def _build_one(
    entry: Entry, build: Build, names: Names, built: Built, diagnostics: list[Diagnostic]
) -> None:
    """Build one declaration; on error record it and mark the declaration failed."""
    try:
        built.add(entry.qualified, build(entry))
    except SchemaError as error:
        diagnostics.extend(error.diagnostics)
        names.failed.add(entry.qualified)
    except Dropped:
        names.failed.add(entry.qualified)


def _position(diagnostic: Diagnostic, file_order: dict[str, int]) -> tuple[int, int, int]:
    location = diagnostic.location
    if location is None:
        return (-1, 0, 0)
    return (file_order.get(location.file, len(file_order)), location.line, location.column)
