"""The payload header target (codegen/targets/ir_payload.py): the facts of the
schema's `PayloadHeader`, and the errors for a header that lacks one."""

from __future__ import annotations

from pathlib import Path

from schema_helpers import generate_error

from mlx_delegate.formats._generated import payload

REPO = Path(__file__).resolve().parents[2]
SCHEMA = (REPO / "schema" / "schema.fbs").read_text()
HEADER_LINE = next(l for l in SCHEMA.splitlines() if l.startswith("struct PayloadHeader"))


def test_the_header_layout_follows_the_struct():
    facts = payload()
    assert facts.HEADER.format == "<I4sQQ" and facts.HEADER.size == facts.HEADER_SIZE == 24
    assert facts.FIELDS == ("zero", "magic", "data_offset", "data_size")
    assert (facts.MAGIC, facts.ALIGNMENT, facts.BACKEND_ID) == (b"MLX0", 16, "MLXDelegateBackend")


def test_the_cpp_constants_match():
    text = (REPO / "generated" / "cpp" / "mlx_payload.h").read_text()
    for line in (
        'kBackendId = "MLXDelegateBackend"',
        "kMagic[4] = {'M', 'L', 'X', '0'}",
        "kHeaderSize = 24",
        "kAlignment = 16",
        "k_data_offset_offset = 8",
        "k_data_size_offset = 16",
    ):
        assert line in text, line


def test_a_header_without_a_backend_id_is_a_located_error(tmp_path: Path):
    broken = SCHEMA.replace(', backend_id: "MLXDelegateBackend"', "")
    row = SCHEMA.splitlines().index(HEADER_LINE) + 1
    assert generate_error(tmp_path, broken) == (
        f"schema.fbs:{row}:8: error: `PayloadHeader` needs the attribute `backend_id`"
    )
    assert not (tmp_path / "out").exists()


def test_the_magic_must_fit_its_field(tmp_path: Path):
    broken = SCHEMA.replace('(magic: "MLX0",', '(magic: "MLX01",')
    assert "needs a field `magic: [ubyte:5]`" in generate_error(tmp_path, broken)


def test_header_fields_must_be_scalars_or_arrays_of_them(tmp_path: Path):
    broken = SCHEMA.replace("  data_size: uint64;\n}", "  data_size: uint64;\n  slot: Tid;\n}")
    assert "fields must be scalars or arrays of scalars" in generate_error(tmp_path, broken)
