"""Declared lowering (codegen/targets/ir_declared.py): op tables with `mlx:` and
`aten:` get a generated exec_* body and a compiler registration, and a table
that cannot be declared so is a located error."""

from __future__ import annotations

from pathlib import Path

from schema_helpers import generate_error

from mlx_delegate.formats._generated import declared

REPO = Path(__file__).resolve().parents[2]
SCHEMA = (REPO / "schema" / "schema.fbs").read_text()
DECLARED = declared().DECLARED_OPS


def test_declarations_reach_both_languages():
    by_table = {op.table: op for op in DECLARED}
    assert by_table["SinNode"].operands == ("x",) and by_table["SinNode"].aten == ("sin.default",)
    assert by_table["SignNode"].aten == ("sign.default", "sgn.default")
    assert by_table["LogicalXorNode"].operands == ("a", "b")
    assert by_table["SinNode"].operand_dtype == "result"
    assert by_table["LessNode"].operand_dtype == "promoted"
    assert by_table["IsNanNode"].operand_dtype == "input"
    assert by_table["SumNode"].kind == "reduction" and by_table["SumNode"].operands == ("x",)
    assert by_table["AnyNode"].operand_dtype == "bool" and by_table["SinNode"].kind == "elementwise"
    cpp = (REPO / "generated" / "cpp" / "mlx_declared_ops.cpp").read_text()
    assert "void exec_sin(const SinNode& node" in cpp and "mlx::core::sin(" in cpp
    assert len(DECLARED) == cpp.count("void exec_")


def test_declared_ops_are_registered_for_their_overloads():
    import torch

    from mlx_delegate.compiler.ops import default_registry

    registry = default_registry()
    assert registry.lookup(torch.ops.aten.sin.default) is not None
    kept = registry.keep_whole()
    assert torch.ops.aten.sgn.default in kept  # not core ATen: kept whole
    assert torch.ops.aten.sin.default not in kept


def test_a_declared_op_needs_aten_overloads(tmp_path: Path):
    broken = SCHEMA.replace('table SinNode (mlx: "sin", aten: "sin.default")',
                            'table SinNode (mlx: "sin")')  # fmt: skip
    row = next(i for i, l in enumerate(broken.splitlines(), 1) if l.startswith("table SinNode"))
    assert generate_error(tmp_path, broken) == (
        f"schema.fbs:{row}:7: error: `SinNode` declares `mlx` but no `aten` overloads to lower"
    )


def test_a_declared_op_has_only_operands_and_out(tmp_path: Path):
    broken = SCHEMA.replace(
        'table SinNode (mlx: "sin", aten: "sin.default") { x: Tid (required); out: Tid (required, output); }',
        'table SinNode (mlx: "sin", aten: "sin.default") { x: Tid (required); out: Tid (required, output); k: int; }',
    )  # fmt: skip
    assert broken != SCHEMA
    assert "a declared op's fields are its operands and `out`" in generate_error(tmp_path, broken)


def test_operand_dtype_is_one_of_four(tmp_path: Path):
    broken = SCHEMA.replace('operand_dtype: "promoted"', 'operand_dtype: "widest"', 1)
    row = next(i for i, l in enumerate(broken.splitlines(), 1) if '"widest"' in l)
    assert generate_error(tmp_path, broken) == (
        f"schema.fbs:{row}:7: error: `EqualNode`: operand_dtype is one of result, promoted, input, "
        "bool"
    )


def test_a_declared_reduction_has_axes_and_keepdims(tmp_path: Path):
    broken = SCHEMA.replace(
        "axes: [int32]; keepdims: bool; }", "axes: [int64]; keepdims: bool; }", 1
    )
    assert "or, for a reduction, `x, out, axes: [int32], keepdims: bool`" in generate_error(
        tmp_path, broken
    )
