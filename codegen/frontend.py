"""The schema front end: a .fbs file (and what it includes) -> codegen.model.Schema."""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

from .model import Schema
from .parser import parse_schema
from .resolve import resolve


def load_schema(
    path: str | Path, include_dirs: Sequence[str | Path] = (), root_text: Optional[str] = None
) -> Schema:
    """Parse, resolve and validate a schema as flatc 25.12.19 does; `root_text`
    replaces the root file's text (see parse_schema).

    Raises codegen.diagnostics.SchemaError, carrying located diagnostics, for
    any mistake in the schema (syntax, names, types, layout rules...)."""
    return resolve(parse_schema(path, include_dirs, root_text))
