"""The IR's dtype table (codegen/targets/ir_dtypes.py): the facts the schema's
`DType` values carry, checked against the libraries they name, and the errors
for a value that lacks one."""

from __future__ import annotations

from pathlib import Path

import mlx.core as mx
import numpy as np
import torch
from schema_helpers import generate_error

from mlx_delegate.formats.ir import dtypes, schema

REPO = Path(__file__).resolve().parents[2]
SCHEMA = (REPO / "schema" / "schema.fbs").read_text()


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


def test_a_dtype_without_a_fact_is_a_located_error(tmp_path: Path):
    lines = SCHEMA.splitlines()
    row = next(i for i, line in enumerate(lines, 1) if line.lstrip().startswith("Int16 ("))
    lines[row - 1] = '  Int16 (bytes: 2, torch: "int16", numpy: "int16", mlx: "int16"),'
    assert generate_error(tmp_path, "\n".join(lines) + "\n") == (
        f"schema.fbs:{row}:3: error: dtype 'Int16' needs the attribute `executorch`"
    )


def test_a_dtype_size_must_be_a_power_of_two_bytes(tmp_path: Path):
    broken = SCHEMA.replace("Int16 (bytes: 2,", "Int16 (bytes: 3,")
    assert "error: dtype 'Int16': bytes must be 1, 2, 4 or 8" in generate_error(tmp_path, broken)
