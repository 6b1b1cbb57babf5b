"""The IR's dtype table (codegen/targets/ir_dtypes.py): the facts the schema's
`DType` values carry, checked against the libraries they name, and the errors
for a value that lacks one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mlx.core as mx
import numpy as np
import torch

from mlx_delegate.ir import dtypes, schema

REPO = Path(__file__).resolve().parents[2]


def test_every_dtype_code_has_one_entry():
    assert [d.code for d in dtypes.DTYPES] == [int(v) for v in schema.DType]
    assert [d.name for d in dtypes.DTYPES] == [v.name for v in schema.DType]


def test_each_name_is_the_library_type_of_that_size():
    for d in dtypes.DTYPES:
        assert getattr(torch, d.torch).itemsize == d.bytes, d
        assert getattr(mx, d.mlx).size == d.bytes, d
        if d.numpy is not None:
            assert np.dtype(d.numpy).itemsize == d.bytes, d
    assert [d.name for d in dtypes.DTYPES if d.numpy is None] == ["BFloat16"]


def _generate(schema_text: str, tmp_path: Path) -> subprocess.CompletedProcess:
    (tmp_path / "schema.fbs").write_text(schema_text)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "codegen",
            "generate",
            "--schema",
            "schema.fbs",
            "--out",
            "out",
            "--skip-flatc",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def test_a_dtype_without_a_fact_is_a_located_error(tmp_path: Path):
    text = (REPO / "schema" / "schema.fbs").read_text()
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if line.lstrip().startswith("Int16 ("))
    lines[row - 1] = '  Int16 (bytes: 2, torch: "int16", numpy: "int16", mlx: "int16"),'
    broken = "\n".join(lines) + "\n"
    result = _generate(broken, tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(
        f"schema.fbs:{row}:3: error: dtype 'Int16' needs the attribute `executorch`"
    ), result.stderr
    assert not (tmp_path / "out").exists()


def test_a_dtype_size_must_be_a_power_of_two_bytes(tmp_path: Path):
    text = (REPO / "schema" / "schema.fbs").read_text()
    broken = text.replace("Int16 (bytes: 2,", "Int16 (bytes: 3,")
    result = _generate(broken, tmp_path)
    assert result.returncode == 2
    assert "error: dtype 'Int16': bytes must be 1, 2, 4 or 8" in result.stderr.splitlines()[0]
