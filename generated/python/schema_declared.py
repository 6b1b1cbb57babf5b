# generated from schema/schema.fbs by templates/ir/declared.py.j2, do not edit
"""The ops the schema declares one-to-one onto an MLX function: each op table,
the fields it reads (in the function's argument order), the ATen overloads
(`op.overload`) the compiler lowers to it, and the dtype it casts the operands
to ("result", "promoted", "input" or "bool")."""

from dataclasses import dataclass


@dataclass(frozen=True)
class DeclaredOp:
    table: str
    operands: tuple[str, ...]
    aten: tuple[str, ...]
    operand_dtype: str
    kind: str  # "elementwise" or "reduction"


DECLARED_OPS: tuple[DeclaredOp, ...] = (
    DeclaredOp("MultiplyNode", ("a", "b"), ("mul.Tensor", "mul.Scalar"), "result", "elementwise"),
    DeclaredOp(
        "PowerNode",
        ("a", "b"),
        ("pow.Tensor_Tensor", "pow.Tensor_Scalar", "pow.Scalar"),
        "result",
        "elementwise",
    ),
    DeclaredOp("MaximumNode", ("a", "b"), ("maximum.default",), "result", "elementwise"),
    DeclaredOp("MinimumNode", ("a", "b"), ("minimum.default",), "result", "elementwise"),
    DeclaredOp("EqualNode", ("a", "b"), ("eq.Tensor", "eq.Scalar"), "promoted", "elementwise"),
    DeclaredOp("NotEqualNode", ("a", "b"), ("ne.Tensor", "ne.Scalar"), "promoted", "elementwise"),
    DeclaredOp("LessNode", ("a", "b"), ("lt.Tensor", "lt.Scalar"), "promoted", "elementwise"),
    DeclaredOp("LessEqualNode", ("a", "b"), ("le.Tensor", "le.Scalar"), "promoted", "elementwise"),
    DeclaredOp("GreaterNode", ("a", "b"), ("gt.Tensor", "gt.Scalar"), "promoted", "elementwise"),
    DeclaredOp(
        "GreaterEqualNode", ("a", "b"), ("ge.Tensor", "ge.Scalar"), "promoted", "elementwise"
    ),
    DeclaredOp("LogicalAndNode", ("a", "b"), ("logical_and.default",), "result", "elementwise"),
    DeclaredOp("LogicalOrNode", ("a", "b"), ("logical_or.default",), "result", "elementwise"),
    DeclaredOp("NegNode", ("x",), ("neg.default",), "result", "elementwise"),
    DeclaredOp("AbsNode", ("x",), ("abs.default",), "result", "elementwise"),
    DeclaredOp("LogNode", ("x",), ("log.default",), "result", "elementwise"),
    DeclaredOp("SqrtNode", ("x",), ("sqrt.default",), "result", "elementwise"),
    DeclaredOp("RsqrtNode", ("x",), ("rsqrt.default",), "result", "elementwise"),
    DeclaredOp("SinNode", ("x",), ("sin.default",), "result", "elementwise"),
    DeclaredOp("CosNode", ("x",), ("cos.default",), "result", "elementwise"),
    DeclaredOp("ReciprocalNode", ("x",), ("reciprocal.default",), "result", "elementwise"),
    DeclaredOp("LogicalNotNode", ("x",), ("logical_not.default",), "result", "elementwise"),
    DeclaredOp("SumNode", ("x",), ("sum.dim_IntList", "sum.default"), "result", "reduction"),
    DeclaredOp("MeanNode", ("x",), ("mean.dim", "mean.default"), "result", "reduction"),
    DeclaredOp("MaxNode", ("x",), ("amax.default", "max.default"), "input", "reduction"),
    DeclaredOp("MinNode", ("x",), ("amin.default", "min.default"), "input", "reduction"),
    DeclaredOp("ProdNode", ("x",), ("prod.default", "prod.dim_int"), "result", "reduction"),
    DeclaredOp("AnyNode", ("x",), ("any.default", "any.dim", "any.dims"), "bool", "reduction"),
    DeclaredOp("AllNode", ("x",), ("all.default", "all.dim", "all.dims"), "bool", "reduction"),
    DeclaredOp("TanNode", ("x",), ("tan.default",), "result", "elementwise"),
    DeclaredOp("SinhNode", ("x",), ("sinh.default",), "result", "elementwise"),
    DeclaredOp("CoshNode", ("x",), ("cosh.default",), "result", "elementwise"),
    DeclaredOp("ArcSinNode", ("x",), ("asin.default",), "result", "elementwise"),
    DeclaredOp("ArcCosNode", ("x",), ("acos.default",), "result", "elementwise"),
    DeclaredOp("ArcTanNode", ("x",), ("atan.default",), "result", "elementwise"),
    DeclaredOp("ArcSinhNode", ("x",), ("asinh.default",), "result", "elementwise"),
    DeclaredOp("ArcCoshNode", ("x",), ("acosh.default",), "result", "elementwise"),
    DeclaredOp("ArcTanhNode", ("x",), ("atanh.default",), "result", "elementwise"),
    DeclaredOp("Log2Node", ("x",), ("log2.default",), "result", "elementwise"),
    DeclaredOp("Log10Node", ("x",), ("log10.default",), "result", "elementwise"),
    DeclaredOp("Log1pNode", ("x",), ("log1p.default",), "result", "elementwise"),
    DeclaredOp("Expm1Node", ("x",), ("expm1.default",), "result", "elementwise"),
    DeclaredOp("SignNode", ("x",), ("sign.default", "sgn.default"), "result", "elementwise"),
    DeclaredOp("SquareNode", ("x",), ("square.default",), "result", "elementwise"),
    DeclaredOp("IsNanNode", ("x",), ("isnan.default",), "input", "elementwise"),
    DeclaredOp("IsInfNode", ("x",), ("isinf.default",), "input", "elementwise"),
    DeclaredOp("ArcTan2Node", ("a", "b"), ("atan2.default",), "result", "elementwise"),
    DeclaredOp("LogAddExpNode", ("a", "b"), ("logaddexp.default",), "result", "elementwise"),
    DeclaredOp("LogicalXorNode", ("a", "b"), ("logical_xor.default",), "result", "elementwise"),
    DeclaredOp("IsPosInfNode", ("x",), ("isposinf.default",), "input", "elementwise"),
    DeclaredOp("IsNegInfNode", ("x",), ("isneginf.default",), "input", "elementwise"),
)
