"""Formatting of rendered output: black for Python, clang-format for C++.

Formatting dominates generation time, so formatted text is cached by the hash
of (formatter, its version, its configuration, the unformatted text) in a
git-ignored folder; only text that changed since the last run is formatted."""

from __future__ import annotations

import hashlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from .diagnostics import SchemaError

REPO_ROOT = Path(__file__).resolve().parent.parent
CLANG_FORMAT_CONFIG = REPO_ROOT / ".clang-format"
BLACK_LINE_LENGTH = 100


def default_cache_dir() -> Path:
    return Path(os.environ.get("MLXD_CODEGEN_CACHE", REPO_ROOT / ".cache" / "codegen"))


@dataclass(frozen=True)
class Formatter:
    name: str
    apply: Callable[[str, str], str]  # (text, path for messages) -> formatted text


def _black_identity() -> str:
    from importlib.metadata import version

    return f"black {version('black')} line-length={BLACK_LINE_LENGTH}"


def _black_apply(text: str, path: str) -> str:
    import black  # imported only on a cache miss: importing black costs ~0.3 s

    try:
        return black.format_str(text, mode=black.Mode(line_length=BLACK_LINE_LENGTH))
    except Exception as error:  # black raises several unrelated types for bad input
        raise SchemaError.at(None, f"black could not format {path}: {error}") from None


def _clang_format_binary() -> str:
    import clang_format

    return clang_format.get_executable("clang-format")


def _clang_format_identity() -> str:
    from importlib.metadata import version

    config = CLANG_FORMAT_CONFIG.read_text()
    return f"clang-format {version('clang-format')}\n{config}"


def _clang_format_apply(text: str, path: str) -> str:
    result = subprocess.run(
        [_clang_format_binary(), f"--style=file:{CLANG_FORMAT_CONFIG}", f"--assume-filename={path}"],
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
        key = self._key(formatter.name, text)
        cached = self.cache_dir / key[:2] / key
        try:
            return cached.read_text(encoding="utf-8")
        except OSError:
            pass
        formatted = formatter.apply(text, path)
        self._store(cached, formatted)
        return formatted

    def _key(self, formatter_name: str, text: str) -> str:
        if formatter_name not in self._identities:
            self._identities[formatter_name] = IDENTITIES[formatter_name]()
        digest = hashlib.sha256(self._identities[formatter_name].encode())
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
