"""Golden diagnostics of the invalid-schema corpus: next to each
`corpus/invalid/NAME.fbs`, `NAME.stderr` holds what our command line prints for
it, with the corpus folder's path left out. test_flatc_agreement.py compares
against them; regenerate them (never edit them by hand) with

    python tests/codegen/corpus_golden.py
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
INVALID = Path(__file__).resolve().parent / "corpus" / "invalid"


def golden_path(schema: Path) -> Path:
    return schema.with_suffix(".stderr")


def diagnostic(schema: Path, work: Path) -> str:
    """Our command line's output for `schema`, run from its folder (so paths are
    relative to it)."""
    from codegen.fuzz import run_ours

    with contextlib.chdir(schema.parent):
        verdict, problem = run_ours(Path(schema.name), work / "out", work / "cache")
    if problem is not None:
        raise AssertionError(f"{schema.name}: {problem}:\n{verdict.output}")
    if verdict.accepted:
        raise AssertionError(f"we accept {schema.name}, which belongs to the invalid corpus")
    return verdict.output


def main() -> int:
    written = 0
    with tempfile.TemporaryDirectory() as tmp:
        for schema in sorted(INVALID.glob("*.fbs")):
            work = Path(tmp) / schema.stem
            text = diagnostic(schema, work)
            golden = golden_path(schema)
            if not golden.exists() or golden.read_text() != text:
                golden.write_text(text)
                written += 1
        stale = [p for p in INVALID.glob("*.stderr") if not p.with_suffix(".fbs").exists()]
        for path in stale:
            path.unlink()
    print(f"{written} golden file(s) written, {len(stale)} removed")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main())
