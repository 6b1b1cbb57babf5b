"""The one writer of generated files.

Everything is rendered and formatted before this module is called, so a
template or format error never reaches the disk. Writing stages every changed
file next to its target first and only then renames them all into place; a
file whose content is unchanged is not touched (it keeps its mtime)."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

IGNORED_PARTS = ("__pycache__",)


@dataclass(frozen=True)
class Drift:
    path: str
    status: str  # changed, missing or unexpected
    diff: str = ""


@dataclass(frozen=True)
class WriteReport:
    written: tuple[str, ...]
    removed: tuple[str, ...]
    unchanged: int


def read_existing(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return None


def write_files(
    out_dir: Path, files: Mapping[str, bytes], remove: Iterable[str] = ()
) -> WriteReport:
    changed = {p: data for p, data in files.items() if read_existing(out_dir / p) != data}
    staged: list[tuple[Path, Path]] = []
    try:
        for rel, data in changed.items():
            target = out_dir / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            tmp.write_bytes(data)
            staged.append((tmp, target))
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, target in staged:
        os.replace(tmp, target)
    removed = tuple(sorted(p for p in remove if p not in files and (out_dir / p).is_file()))
    for rel in removed:
        (out_dir / rel).unlink()
    return WriteReport(tuple(sorted(changed)), removed, len(files) - len(changed))


def find_drift(
    out_dir: Path, files: Mapping[str, bytes], also_expected: Iterable[str] = ()
) -> list[Drift]:
    """Differences between `files` and `out_dir`: changed, missing, and files
    present there that nothing generates (`also_expected` are left alone)."""
    drift = []
    for rel, data in files.items():
        existing = read_existing(out_dir / rel)
        if existing is None:
            drift.append(Drift(rel, "missing"))
        elif existing != data:
            drift.append(Drift(rel, "changed", _short_diff(rel, existing, data)))
    expected = set(files) | set(also_expected)
    for rel in _files_under(out_dir):
        if rel not in expected:
            drift.append(Drift(rel, "unexpected"))
    return drift


def _files_under(root: Path) -> list[str]:
    if not root.is_dir():
        return []
    found = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_file() and not any(part in IGNORED_PARTS for part in rel.parts):
            found.append(rel.as_posix())
    return found


def _short_diff(rel: str, existing: bytes, expected: bytes, max_lines: int = 20) -> str:
    lines = list(
        difflib.unified_diff(
            existing.decode("utf-8", "replace").splitlines(keepends=True),
            expected.decode("utf-8", "replace").splitlines(keepends=True),
            fromfile=f"{rel} (on disk)",
            tofile=f"{rel} (from schema)",
            n=1,
        )
    )
    if len(lines) > max_lines:
        lines = lines[:max_lines] + [f"... ({len(lines) - max_lines} more diff lines)\n"]
    return "".join(lines)
