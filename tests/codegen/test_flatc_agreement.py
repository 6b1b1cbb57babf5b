"""Our front end accepts a schema exactly when `flatc --python` 25.12.19 does.

Every schema in corpus/valid must pass both flatc and us; every schema in
corpus/invalid must fail both, so the corpus itself is checked against flatc.
Files in subfolders are include helpers, not cases. Once the command line
exists (codegen/__main__.py) the verdict is the command line's: exit 0, or exit
2 with a `file:line:col: error:` first line; before that, load_schema's.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.diagnostics import SchemaError
from codegen.flatc import find_flatc
from codegen.frontend import load_schema

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"
VALID = sorted((CORPUS / "valid").glob("*.fbs"))
INVALID = sorted((CORPUS / "invalid").glob("*.fbs"))
HAS_CLI = (REPO / "codegen" / "__main__.py").is_file()
DIAGNOSTIC_HEAD = re.compile(r"^\S[^:]*:\d+:\d+: error: ")


@pytest.fixture(scope="module")
def flatc():
    return find_flatc()


def flatc_accepts(flatc, schema: Path, tmp_path: Path) -> tuple[bool, str]:
    result = flatc.run("--python", "-o", str(tmp_path / "flatc"), str(schema))
    return result.returncode == 0, result.stderr


def ours_accepts(schema: Path, tmp_path: Path) -> tuple[bool, str]:
    if not HAS_CLI:
        try:
            load_schema(schema)
        except SchemaError as error:
            return False, error.render()
        return True, ""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "codegen",
            "generate",
            "--skip-flatc",
            "-q",
            "--schema",
            str(schema),
            "--out",
            str(tmp_path / "out"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode == 0:
        return True, ""
    assert result.returncode == 2, f"exit {result.returncode}:\n{result.stderr}"
    first = result.stderr.splitlines()[0] if result.stderr else ""
    assert DIAGNOSTIC_HEAD.match(first), f"not a located diagnostic: {result.stderr}"
    return False, result.stderr


def test_corpus_is_big_enough():
    assert len(VALID) >= 40 and len(INVALID) >= 60


@pytest.mark.parametrize("schema", VALID, ids=lambda p: p.name)
def test_valid_schema_accepted_by_flatc_and_us(schema, flatc, tmp_path):
    accepted, stderr = flatc_accepts(flatc, schema, tmp_path)
    assert accepted, f"corpus error: flatc rejects {schema.name}:\n{stderr}"
    accepted, stderr = ours_accepts(schema, tmp_path)
    assert accepted, f"we reject {schema.name}:\n{stderr}"


@pytest.mark.parametrize("schema", INVALID, ids=lambda p: p.name)
def test_invalid_schema_rejected_by_flatc_and_us(schema, flatc, tmp_path):
    accepted, _ = flatc_accepts(flatc, schema, tmp_path)
    assert not accepted, f"corpus error: flatc accepts {schema.name}"
    accepted, _ = ours_accepts(schema, tmp_path)
    assert not accepted, f"we accept {schema.name}, flatc rejects it"
