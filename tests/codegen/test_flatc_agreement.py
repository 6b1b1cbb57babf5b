"""Our front end accepts a schema exactly when `flatc --python` 25.12.19 does.

Every schema in corpus/valid must pass both flatc and us; every schema in
corpus/invalid must fail both, so the corpus itself is checked against flatc;
our diagnostic for it must equal its golden `.stderr` file (corpus_golden.py).
Files in subfolders are include helpers, not cases. Our verdict is the command
line's (`generate --skip-flatc`, run in-process as codegen.fuzz runs it): exit
0, or exit 2 with one located `file:line:col: error:` diagnostic, its source
line and a caret; never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.flatc import find_flatc
from codegen.fuzz import run_ours
from corpus_golden import diagnostic, golden_path

CORPUS = Path(__file__).resolve().parent / "corpus"
VALID = sorted((CORPUS / "valid").glob("*.fbs"))
INVALID = sorted((CORPUS / "invalid").glob("*.fbs"))


@pytest.fixture(scope="module")
def flatc():
    return find_flatc()


def flatc_accepts(flatc, schema: Path, tmp_path: Path) -> tuple[bool, str]:
    result = flatc.run("--python", "-o", str(tmp_path / "flatc"), str(schema))
    return result.returncode == 0, result.stderr


def ours_accepts(schema: Path, tmp_path: Path) -> tuple[bool, str]:
    verdict, problem = run_ours(schema, tmp_path / "out", tmp_path / "cache")
    assert problem is None, f"{problem}:\n{verdict.output}"
    return verdict.accepted, verdict.output


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
    ours = diagnostic(schema, tmp_path)
    golden = golden_path(schema)
    assert golden.exists(), f"no {golden.name}: run python tests/codegen/corpus_golden.py"
    assert ours == golden.read_text(), f"{schema.name}: our diagnostic differs from {golden.name}"


def test_command_line_refuses_with_one_located_error_and_status_2(tmp_path):
    """The real command line, once: the in-process verdicts above are its verdicts."""
    import subprocess
    import sys

    schema = CORPUS / "invalid" / "native_inline_scalar.fbs"
    result = subprocess.run(
        [sys.executable, "-m", "codegen", "generate", "--skip-flatc", "-q",
         "--schema", str(schema), "--out", str(tmp_path / "out")],
        cwd=CORPUS.parents[2], capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    head, line, caret = result.stderr.splitlines()
    assert head.endswith("error: 'native_inline' applies only to a struct declared before the "
                         "field, or to a vector of structs or of tables")  # fmt: skip
    assert line == "table T { s: int (native_inline); }" and caret == " " * 18 + "^"
    assert "Traceback" not in result.stderr
