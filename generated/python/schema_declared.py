# generated from schema/schema.fbs by templates/ir/declared.py.j2, do not edit
"""The ops the schema declares one-to-one onto an MLX function: each op table,
the fields it reads (in the function's argument order), the ATen overloads
(`op.overload`) the compiler lowers to it, and the dtype it casts the operands
to ("result", "promoted" or "input")."""

from dataclasses import dataclass


@dataclass(frozen=True)
class DeclaredOp:
    table: str
    operands: tuple[str, ...]
    aten: tuple[str, ...]
    operand_dtype: str


DECLARED_OPS: tuple[DeclaredOp, ...] = (
    DeclaredOp("MultiplyNode", ("a", "b"), ("mul.Tensor", "mul.Scalar"), "result"),
    DeclaredOp(
        "PowerNode", ("a", "b"), ("pow.Tensor_Tensor", "pow.Tensor_Scalar", "pow.Scalar"), "result"
    ),
    DeclaredOp("MaximumNode", ("a", "b"), ("maximum.default",), "result"),
    DeclaredOp("MinimumNode", ("a", "b"), ("minimum.default",), "result"),
    DeclaredOp("EqualNode", ("a", "b"), ("eq.Tensor", "eq.Scalar"), "promoted"),
    DeclaredOp("NotEqualNode", ("a", "b"), ("ne.Tensor", "ne.Scalar"), "promoted"),
    DeclaredOp("LessNode", ("a", "b"), ("lt.Tensor", "lt.Scalar"), "promoted"),
    DeclaredOp("LessEqualNode", ("a", "b"), ("le.Tensor", "le.Scalar"), "promoted"),
    DeclaredOp("GreaterNode", ("a", "b"), ("gt.Tensor", "gt.Scalar"), "promoted"),
    DeclaredOp("GreaterEqualNode", ("a", "b"), ("ge.Tensor", "ge.Scalar"), "promoted"),
    DeclaredOp("LogicalAndNode", ("a", "b"), ("logical_and.default",), "result"),
    DeclaredOp("LogicalOrNode", ("a", "b"), ("logical_or.default",), "result"),
    DeclaredOp("NegNode", ("x",), ("neg.default",), "result"),
    DeclaredOp("AbsNode", ("x",), ("abs.default",), "result"),
    DeclaredOp("ExpNode", ("x",), ("exp.default",), "result"),
    DeclaredOp("LogNode", ("x",), ("log.default",), "result"),
    DeclaredOp("SqrtNode", ("x",), ("sqrt.default",), "result"),
    DeclaredOp("RsqrtNode", ("x",), ("rsqrt.default",), "result"),
    DeclaredOp("SinNode", ("x",), ("sin.default",), "result"),
    DeclaredOp("CosNode", ("x",), ("cos.default",), "result"),
    DeclaredOp("TanhNode", ("x",), ("tanh.default",), "result"),
    DeclaredOp("SigmoidNode", ("x",), ("sigmoid.default",), "result"),
    DeclaredOp("ErfNode", ("x",), ("erf.default",), "result"),
    DeclaredOp("ReciprocalNode", ("x",), ("reciprocal.default",), "result"),
    DeclaredOp("LogicalNotNode", ("x",), ("logical_not.default",), "result"),
    DeclaredOp("TanNode", ("x",), ("tan.default",), "result"),
    DeclaredOp("SinhNode", ("x",), ("sinh.default",), "result"),
    DeclaredOp("CoshNode", ("x",), ("cosh.default",), "result"),
    DeclaredOp("ArcSinNode", ("x",), ("asin.default",), "result"),
    DeclaredOp("ArcCosNode", ("x",), ("acos.default",), "result"),
    DeclaredOp("ArcTanNode", ("x",), ("atan.default",), "result"),
    DeclaredOp("ArcSinhNode", ("x",), ("asinh.default",), "result"),
    DeclaredOp("ArcCoshNode", ("x",), ("acosh.default",), "result"),
    DeclaredOp("ArcTanhNode", ("x",), ("atanh.default",), "result"),
    DeclaredOp("Log2Node", ("x",), ("log2.default",), "result"),
    DeclaredOp("Log10Node", ("x",), ("log10.default",), "result"),
    DeclaredOp("Log1pNode", ("x",), ("log1p.default",), "result"),
    DeclaredOp("Expm1Node", ("x",), ("expm1.default",), "result"),
    DeclaredOp("SignNode", ("x",), ("sign.default", "sgn.default"), "result"),
    DeclaredOp("SquareNode", ("x",), ("square.default",), "result"),
    DeclaredOp("IsNanNode", ("x",), ("isnan.default",), "input"),
    DeclaredOp("IsInfNode", ("x",), ("isinf.default",), "input"),
    DeclaredOp("ArcTan2Node", ("a", "b"), ("atan2.default",), "result"),
    DeclaredOp("LogAddExpNode", ("a", "b"), ("logaddexp.default",), "result"),
    DeclaredOp("LogicalXorNode", ("a", "b"), ("logical_xor.default",), "result"),
)
