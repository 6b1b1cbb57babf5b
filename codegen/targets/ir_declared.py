"""Declared lowering: the IR schema's op tables that carry `mlx: "f"` and
`aten: "op.overload ..."` map one-to-one onto `mlx::core::f`. For each, this
target writes the C++ `exec_*` function and a Python table from which the
compiler registers the ATen overloads (mlx_delegate/compiler/ops/declared.py)."""

from __future__ import annotations

from dataclasses import dataclass

import jinja2

from ..diagnostics import SchemaError
from ..model import Schema, TypeKind
from ..naming import schema_stem
from .ir_view import IrView, Op, ir_view, render_each

OPERAND_NAMES = (("x",), ("a", "b"))  # unary, binary
OPERAND_DTYPES = ("result", "promoted", "input", "bool")  # the first is the default
REDUCTION_FIELDS = ("x", "out", "axes", "keepdims")
SLOT_TYPE = "Tid"


@dataclass(frozen=True)
class DeclaredOp:
    table: str  # `SinNode`
    exec_name: str  # `exec_sin`
    mlx: str  # `sin`: mlx::core::sin
    operands: tuple[str, ...]  # the fields read, in the MLX function's argument order
    aten: tuple[str, ...]  # `sin.default`, ...
    operand_dtype: str  # one of OPERAND_DTYPES: what the compiler casts operands to
    kind: str  # "elementwise" (operands and out) or "reduction" (x, out, axes, keepdims)


def render(schema: Schema, env: jinja2.Environment) -> dict[str, str]:
    view = ir_view(schema)
    if view is None:
        return {}
    outputs = {
        "cpp/mlx_declared_ops.cpp": "ir/cpp/mlx_declared_ops.cpp.j2",
        f"python/{schema_stem(schema.path)}_declared.py": "ir/declared.py.j2",
    }
    return render_each(env, outputs, schema=schema, ops=declared_ops(view))


def declared_ops(view: IrView) -> tuple[DeclaredOp, ...]:
    return tuple(_declared(op) for op in view.ops if op.table.attribute("mlx") is not None)


def _declared(op: Op) -> DeclaredOp:
    table = op.table
    mlx, aten = table.attribute("mlx"), table.attribute("aten")
    if not mlx or not mlx.isidentifier():
        raise SchemaError.at(table.location, f"`{table.name}`: mlx must name an MLX function")
    if not aten or not aten.split():
        raise SchemaError.at(
            table.location, f"`{table.name}` declares `mlx` but no `aten` overloads to lower"
        )
    kind, operands = _shape(table)
    operand_dtype = table.attribute("operand_dtype") or OPERAND_DTYPES[0]
    if operand_dtype not in OPERAND_DTYPES:
        raise SchemaError.at(
            table.location,
            f"`{table.name}`: operand_dtype is one of {', '.join(OPERAND_DTYPES)}",
        )
    return DeclaredOp(
        table.name, op.exec_name, mlx, operands, tuple(aten.split()), operand_dtype, kind
    )


def _shape(table) -> tuple[str, tuple[str, ...]]:
    """The declared op's kind and operands, from its fields."""
    fields = {f.name: f for f in table.fields}
    if tuple(fields) == REDUCTION_FIELDS and _is_reduction(fields):
        return "reduction", ("x",)
    operands = next((o for o in OPERAND_NAMES if tuple(fields) == (*o, "out")), None)
    if operands is None or not all(_is_slot(f) and f.required for f in table.fields):
        raise SchemaError.at(
            table.location,
            f"`{table.name}`: a declared op's fields are its operands and `out`, required "
            f"`{SLOT_TYPE}`s: `x, out` or `a, b, out`; or, for a reduction, "
            "`x, out, axes: [int32], keepdims: bool`",
        )
    return "elementwise", operands


def _is_reduction(fields: dict) -> bool:
    axes, keepdims = fields["axes"].type, fields["keepdims"].type
    return (
        all(_is_slot(fields[n]) and fields[n].required for n in ("x", "out"))
        and axes.kind is TypeKind.VECTOR
        and axes.element.kind is TypeKind.SCALAR
        and axes.element.scalar.canonical == "int32"
        and keepdims.kind is TypeKind.SCALAR
        and keepdims.scalar.canonical == "bool"
    )


def _is_slot(field) -> bool:
    return field.type.kind is TypeKind.STRUCT and field.type.decl.rsplit(".", 1)[-1] == SLOT_TYPE
