"""Statements about the whole schema: root_type, file_identifier,
file_extension, attribute declarations, native includes, JSON data.

Input: every statement (included files first), with `Names` and the tables
built. Output: the model.Schema fields they give; errors go to the sink, all of
them (these statements do not stop one another).
"""

from __future__ import annotations

from typing import Optional

from .. import syntax as s
from ..diagnostics import SchemaError
from ..targets import flatc_python_rules
from .names import Built, ErrorSink, Names


def file_level(schema: s.SchemaSyntax, names: Names, built: Built, error: ErrorSink) -> dict:
    """They are checked in every file, but as flatc forgets an included file's
    root_type, file_identifier and file_extension, only the root file's count."""
    root_file = schema.files[-1].path
    root_type = file_identifier = file_extension = None
    attributes: list[str] = []
    native_includes: list[str] = []
    for statement in names.statements:
        in_root = _statement_file(statement) == root_file
        if isinstance(statement, s.RootType):
            found = _root_type(statement, names, error)
            if in_root:
                root_type = found or root_type
        elif isinstance(statement, s.FileIdentifier):
            if len(statement.value.encode("utf-8")) != 4:
                error(
                    statement.location,
                    f"file_identifier must be exactly 4 bytes, not {statement.value!r}",
                )
            if in_root:
                file_identifier = statement.value
        elif isinstance(statement, s.FileExtension) and in_root:
            file_extension = statement.value
        elif isinstance(statement, s.AttributeDecl) and statement.name not in attributes:
            attributes.append(statement.name)
        elif isinstance(statement, s.NativeInclude):
            native_includes.append(statement.path)
        elif isinstance(statement, s.JsonObject) and in_root and root_type is None:
            error(statement.location, "JSON data in a schema needs a root_type declared before it")
    if file_identifier is not None:
        _check_identifier_for_python(file_identifier, root_file, names, error)
    return dict(
        root_type=root_type if root_type in built.tables else None,
        file_identifier=file_identifier,
        file_extension=file_extension,
        attributes=tuple(attributes),
        native_includes=tuple(native_includes),
    )


def _root_type(statement: s.RootType, names: Names, error: ErrorSink) -> Optional[str]:
    """flatc looks the name up as written, then in the current namespace (no
    enclosing ones), among the tables and structs it knows at that point,
    pending ones included; it must not be a struct there."""
    found = names.bindings.roots[statement.name.location]
    if not found.found:
        error(statement.name.location, f"unknown root type '{statement.name.text}'")
        return None
    if found.struct_then:
        error(statement.name.location, "the root type must be a table")
        return None
    return found.target


def _check_identifier_for_python(
    identifier: str, root_file: str, names: Names, error: ErrorSink
) -> None:
    has_tables = any(
        isinstance(e.syntax, s.TableSyntax) and e.syntax.file == root_file for e in names.entries
    )
    statement = next(st for st in reversed(names.statements) if isinstance(st, s.FileIdentifier))
    try:
        flatc_python_rules.check_file_identifier(identifier, statement.location, has_tables)
    except SchemaError as refused:
        for diagnostic in refused.diagnostics:
            error(diagnostic.location, diagnostic.message)


def _statement_file(statement: s.Statement) -> Optional[str]:
    location = getattr(statement, "location", None)
    return location.file if location is not None else None
