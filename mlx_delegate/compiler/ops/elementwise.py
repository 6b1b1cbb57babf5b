"""Elementwise ops that need more than a declaration (schema.fbs declares the
one-to-one ones: comparisons, logic, most unary math): arithmetic with alpha,
division modes, where, rounding, activations."""

from __future__ import annotations

import torch
from torch.fx import Node

from ..builder import HandlerRegistry, Unsupported
from ..builder.emitter import Emitter
from ...formats.ir import schema as ir
from .common import arg, overload

HANDLERS = HandlerRegistry()

aten = torch.ops.aten


def compute_dtype(b: Emitter, lhs, rhs) -> torch.dtype:
    """PyTorch's type promotion of two operands, tensors or Python scalars."""
    return torch.result_type(_stand_in(b, lhs), _stand_in(b, rhs))


def _stand_in(b: Emitter, arg):
    """What torch.result_type needs of an operand: its dtype, whether it is 0-d
    (0-d tensors and scalars only take part by category), or the scalar."""
    if not isinstance(arg, Node):
        return arg
    value = b.val(arg)
    if isinstance(value, torch.Tensor):
        return torch.empty(() if value.dim() == 0 else (1,), dtype=value.dtype, device="meta")
    return _python_scalar(value)


def _python_scalar(value):
    if isinstance(value, torch.SymInt):
        return 1
    if isinstance(value, torch.SymFloat):
        return 1.0
    if isinstance(value, torch.SymBool):
        return True
    return value


# ---- binary arithmetic ------------------------------------------------------

BINARY = {
    aten.add.Tensor: ir.AddNode,
    aten.add.Scalar: ir.AddNode,
    aten.sub.Tensor: ir.SubtractNode,
    aten.sub.Scalar: ir.SubtractNode,
    # PyTorch's sign rule: a nonzero remainder has the divisor's sign.
    aten.remainder.Tensor: ir.RemainderNode,
    aten.remainder.Scalar: ir.RemainderNode,
    aten.bitwise_and.Tensor: ir.BitwiseAndNode,
    aten.bitwise_and.Scalar: ir.BitwiseAndNode,
    aten.bitwise_or.Tensor: ir.BitwiseOrNode,
    aten.bitwise_or.Scalar: ir.BitwiseOrNode,
    aten.bitwise_xor.Tensor: ir.BitwiseXorNode,
    aten.bitwise_xor.Scalar: ir.BitwiseXorNode,
}


@HANDLERS.register(list(BINARY))
def binary(b: Emitter, node: Node) -> None:
    lhs, rhs = node.args[0], node.args[1]
    dtype = b.val(node).dtype
    alpha = arg(node, "alpha", 1)
    x, y = b.operand(lhs, dtype), b.operand(rhs, dtype)
    if alpha != 1:
        if dtype == torch.bool:
            raise Unsupported("alpha on bool tensors")
        scaled = b.temp(dtype, y.shape)
        b.emit(ir.MultiplyNode(a=y.tid, b=b.full(alpha, dtype).tid, out=scaled.tid))
        y = scaled
    op = BINARY[overload(node)]
    b.emit(op(a=x.tid, b=y.tid, out=b.out(node).tid))


@HANDLERS.register([aten.fmod.Tensor, aten.fmod.Scalar])
def fmod(b: Emitter, node: Node) -> None:
    """C's fmod, whose result has the sign of the dividend: the remainder of
    |a| by |b| (exact: both are nonnegative), times sign(a)."""
    dtype = b.val(node).dtype
    x, y = b.operand(node.args[0], dtype), b.operand(node.args[1], dtype)
    if not dtype.is_signed:  # unsigned and bool: both rules agree
        b.emit(ir.RemainderNode(a=x.tid, b=y.tid, out=b.out(node).tid))
        return
    magnitudes = []
    for operand in (x, y):
        magnitude = b.temp(dtype, operand.shape)
        b.emit(ir.AbsNode(x=operand.tid, out=magnitude.tid))
        magnitudes.append(magnitude)
    shape = tuple(b.val(node).shape)
    remainder, sign = b.temp(dtype, shape), b.temp(dtype, x.shape)
    b.emit(ir.RemainderNode(a=magnitudes[0].tid, b=magnitudes[1].tid, out=remainder.tid))
    b.emit(ir.SignNode(x=x.tid, out=sign.tid))
    b.emit(ir.MultiplyNode(a=remainder.tid, b=sign.tid, out=b.out(node).tid))


@HANDLERS.register([aten.rsub.Scalar, aten.rsub.Tensor])
def rsub(b: Emitter, node: Node) -> None:
    dtype = b.val(node).dtype
    x, y = b.operand(node.args[0], dtype), b.operand(node.args[1], dtype)
    alpha = arg(node, "alpha", 1)
    if alpha != 1:
        scaled = b.temp(dtype, x.shape)
        b.emit(ir.MultiplyNode(a=x.tid, b=b.full(alpha, dtype).tid, out=scaled.tid))
        x = scaled
    b.emit(ir.SubtractNode(a=y.tid, b=x.tid, out=b.out(node).tid))


DIV_MODES = {
    None: ir.DivRounding.None_,
    "trunc": ir.DivRounding.Trunc,
    "floor": ir.DivRounding.Floor,
}


@HANDLERS.register([aten.div.Tensor, aten.div.Scalar, aten.div.Tensor_mode, aten.div.Scalar_mode])
def div(b: Emitter, node: Node) -> None:
    mode = arg(node, "rounding_mode")
    dtype = b.val(node).dtype
    x, y = b.operand(node.args[0], dtype), b.operand(node.args[1], dtype)
    b.emit(ir.DivideNode(a=x.tid, b=y.tid, out=b.out(node).tid, rounding=DIV_MODES[mode]))


@HANDLERS.register([aten.floor_divide.default])
def floor_divide(b: Emitter, node: Node) -> None:
    dtype = b.val(node).dtype
    x, y = b.operand(node.args[0], dtype), b.operand(node.args[1], dtype)
    b.emit(ir.DivideNode(a=x.tid, b=y.tid, out=b.out(node).tid, rounding=ir.DivRounding.Floor))


# ---- selection --------------------------------------------------------------


@HANDLERS.register(
    [aten.where.self, aten.where.ScalarSelf, aten.where.ScalarOther, aten.where.Scalar]
)
def where(b: Emitter, node: Node) -> None:
    dtype = b.val(node).dtype
    condition = b.operand(node.args[0], torch.bool)
    x, y = b.operand(node.args[1], dtype), b.operand(node.args[2], dtype)
    b.emit(ir.WhereNode(condition=condition.tid, a=x.tid, b=y.tid, out=b.out(node).tid))


# ---- unary ------------------------------------------------------------------

UNARY = {
    aten.exp.default: ir.ExpNode,
    aten.tanh.default: ir.TanhNode,
    aten.sigmoid.default: ir.SigmoidNode,
    aten.erf.default: ir.ErfNode,
    aten.floor.default: ir.FloorNode,
    aten.ceil.default: ir.CeilNode,
    aten.relu.default: ir.ReluNode,
    aten.silu.default: ir.SiluNode,
    aten.trunc.default: ir.TruncNode,
    aten.bitwise_not.default: ir.BitwiseNotNode,
}
# Integer inputs of these are returned unchanged by PyTorch.
INTEGER_IDENTITY = {aten.floor.default, aten.ceil.default, aten.trunc.default}
# Kept whole: ExecuTorch would otherwise decompose silu into x * sigmoid(x).
UNARY_KEPT_WHOLE = {aten.silu.default}


@HANDLERS.register([t for t in UNARY if t not in UNARY_KEPT_WHOLE])
def unary(b: Emitter, node: Node) -> None:
    dtype = b.val(node).dtype
    x = b.operand(node.args[0], dtype)
    target = overload(node)
    if target in INTEGER_IDENTITY and not dtype.is_floating_point:
        b.emit(ir.CopyNode(x=x.tid, out=b.out(node).tid))
        return
    b.emit(UNARY[target](x=x.tid, out=b.out(node).tid))


@HANDLERS.register(list(UNARY_KEPT_WHOLE), keep_whole=True)
def unary_kept_whole(b: Emitter, node: Node) -> None:
    unary(b, node)


# round.decimals is rewritten before decomposition (passes/pre_decomposition.py).
@HANDLERS.register([aten.round.default])
def round_(b: Emitter, node: Node) -> None:
    dtype = b.val(node).dtype
    x = b.operand(node.args[0], dtype)
    b.emit(ir.RoundNode(x=x.tid, out=b.out(node).tid))


@HANDLERS.register([aten.gelu.default], keep_whole=True)
def gelu(b: Emitter, node: Node) -> None:
    approximate = arg(node, "approximate")
    modes = {"none": ir.GeluApproximation.None_, "tanh": ir.GeluApproximation.Tanh}
    x = b.operand(node.args[0], b.val(node).dtype)
    b.emit(ir.GeluNode(x=x.tid, out=b.out(node).tid, approximation=modes[approximate]))


@HANDLERS.register([aten.leaky_relu.default], keep_whole=True)
def leaky_relu(b: Emitter, node: Node) -> None:
    slope = arg(node, "negative_slope")
    x = b.operand(node.args[0], b.val(node).dtype)
    b.emit(ir.LeakyReluNode(x=x.tid, out=b.out(node).tid, negative_slope=float(slope)))


@HANDLERS.register([aten.hardtanh.default], keep_whole=True)
def hardtanh(b: Emitter, node: Node) -> None:
    low, high = arg(node, "min_val"), arg(node, "max_val")
    _clip(b, node, low, high)


@HANDLERS.register([aten.clamp.default, aten.clamp.Tensor])
def clamp(b: Emitter, node: Node) -> None:
    low, high = arg(node, "min"), arg(node, "max")
    _clip(b, node, low, high)


def _clip(b: Emitter, node: Node, low, high) -> None:
    dtype = b.val(node).dtype
    x = b.operand(node.args[0], dtype)
    bound = lambda v: None if v is None else ir.TidOrVid(tid=b.operand(v, dtype).tid)  # noqa: E731
    b.emit(ir.ClipNode(x=x.tid, out=b.out(node).tid, min=bound(low), max=bound(high)))


# Kept whole: ExecuTorch would otherwise decompose them into add/clamp/div with
# dtype copies, and mish and softplus into exp/log1p/where.
@HANDLERS.register([aten.hardsigmoid.default, aten.hardswish.default], keep_whole=True)
def hard_activation(b: Emitter, node: Node) -> None:
    """PyTorch's formulas: relu6(x + 3) / 6, and x * relu6(x + 3) / 6."""
    dtype = b.val(node).dtype
    x = b.operand(node.args[0], dtype)
    shifted, clipped = b.temp(dtype, x.shape), b.temp(dtype, x.shape)
    b.emit(ir.AddNode(a=x.tid, b=b.full(3, dtype).tid, out=shifted.tid))
    bound = lambda v: ir.TidOrVid(tid=b.full(v, dtype).tid)  # noqa: E731
    b.emit(ir.ClipNode(x=shifted.tid, out=clipped.tid, min=bound(0), max=bound(6)))
    if overload(node) is aten.hardswish.default:
        scaled = b.temp(dtype, x.shape)
        b.emit(ir.MultiplyNode(a=x.tid, b=clipped.tid, out=scaled.tid))
        clipped = scaled
    b.emit(ir.DivideNode(a=clipped.tid, b=b.full(6, dtype).tid, out=b.out(node).tid))


@HANDLERS.register([aten.mish.default], keep_whole=True)
def mish(b: Emitter, node: Node) -> None:
    """x * tanh(softplus(x)), softplus(x) = logaddexp(x, 0)."""
    dtype = b.val(node).dtype
    x = b.operand(node.args[0], dtype)
    soft, tanh = b.temp(dtype, x.shape), b.temp(dtype, x.shape)
    b.emit(ir.LogAddExpNode(a=x.tid, b=b.full(0, dtype).tid, out=soft.tid))
    b.emit(ir.TanhNode(x=soft.tid, out=tanh.tid))
    b.emit(ir.MultiplyNode(a=x.tid, b=tanh.tid, out=b.out(node).tid))


@HANDLERS.register([aten.softplus.default], keep_whole=True)
def softplus(b: Emitter, node: Node) -> None:
    """x where beta * x > threshold, else logaddexp(beta * x, 0) / beta."""
    beta = arg(node, "beta", 1)
    threshold = arg(node, "threshold", 20)
    if isinstance(beta, Node) or isinstance(threshold, Node):
        raise Unsupported("softplus with runtime beta or threshold")
    dtype = b.val(node).dtype
    x = b.operand(node.args[0], dtype)
    scaled = x
    if beta != 1:
        scaled = b.temp(dtype, x.shape)
        b.emit(ir.MultiplyNode(a=x.tid, b=b.full(beta, dtype).tid, out=scaled.tid))
    soft = b.temp(dtype, x.shape)
    b.emit(ir.LogAddExpNode(a=scaled.tid, b=b.full(0, dtype).tid, out=soft.tid))
    if beta != 1:
        divided = b.temp(dtype, x.shape)
        b.emit(ir.DivideNode(a=soft.tid, b=b.full(beta, dtype).tid, out=divided.tid))
        soft = divided
    linear = b.temp(torch.bool, x.shape)
    b.emit(ir.GreaterNode(a=scaled.tid, b=b.full(threshold, dtype).tid, out=linear.tid))
    b.emit(ir.WhereNode(condition=linear.tid, a=x.tid, b=soft.tid, out=b.out(node).tid))
