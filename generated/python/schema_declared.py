# generated from schema/schema.fbs by templates/ir/declared.py.j2, do not edit
"""The ops the schema declares one-to-one onto an MLX function: each op table,
the fields it reads (in the function's argument order) and the ATen overloads
(`op.overload`) the compiler lowers to it."""

from dataclasses import dataclass


@dataclass(frozen=True)
class DeclaredOp:
    table: str
    operands: tuple[str, ...]
    aten: tuple[str, ...]


DECLARED_OPS: tuple[DeclaredOp, ...] = (
    DeclaredOp("PowerNode", ("a", "b"), ("pow.Tensor_Tensor", "pow.Tensor_Scalar", "pow.Scalar")),
    DeclaredOp("MaximumNode", ("a", "b"), ("maximum.default",)),
    DeclaredOp("MinimumNode", ("a", "b"), ("minimum.default",)),
    DeclaredOp("NegNode", ("x",), ("neg.default",)),
    DeclaredOp("AbsNode", ("x",), ("abs.default",)),
    DeclaredOp("ExpNode", ("x",), ("exp.default",)),
    DeclaredOp("LogNode", ("x",), ("log.default",)),
    DeclaredOp("SqrtNode", ("x",), ("sqrt.default",)),
    DeclaredOp("RsqrtNode", ("x",), ("rsqrt.default",)),
    DeclaredOp("SinNode", ("x",), ("sin.default",)),
    DeclaredOp("CosNode", ("x",), ("cos.default",)),
    DeclaredOp("TanhNode", ("x",), ("tanh.default",)),
    DeclaredOp("SigmoidNode", ("x",), ("sigmoid.default",)),
    DeclaredOp("ErfNode", ("x",), ("erf.default",)),
    DeclaredOp("ReciprocalNode", ("x",), ("reciprocal.default",)),
    DeclaredOp("TanNode", ("x",), ("tan.default",)),
    DeclaredOp("SinhNode", ("x",), ("sinh.default",)),
    DeclaredOp("CoshNode", ("x",), ("cosh.default",)),
    DeclaredOp("ArcSinNode", ("x",), ("asin.default",)),
    DeclaredOp("ArcCosNode", ("x",), ("acos.default",)),
    DeclaredOp("ArcTanNode", ("x",), ("atan.default",)),
    DeclaredOp("ArcSinhNode", ("x",), ("asinh.default",)),
    DeclaredOp("ArcCoshNode", ("x",), ("acosh.default",)),
    DeclaredOp("ArcTanhNode", ("x",), ("atanh.default",)),
    DeclaredOp("Log2Node", ("x",), ("log2.default",)),
    DeclaredOp("Log10Node", ("x",), ("log10.default",)),
    DeclaredOp("Log1pNode", ("x",), ("log1p.default",)),
    DeclaredOp("Expm1Node", ("x",), ("expm1.default",)),
    DeclaredOp("SignNode", ("x",), ("sign.default", "sgn.default")),
    DeclaredOp("ArcTan2Node", ("a", "b"), ("atan2.default",)),
    DeclaredOp("LogicalXorNode", ("a", "b"), ("logical_xor.default",)),
)
