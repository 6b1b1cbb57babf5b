# generated from schema/schema.fbs by templates/ir/inspector.py.j2, do not edit
"""Inspector metadata of the IR: every op's code, name, node table and fields."""

from dataclasses import dataclass


@dataclass(frozen=True)
class FieldInfo:
    name: str
    type: str  # as written in the schema
    role: str  # "input", "output" (slots) or "literal"
    required: bool


@dataclass(frozen=True)
class OpInfo:
    code: int
    name: str
    table: str
    fields: tuple[FieldInfo, ...]


OPS: dict[int, OpInfo] = {
    1: OpInfo(
        code=1,
        name="Add",
        table="AddNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    2: OpInfo(
        code=2,
        name="Subtract",
        table="SubtractNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    3: OpInfo(
        code=3,
        name="Multiply",
        table="MultiplyNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    4: OpInfo(
        code=4,
        name="Divide",
        table="DivideNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="rounding", type="DivRounding", role="literal", required=False),
        ),
    ),
    5: OpInfo(
        code=5,
        name="Power",
        table="PowerNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    6: OpInfo(
        code=6,
        name="Maximum",
        table="MaximumNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    7: OpInfo(
        code=7,
        name="Minimum",
        table="MinimumNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    8: OpInfo(
        code=8,
        name="Equal",
        table="EqualNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    9: OpInfo(
        code=9,
        name="NotEqual",
        table="NotEqualNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    10: OpInfo(
        code=10,
        name="Less",
        table="LessNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    11: OpInfo(
        code=11,
        name="LessEqual",
        table="LessEqualNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    12: OpInfo(
        code=12,
        name="Greater",
        table="GreaterNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    13: OpInfo(
        code=13,
        name="GreaterEqual",
        table="GreaterEqualNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    14: OpInfo(
        code=14,
        name="LogicalAnd",
        table="LogicalAndNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    15: OpInfo(
        code=15,
        name="LogicalOr",
        table="LogicalOrNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    16: OpInfo(
        code=16,
        name="Neg",
        table="NegNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    17: OpInfo(
        code=17,
        name="Abs",
        table="AbsNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    18: OpInfo(
        code=18,
        name="Exp",
        table="ExpNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    19: OpInfo(
        code=19,
        name="Log",
        table="LogNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    20: OpInfo(
        code=20,
        name="Sqrt",
        table="SqrtNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    21: OpInfo(
        code=21,
        name="Rsqrt",
        table="RsqrtNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    22: OpInfo(
        code=22,
        name="Sin",
        table="SinNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    23: OpInfo(
        code=23,
        name="Cos",
        table="CosNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    24: OpInfo(
        code=24,
        name="Tanh",
        table="TanhNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    25: OpInfo(
        code=25,
        name="Sigmoid",
        table="SigmoidNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    26: OpInfo(
        code=26,
        name="Erf",
        table="ErfNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    27: OpInfo(
        code=27,
        name="Floor",
        table="FloorNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    28: OpInfo(
        code=28,
        name="Ceil",
        table="CeilNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    29: OpInfo(
        code=29,
        name="Round",
        table="RoundNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="decimals", type="int32", role="literal", required=False),
        ),
    ),
    30: OpInfo(
        code=30,
        name="Reciprocal",
        table="ReciprocalNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    31: OpInfo(
        code=31,
        name="LogicalNot",
        table="LogicalNotNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    32: OpInfo(
        code=32,
        name="Relu",
        table="ReluNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    33: OpInfo(
        code=33,
        name="Silu",
        table="SiluNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    34: OpInfo(
        code=34,
        name="Gelu",
        table="GeluNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(
                name="approximation", type="GeluApproximation", role="literal", required=False
            ),
        ),
    ),
    35: OpInfo(
        code=35,
        name="LeakyRelu",
        table="LeakyReluNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="negative_slope", type="float32", role="literal", required=False),
        ),
    ),
    36: OpInfo(
        code=36,
        name="Clip",
        table="ClipNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="min", type="TidOrVid", role="input", required=False),
            FieldInfo(name="max", type="TidOrVid", role="input", required=False),
        ),
    ),
    37: OpInfo(
        code=37,
        name="Where",
        table="WhereNode",
        fields=(
            FieldInfo(name="condition", type="Tid", role="input", required=True),
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    38: OpInfo(
        code=38,
        name="AsType",
        table="AsTypeNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="dtype", type="DType", role="literal", required=False),
        ),
    ),
    39: OpInfo(
        code=39,
        name="Copy",
        table="CopyNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    40: OpInfo(
        code=40,
        name="Sum",
        table="SumNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
        ),
    ),
    41: OpInfo(
        code=41,
        name="Mean",
        table="MeanNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
        ),
    ),
    42: OpInfo(
        code=42,
        name="Max",
        table="MaxNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
        ),
    ),
    43: OpInfo(
        code=43,
        name="Min",
        table="MinNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
        ),
    ),
    44: OpInfo(
        code=44,
        name="Prod",
        table="ProdNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
        ),
    ),
    45: OpInfo(
        code=45,
        name="Any",
        table="AnyNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
        ),
    ),
    46: OpInfo(
        code=46,
        name="All",
        table="AllNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
        ),
    ),
    47: OpInfo(
        code=47,
        name="Var",
        table="VarNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
            FieldInfo(name="ddof", type="int32", role="literal", required=False),
        ),
    ),
    48: OpInfo(
        code=48,
        name="Std",
        table="StdNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
            FieldInfo(name="ddof", type="int32", role="literal", required=False),
        ),
    ),
    49: OpInfo(
        code=49,
        name="ArgMax",
        table="ArgMaxNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
        ),
    ),
    50: OpInfo(
        code=50,
        name="ArgMin",
        table="ArgMinNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
        ),
    ),
    51: OpInfo(
        code=51,
        name="CumSum",
        table="CumSumNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
            FieldInfo(name="reverse", type="bool", role="literal", required=False),
        ),
    ),
    52: OpInfo(
        code=52,
        name="Softmax",
        table="SoftmaxNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
        ),
    ),
    53: OpInfo(
        code=53,
        name="LogSoftmax",
        table="LogSoftmaxNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
        ),
    ),
    54: OpInfo(
        code=54,
        name="Linear",
        table="LinearNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="weight", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="bias", type="Tid", role="input", required=False),
        ),
    ),
    55: OpInfo(
        code=55,
        name="Addmm",
        table="AddmmNode",
        fields=(
            FieldInfo(name="bias", type="Tid", role="input", required=True),
            FieldInfo(name="mat1", type="Tid", role="input", required=True),
            FieldInfo(name="mat2", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="alpha", type="float32", role="literal", required=False),
            FieldInfo(name="beta", type="float32", role="literal", required=False),
        ),
    ),
    56: OpInfo(
        code=56,
        name="Matmul",
        table="MatmulNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    57: OpInfo(
        code=57,
        name="LayerNorm",
        table="LayerNormNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="weight", type="Tid", role="input", required=False),
            FieldInfo(name="bias", type="Tid", role="input", required=False),
            FieldInfo(name="eps", type="float32", role="literal", required=False),
            FieldInfo(name="num_axes", type="int32", role="literal", required=False),
            FieldInfo(name="mean_out", type="Tid", role="output", required=False),
            FieldInfo(name="rstd_out", type="Tid", role="output", required=False),
        ),
    ),
    58: OpInfo(
        code=58,
        name="RmsNorm",
        table="RmsNormNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="weight", type="Tid", role="input", required=False),
            FieldInfo(name="eps", type="float32", role="literal", required=False),
        ),
    ),
    59: OpInfo(
        code=59,
        name="Conv",
        table="ConvNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="weight", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="bias", type="Tid", role="input", required=False),
            FieldInfo(name="stride", type="[int32]", role="literal", required=False),
            FieldInfo(name="padding", type="[int32]", role="literal", required=False),
            FieldInfo(name="dilation", type="[int32]", role="literal", required=False),
            FieldInfo(name="groups", type="int32", role="literal", required=False),
            FieldInfo(name="transposed", type="bool", role="literal", required=False),
            FieldInfo(name="output_padding", type="[int32]", role="literal", required=False),
        ),
    ),
    60: OpInfo(
        code=60,
        name="ScaledDotProductAttention",
        table="ScaledDotProductAttentionNode",
        fields=(
            FieldInfo(name="q", type="Tid", role="input", required=True),
            FieldInfo(name="k", type="Tid", role="input", required=True),
            FieldInfo(name="v", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="mask", type="Tid", role="input", required=False),
            FieldInfo(name="scale", type="float32", role="literal", required=False),
            FieldInfo(name="causal", type="bool", role="literal", required=False),
            FieldInfo(name="lower_right", type="bool", role="literal", required=False),
        ),
    ),
    61: OpInfo(
        code=61,
        name="Reshape",
        table="ReshapeNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="shape", type="[IntOrVid]", role="input", required=False),
        ),
    ),
    62: OpInfo(
        code=62,
        name="Transpose",
        table="TransposeNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="perm", type="[int32]", role="literal", required=False),
        ),
    ),
    63: OpInfo(
        code=63,
        name="ExpandDims",
        table="ExpandDimsNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
        ),
    ),
    64: OpInfo(
        code=64,
        name="Squeeze",
        table="SqueezeNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
        ),
    ),
    65: OpInfo(
        code=65,
        name="BroadcastTo",
        table="BroadcastToNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="shape", type="[IntOrVid]", role="input", required=False),
        ),
    ),
    66: OpInfo(
        code=66,
        name="Slice",
        table="SliceNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
            FieldInfo(name="start", type="IntOrVid", role="input", required=False),
            FieldInfo(name="stop", type="IntOrVid", role="input", required=False),
            FieldInfo(name="step", type="int32", role="literal", required=False),
        ),
    ),
    67: OpInfo(
        code=67,
        name="Select",
        table="SelectNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
            FieldInfo(name="index", type="IntOrVid", role="input", required=True),
        ),
    ),
    68: OpInfo(
        code=68,
        name="Concatenate",
        table="ConcatenateNode",
        fields=(
            FieldInfo(name="inputs", type="[Tid]", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
        ),
    ),
    69: OpInfo(
        code=69,
        name="Stack",
        table="StackNode",
        fields=(
            FieldInfo(name="inputs", type="[Tid]", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
        ),
    ),
    70: OpInfo(
        code=70,
        name="Split",
        table="SplitNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="outs", type="[Tid]", role="output", required=True),
            FieldInfo(name="sizes", type="[int32]", role="literal", required=False),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
        ),
    ),
    71: OpInfo(
        code=71,
        name="Tile",
        table="TileNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="reps", type="[int32]", role="literal", required=False),
        ),
    ),
    72: OpInfo(
        code=72,
        name="Flip",
        table="FlipNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
        ),
    ),
    73: OpInfo(
        code=73,
        name="Pad",
        table="PadNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="pad", type="[int32]", role="literal", required=False),
            FieldInfo(name="value", type="float64", role="literal", required=False),
        ),
    ),
    74: OpInfo(
        code=74,
        name="Tril",
        table="TrilNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="k", type="int32", role="literal", required=False),
        ),
    ),
    75: OpInfo(
        code=75,
        name="Triu",
        table="TriuNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="k", type="int32", role="literal", required=False),
        ),
    ),
    76: OpInfo(
        code=76,
        name="Take",
        table="TakeNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="indices", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
        ),
    ),
    77: OpInfo(
        code=77,
        name="TakeAlongAxis",
        table="TakeAlongAxisNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="indices", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
        ),
    ),
    78: OpInfo(
        code=78,
        name="Index",
        table="IndexNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="indices", type="[Tid]", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    79: OpInfo(
        code=79,
        name="ScatterAdd",
        table="ScatterAddNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="indices", type="Tid", role="input", required=True),
            FieldInfo(name="updates", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
        ),
    ),
    80: OpInfo(
        code=80,
        name="SliceUpdate",
        table="SliceUpdateNode",
        fields=(
            FieldInfo(name="target", type="Tid", role="input", required=True),
            FieldInfo(name="update", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
            FieldInfo(name="start", type="IntOrVid", role="input", required=True),
        ),
    ),
    81: OpInfo(
        code=81,
        name="Arange",
        table="ArangeNode",
        fields=(
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="start", type="FloatOrVid", role="input", required=False),
            FieldInfo(name="stop", type="FloatOrVid", role="input", required=True),
            FieldInfo(name="step", type="FloatOrVid", role="input", required=False),
            FieldInfo(name="dtype", type="DType", role="literal", required=False),
        ),
    ),
    82: OpInfo(
        code=82,
        name="Full",
        table="FullNode",
        fields=(
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="shape", type="[IntOrVid]", role="input", required=False),
            FieldInfo(name="value", type="FloatOrVid", role="input", required=True),
            FieldInfo(name="dtype", type="DType", role="literal", required=False),
        ),
    ),
    83: OpInfo(
        code=83,
        name="FullLike",
        table="FullLikeNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="value", type="float64", role="literal", required=False),
            FieldInfo(name="dtype", type="DType", role="literal", required=False),
        ),
    ),
    84: OpInfo(
        code=84,
        name="SymSize",
        table="SymSizeNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="dim", type="int32", role="literal", required=False),
            FieldInfo(name="out", type="Vid", role="output", required=True),
        ),
    ),
    85: OpInfo(
        code=85,
        name="Item",
        table="ItemNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Vid", role="output", required=True),
        ),
    ),
    86: OpInfo(
        code=86,
        name="IntBinary",
        table="IntBinaryNode",
        fields=(
            FieldInfo(name="op", type="IntBinaryOp", role="literal", required=False),
            FieldInfo(name="a", type="IntOrVid", role="input", required=True),
            FieldInfo(name="b", type="IntOrVid", role="input", required=True),
            FieldInfo(name="out", type="Vid", role="output", required=True),
        ),
    ),
    87: OpInfo(
        code=87,
        name="IndexPut",
        table="IndexPutNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="indices", type="Tid", role="input", required=True),
            FieldInfo(name="values", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
        ),
    ),
    88: OpInfo(
        code=88,
        name="Tan",
        table="TanNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    89: OpInfo(
        code=89,
        name="Sinh",
        table="SinhNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    90: OpInfo(
        code=90,
        name="Cosh",
        table="CoshNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    91: OpInfo(
        code=91,
        name="ArcSin",
        table="ArcSinNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    92: OpInfo(
        code=92,
        name="ArcCos",
        table="ArcCosNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    93: OpInfo(
        code=93,
        name="ArcTan",
        table="ArcTanNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    94: OpInfo(
        code=94,
        name="ArcSinh",
        table="ArcSinhNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    95: OpInfo(
        code=95,
        name="ArcCosh",
        table="ArcCoshNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    96: OpInfo(
        code=96,
        name="ArcTanh",
        table="ArcTanhNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    97: OpInfo(
        code=97,
        name="Log2",
        table="Log2Node",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    98: OpInfo(
        code=98,
        name="Log10",
        table="Log10Node",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    99: OpInfo(
        code=99,
        name="Log1p",
        table="Log1pNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    100: OpInfo(
        code=100,
        name="Expm1",
        table="Expm1Node",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    101: OpInfo(
        code=101,
        name="Sign",
        table="SignNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    102: OpInfo(
        code=102,
        name="Trunc",
        table="TruncNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    103: OpInfo(
        code=103,
        name="Square",
        table="SquareNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    104: OpInfo(
        code=104,
        name="IsNan",
        table="IsNanNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    105: OpInfo(
        code=105,
        name="IsInf",
        table="IsInfNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    106: OpInfo(
        code=106,
        name="BitwiseNot",
        table="BitwiseNotNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    107: OpInfo(
        code=107,
        name="BitwiseAnd",
        table="BitwiseAndNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    108: OpInfo(
        code=108,
        name="BitwiseOr",
        table="BitwiseOrNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    109: OpInfo(
        code=109,
        name="BitwiseXor",
        table="BitwiseXorNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    110: OpInfo(
        code=110,
        name="ArcTan2",
        table="ArcTan2Node",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    111: OpInfo(
        code=111,
        name="LogAddExp",
        table="LogAddExpNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    112: OpInfo(
        code=112,
        name="Remainder",
        table="RemainderNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    113: OpInfo(
        code=113,
        name="LogSumExp",
        table="LogSumExpNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
            FieldInfo(name="keepdims", type="bool", role="literal", required=False),
        ),
    ),
    114: OpInfo(
        code=114,
        name="CumProd",
        table="CumProdNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
            FieldInfo(name="reverse", type="bool", role="literal", required=False),
        ),
    ),
    115: OpInfo(
        code=115,
        name="Sort",
        table="SortNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="values_out", type="Tid", role="output", required=False),
            FieldInfo(name="indices_out", type="Tid", role="output", required=False),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
            FieldInfo(name="descending", type="bool", role="literal", required=False),
        ),
    ),
    116: OpInfo(
        code=116,
        name="Roll",
        table="RollNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="shifts", type="[int32]", role="literal", required=False),
            FieldInfo(name="axes", type="[int32]", role="literal", required=False),
        ),
    ),
    117: OpInfo(
        code=117,
        name="Pool",
        table="PoolNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="indices_out", type="Tid", role="output", required=False),
            FieldInfo(name="kind", type="PoolKind", role="literal", required=False),
            FieldInfo(name="kernel", type="[int32]", role="literal", required=False),
            FieldInfo(name="stride", type="[int32]", role="literal", required=False),
            FieldInfo(name="padding", type="[int32]", role="literal", required=False),
            FieldInfo(name="dilation", type="[int32]", role="literal", required=False),
            FieldInfo(name="ceil_mode", type="bool", role="literal", required=False),
            FieldInfo(name="count_include_pad", type="bool", role="literal", required=False),
            FieldInfo(name="divisor_override", type="int32", role="literal", required=False),
        ),
    ),
    118: OpInfo(
        code=118,
        name="Upsample",
        table="UpsampleNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="mode", type="UpsampleMode", role="literal", required=False),
            FieldInfo(name="align_corners", type="bool", role="literal", required=False),
            FieldInfo(name="out_size", type="[int32]", role="literal", required=False),
            FieldInfo(name="scales", type="[float64]", role="literal", required=False),
        ),
    ),
    119: OpInfo(
        code=119,
        name="LogicalXor",
        table="LogicalXorNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    120: OpInfo(
        code=120,
        name="Cond",
        table="CondNode",
        fields=(
            FieldInfo(name="pred", type="Tid", role="input", required=True),
            FieldInfo(name="then_chain", type="uint32", role="literal", required=False),
            FieldInfo(name="else_chain", type="uint32", role="literal", required=False),
            FieldInfo(name="operands", type="[Tid]", role="input", required=False),
            FieldInfo(name="outs", type="[Tid]", role="output", required=False),
        ),
    ),
    121: OpInfo(
        code=121,
        name="While",
        table="WhileNode",
        fields=(
            FieldInfo(name="inits", type="[Tid]", role="input", required=False),
            FieldInfo(name="outs", type="[Tid]", role="output", required=False),
            FieldInfo(name="cond_chain", type="uint32", role="literal", required=False),
            FieldInfo(name="body_chain", type="uint32", role="literal", required=False),
            FieldInfo(name="pred_out", type="Tid", role="output", required=True),
            FieldInfo(name="operands", type="[Tid]", role="input", required=False),
        ),
    ),
    122: OpInfo(
        code=122,
        name="IsPosInf",
        table="IsPosInfNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    123: OpInfo(
        code=123,
        name="IsNegInf",
        table="IsNegInfNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    124: OpInfo(
        code=124,
        name="QuantizedLinear",
        table="QuantizedLinearNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="w", type="Tid", role="input", required=True),
            FieldInfo(name="scales", type="Tid", role="input", required=True),
            FieldInfo(name="biases", type="Tid", role="input", required=False),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="bias", type="Tid", role="input", required=False),
            FieldInfo(name="group_size", type="int32", role="literal", required=False),
            FieldInfo(name="bits", type="int32", role="literal", required=False),
            FieldInfo(name="mode", type="QuantMode", role="literal", required=False),
            FieldInfo(name="tensor_scale", type="Tid", role="input", required=False),
            FieldInfo(name="transpose", type="bool", role="literal", required=False),
        ),
    ),
    125: OpInfo(
        code=125,
        name="Dequantize",
        table="DequantizeNode",
        fields=(
            FieldInfo(name="w", type="Tid", role="input", required=True),
            FieldInfo(name="scales", type="Tid", role="input", required=True),
            FieldInfo(name="biases", type="Tid", role="input", required=False),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="group_size", type="int32", role="literal", required=False),
            FieldInfo(name="bits", type="int32", role="literal", required=False),
            FieldInfo(name="mode", type="QuantMode", role="literal", required=False),
            FieldInfo(name="tensor_scale", type="Tid", role="input", required=False),
        ),
    ),
    126: OpInfo(
        code=126,
        name="Rope",
        table="RopeNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="dims", type="int32", role="literal", required=False),
            FieldInfo(name="traditional", type="bool", role="literal", required=False),
            FieldInfo(name="base", type="float32", role="literal", required=False),
            FieldInfo(name="scale", type="float32", role="literal", required=False),
            FieldInfo(name="offset", type="Tid", role="input", required=True),
            FieldInfo(name="freqs", type="Tid", role="input", required=False),
        ),
    ),
    127: OpInfo(
        code=127,
        name="GatherMM",
        table="GatherMMNode",
        fields=(
            FieldInfo(name="a", type="Tid", role="input", required=True),
            FieldInfo(name="b", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="lhs_indices", type="Tid", role="input", required=False),
            FieldInfo(name="rhs_indices", type="Tid", role="input", required=False),
            FieldInfo(name="sorted_indices", type="bool", role="literal", required=False),
        ),
    ),
    128: OpInfo(
        code=128,
        name="GatherQMM",
        table="GatherQMMNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="w", type="Tid", role="input", required=True),
            FieldInfo(name="scales", type="Tid", role="input", required=True),
            FieldInfo(name="biases", type="Tid", role="input", required=False),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="lhs_indices", type="Tid", role="input", required=False),
            FieldInfo(name="rhs_indices", type="Tid", role="input", required=False),
            FieldInfo(name="transpose", type="bool", role="literal", required=False),
            FieldInfo(name="group_size", type="int32", role="literal", required=False),
            FieldInfo(name="bits", type="int32", role="literal", required=False),
            FieldInfo(name="sorted_indices", type="bool", role="literal", required=False),
            FieldInfo(name="mode", type="QuantMode", role="literal", required=False),
        ),
    ),
    129: OpInfo(
        code=129,
        name="Scatter",
        table="ScatterNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="indices", type="Tid", role="input", required=True),
            FieldInfo(name="updates", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
            FieldInfo(name="axis", type="int32", role="literal", required=False),
        ),
    ),
    130: OpInfo(
        code=130,
        name="Sample",
        table="SampleNode",
        fields=(
            FieldInfo(name="logits", type="Tid", role="input", required=True),
            FieldInfo(name="temperature", type="Tid", role="input", required=True),
            FieldInfo(name="top_p", type="Tid", role="input", required=True),
            FieldInfo(name="uniform", type="Tid", role="input", required=True),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    131: OpInfo(
        code=131,
        name="AllSum",
        table="AllSumNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="group_size", type="int32", role="literal", required=False),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
    132: OpInfo(
        code=132,
        name="AllGather",
        table="AllGatherNode",
        fields=(
            FieldInfo(name="x", type="Tid", role="input", required=True),
            FieldInfo(name="group_size", type="int32", role="literal", required=False),
            FieldInfo(name="out", type="Tid", role="output", required=True),
        ),
    ),
}

OPS_BY_TABLE: dict[str, OpInfo] = {op.table: op for op in OPS.values()}
