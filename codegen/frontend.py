"""The schema front end: a .fbs file (and what it includes) -> codegen.model.Schema."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from .model import Schema
from .parser import parse_schema
from .resolver import resolve


def load_schema(path: str | Path, include_dirs: Sequence[str | Path] = ()) -> Schema:
    """Parse, resolve and validate a schema as flatc 25.12.19 does.

    Raises codegen.diagnostics.SchemaError, carrying located diagnostics, for
    any mistake in the schema (syntax, names, types, layout rules...)."""
    return resolve(parse_schema(path, include_dirs))
