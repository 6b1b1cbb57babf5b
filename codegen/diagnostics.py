"""Errors as values: a diagnostic has a location and a message, and is rendered
once, at the command line, as `file:line:col: error: message`, the source line
and a caret under the column."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Optional

from .model import Location


@dataclass(frozen=True)
class Diagnostic:
    message: str
    location: Optional[Location] = None

    def render(self, source_lines: Optional[list[str]] = None) -> str:
        if self.location is None:
            return f"error: {self.message}"
        head = f"{self.location}: error: {self.message}"
        if source_lines is None:
            return head
        number = self.location.line
        line = source_lines[number - 1] if 1 <= number <= len(source_lines) else ""
        # One character shown per character of the line, so the caret stays
        # under its column: control characters as blanks, tabs kept.
        shown = "".join(c if c >= " " or c == "\t" else " " for c in line)
        pad = "".join(c if c == "\t" else " " for c in shown[: self.location.column - 1])
        return f"{head}\n{shown}\n{pad}^"


class SchemaError(Exception):
    """One or more diagnostics, raised once by the stage that found them.
    `sources` holds the text of locations that are not files on disk (yet): a
    command-line argument, a schema about to be written."""

    def __init__(
        self, diagnostics: Iterable[Diagnostic], sources: Optional[Mapping[str, str]] = None
    ):
        self.diagnostics = tuple(diagnostics)
        self.sources = dict(sources or {})
        super().__init__("\n".join(d.render() for d in self.diagnostics))

    @classmethod
    def at(cls, location: Optional[Location], message: str) -> "SchemaError":
        return cls([Diagnostic(message, location)])

    def render(self) -> str:
        return "\n".join(d.render(_read_lines(d.location, self.sources)) for d in self.diagnostics)


def _read_lines(location: Optional[Location], sources: Mapping[str, str]) -> Optional[list[str]]:
    """The file's lines as the parser counts them: split at line feeds only."""
    if location is None:
        return None
    if location.file in sources:
        text = sources[location.file]
    else:
        try:
            with open(location.file, "rb") as f:
                text = f.read().decode("utf-8", "surrogateescape")
        except OSError:
            return None
    return [line.removesuffix("\r") for line in text.split("\n")]
