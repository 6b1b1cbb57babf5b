"""Errors as values: a diagnostic has a location and a message, and is rendered
once, at the command line, as `file:line:col: error: message`, the source line
and a caret under the column."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from .model import Location


@dataclass(frozen=True)
class Diagnostic:
    message: str
    location: Optional[Location] = None

    def render(self, source_lines: Optional[list[str]] = None) -> str:
        if self.location is None:
            return f"error: {self.message}"
        head = f"{self.location}: error: {self.message}"
        if not source_lines or not (1 <= self.location.line <= len(source_lines)):
            return head
        line = source_lines[self.location.line - 1].rstrip("\n")
        # Keep tabs in the caret line so the caret lines up under the column.
        pad = "".join(c if c == "\t" else " " for c in line[: self.location.column - 1])
        return f"{head}\n{line}\n{pad}^"


class SchemaError(Exception):
    """One or more diagnostics, raised once by the stage that found them."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(d.render() for d in self.diagnostics))

    @classmethod
    def at(cls, location: Optional[Location], message: str) -> "SchemaError":
        return cls([Diagnostic(message, location)])

    def render(self) -> str:
        return "\n".join(d.render(_read_lines(d.location)) for d in self.diagnostics)


def _read_lines(location: Optional[Location]) -> Optional[list[str]]:
    if location is None:
        return None
    try:
        with open(location.file, encoding="utf-8") as f:
            return f.read().splitlines()
    except OSError:
        return None
