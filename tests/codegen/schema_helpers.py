"""Helpers shared by the front end tests: write a schema, load it, locate tokens."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.diagnostics import Diagnostic, SchemaError
from codegen.frontend import load_schema
from codegen.model import Schema


def write(folder: Path, text: str, name: str = "schema.fbs") -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def load(folder: Path, text: str) -> Schema:
    return load_schema(write(folder, text))


def errors(folder: Path, text: str) -> tuple[Diagnostic, ...]:
    with pytest.raises(SchemaError) as raised:
        load(folder, text)
    return raised.value.diagnostics


def position(text: str, needle: str) -> tuple[int, int]:
    """(line, column), 1-based, of a token picked out by a unique needle.

    The needle is a snippet of the text; a `|` in it marks the token, else the
    token is where the snippet starts: "A, |A" is the second A of "A, A"."""
    marker = needle.index("|") if "|" in needle else 0
    snippet = needle.replace("|", "")
    assert text.count(snippet) == 1, f"needle {snippet!r} is not unique in the schema"
    offset = text.index(snippet) + marker
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def assert_error_at(folder: Path, text: str, needle: str, fragment: str) -> Diagnostic:
    """The first diagnostic points at the needle's token and says the fragment."""
    first = errors(folder, text)[0]
    assert first.location is not None, first
    assert (first.location.line, first.location.column) == position(text, needle), first
    assert fragment in first.message, first
    return first


def generate_error(folder: Path, text: str) -> str:
    """The first line our command line prints for `text` (as folder/schema.fbs),
    which must refuse it with status 2 and write nothing."""
    write(folder, text)
    result = subprocess.run(
        [sys.executable, "-m", "codegen", "generate", "--schema", "schema.fbs", "--out", "out",
         "--skip-flatc"],
        cwd=folder, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert not (folder / "out").exists()
    return result.stderr.splitlines()[0]
