"""Inspector metadata (codegen/targets/ir_inspector.py): a slot field's role is
declared with `output` in the schema, not inferred from its name."""

from __future__ import annotations

from pathlib import Path

from schema_helpers import generate_error

from mlx_delegate.formats.ir import inspector

REPO = Path(__file__).resolve().parents[2]
SCHEMA = (REPO / "schema" / "schema.fbs").read_text()


def roles(table: str) -> dict[str, str]:
    return {f.name: f.role for f in inspector.OPS_BY_TABLE[table].fields}


def test_output_fields_are_the_marked_ones():
    assert roles("AddNode") == {"a": "input", "b": "input", "out": "output"}
    assert roles("SortNode")["values_out"] == "output"
    assert roles("WhileNode")["pred_out"] == "output"
    assert roles("WhileNode")["inits"] == "input"
    assert roles("ReshapeNode")["shape"] == "input"  # [IntOrVid]: may read runtime values
    assert roles("CumSumNode")["axis"] == "literal"


def test_a_field_named_out_without_the_mark_is_read(tmp_path: Path):
    unmarked = SCHEMA.replace(
        "table AddNode { a: Tid (required); b: Tid (required); out: Tid (required, output); }",
        "table AddNode { a: Tid (required); b: Tid (required); out: Tid (required); }",
    )
    assert unmarked != SCHEMA
    generated = tmp_path / "generated"
    from codegen.pipeline import Request, run

    schema = tmp_path / "schema.fbs"
    schema.write_text(unmarked)
    run(Request(schema=schema, out=generated, cache_dir=tmp_path / "cache", skip_flatc=True))
    text = (generated / "python" / "schema_inspector.py").read_text()
    add = text[text.index('table="AddNode"') :]
    assert (
        'FieldInfo(name="out", type="Tid", role="input", required=True)' in add.split("OpInfo(")[0]
    )


def test_output_only_on_slot_fields(tmp_path: Path):
    broken = SCHEMA.replace("  axis: int32 = -1;", "  axis: int32 = -1 (output);", 1)
    assert broken != SCHEMA
    row = next(i for i, l in enumerate(broken.splitlines(), 1) if "(output);" in l and "axis" in l)
    assert generate_error(tmp_path, broken) == (
        f"schema.fbs:{row}:3: error: `axis`: only a slot field can be an `output`"
    )
