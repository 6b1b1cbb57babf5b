"""Formatting of rendered output: black for Python, clang-format for C++.

Formatting dominates generation time, so formatted text is cached by the hash
of (formatter, its version, its configuration, the unformatted text) in a
git-ignored folder; only text that changed since the last run is formatted.
A Python file is formatted a top-level definition at a time, so that adding
one op to the schema reformats a few small pieces of a 3,000-line module
rather than all of it."""

from __future__ import annotations

import ast
import hashlib
import os
import subprocess
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from . import resources
from .diagnostics import SchemaError

CLANG_FORMAT_CONFIG = resources.CLANG_FORMAT_CONFIG
BLACK_LINE_LENGTH = 100


def default_cache_dir() -> Path:
    return Path(os.environ.get("MLXD_CODEGEN_CACHE", resources.default_cache_dir()))


@dataclass(frozen=True)
class Formatter:
    name: str
    apply: Callable[[str, str, int], str]  # (text, path for messages, indent) -> formatted


def _black_identity() -> str:
    from importlib.metadata import version

    return f"black {version('black')} line-length={BLACK_LINE_LENGTH}"


def _black_apply(text: str, path: str, indent: int) -> str:
    import black  # imported only on a cache miss: importing black costs ~0.3 s

    # A dedented method keeps the width it has inside its class.
    mode = black.Mode(line_length=BLACK_LINE_LENGTH - indent)
    try:
        return black.format_str(text, mode=mode)
    except Exception as error:  # black raises several unrelated types for bad input
        raise SchemaError.at(None, f"black could not format {path}: {error}") from None


def _clang_format_binary() -> str:
    import clang_format

    return clang_format.get_executable("clang-format")


def _clang_format_identity() -> str:
    from importlib.metadata import version

    config = CLANG_FORMAT_CONFIG.read_text()
    return f"clang-format {version('clang-format')}\n{config}"


def _clang_format_apply(text: str, path: str, indent: int) -> str:
    result = subprocess.run(
        [
            _clang_format_binary(),
            f"--style=file:{CLANG_FORMAT_CONFIG}",
            f"--assume-filename={path}",
        ],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SchemaError.at(None, f"clang-format failed on {path}: {result.stderr.strip()}")
    return result.stdout


FORMATTERS = {
    ".py": Formatter("black", _black_apply),
    ".h": Formatter("clang-format", _clang_format_apply),
    ".cpp": Formatter("clang-format", _clang_format_apply),
}


@dataclass(frozen=True)
class Chunk:
    text: str
    indent: str  # a method's chunk is formatted dedented, then indented back


def python_chunks(text: str) -> list[Chunk]:
    """`text` cut before and after every top-level class and function, and every
    method of a class (each with its decorators and the comments right above
    it). Formatted one by one and joined with black's blank lines, the chunks
    are what black makes of the whole file (a test checks it). Text that does
    not parse stays whole, so that black reports the error on the whole file."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return [Chunk(text, "")]
    lines = text.splitlines(keepends=True)
    cuts = {0, len(lines)}
    for node in tree.body:
        if _is_definition(node):
            cuts.update(_extent(node, lines))
            if isinstance(node, ast.ClassDef):
                cuts.update(
                    cut
                    for child in node.body
                    if _is_definition(child)
                    for cut in _extent(child, lines)
                )
    bounds = sorted(cuts)
    chunks = ("".join(lines[a:b]) for a, b in zip(bounds, bounds[1:]))
    return [_dedented(c) for c in chunks if c.strip()]


def _is_definition(node: ast.AST) -> bool:
    return isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))


def _extent(node: ast.AST, lines: list[str]) -> tuple[int, int]:
    start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
    while start > 0 and lines[start - 1].lstrip().startswith("#"):
        start -= 1
    return start, node.end_lineno


def _dedented(text: str) -> Chunk:
    first = next(line for line in text.splitlines() if line.strip())
    indent = first[: len(first) - len(first.lstrip())]
    if not indent:
        return Chunk(text, "")
    return Chunk(textwrap.dedent(text), indent)


def join_chunks(formatted: list[tuple[Chunk, str]]) -> str:
    """Black's blank lines: two between top-level statements, one before a method."""
    parts = []
    for index, (chunk, text) in enumerate(formatted):
        body = textwrap.indent(text.strip("\n"), chunk.indent, lambda line: line.strip() != "")
        if index:
            parts.append("\n\n" if chunk.indent else "\n\n\n")
        parts.append(body)
    return "".join(parts) + "\n"


# What changes the output for the same input: the tool version and its settings.
IDENTITIES = {"black": _black_identity, "clang-format": _clang_format_identity}


class FormatCache:
    def __init__(self, cache_dir: Optional[Path] = None):
        self.cache_dir = cache_dir or default_cache_dir()
        self._identities: dict[str, str] = {}

    def format(self, path: str, text: str) -> str:
        formatter = FORMATTERS.get(Path(path).suffix)
        if formatter is None:
            return text
        if formatter.name == "black":
            # The whole file first: one read when nothing changed.
            return self._cached(formatter, text, "whole", lambda: self._format_chunks(path, text))
        return self._format_one(formatter, path, text)

    def _format_chunks(self, path: str, text: str) -> str:
        formatter = FORMATTERS[".py"]
        chunks = python_chunks(text)
        if len(chunks) == 1:
            return self._format_one(formatter, path, text)
        return join_chunks(
            [(c, self._format_one(formatter, path, c.text, c.indent)) for c in chunks]
        )

    def _format_one(self, formatter: Formatter, path: str, text: str, indent: str = "") -> str:
        return self._cached(
            formatter, text, indent, lambda: formatter.apply(text, path, len(indent))
        )

    def _cached(
        self, formatter: Formatter, text: str, variant: str, make: Callable[[], str]
    ) -> str:
        key = self._key(formatter.name, text, variant)
        cached = self.cache_dir / key[:2] / key
        try:
            return cached.read_text(encoding="utf-8")
        except OSError:
            pass
        formatted = make()
        self._store(cached, formatted)
        return formatted

    def _key(self, formatter_name: str, text: str, variant: str = "") -> str:
        """`variant`: a method's indent, or "whole" for a whole chunked file."""
        if formatter_name not in self._identities:
            self._identities[formatter_name] = IDENTITIES[formatter_name]()
        digest = hashlib.sha256(self._identities[formatter_name].encode() + variant.encode())
        digest.update(b"\0")
        digest.update(text.encode("utf-8"))
        return digest.hexdigest()

    @staticmethod
    def _store(cached: Path, formatted: str) -> None:
        # A cache that cannot be written only costs speed.
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(formatted, encoding="utf-8")
            os.replace(tmp, cached)
        except OSError:
            pass
