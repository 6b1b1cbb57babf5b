"""Multi-node patterns lowered as one IR node.

RMSNorm written out by hand, as many LLM codebases do,
    x * rsqrt(mean(x * x, -1, keepdim=True) + eps) [* weight]
(with x.pow(2) or x * x, and either operand order) becomes one RmsNormNode.

A convolution followed by an inference batch norm (conv -> bn -> bn[0]) becomes
one ConvNode with the batch norm folded into its weights and bias."""

from __future__ import annotations

import operator
from typing import Optional

from torch.fx import Node

from ..builder import HandlerRegistry, Unsupported
from ..builder.registry import PatternMatch
from ...formats.ir import schema as ir
from .common import calls
from .nn import fold_conv_batch_norm

HANDLERS = HandlerRegistry()


def _other(mul: Node, one) -> Optional[object]:
    """The operand of a two-operand `mul` that is not `one`."""
    a, b = mul.args[:2]
    return b if a is one else a if b is one else None


def _mean_of_squares(node, x: Node) -> bool:
    if not calls(node, "aten::mean.dim") or len(node.args) < 3 or node.args[2] is not True:
        return False
    dims = list(node.args[1])
    rank = node.args[0].meta["val"].dim() if isinstance(node.args[0], Node) else -1
    if dims not in ([-1], [rank - 1]):
        return False
    square = node.args[0]
    if calls(square, "aten::pow.Tensor_Scalar"):
        return square.args[0] is x and square.args[1] == 2
    return calls(square, "aten::mul.Tensor") and square.args[0] is x and square.args[1] is x


def _normalize(node) -> Optional[tuple[Node, Node, object, list[Node]]]:
    """(the normalize mul, x, eps, its inner nodes) when `node` is x * rsqrt(...);
    eps is a number or the node of a one-element constant."""
    if not calls(node, "aten::mul.Tensor"):
        return None
    for rsqrt in node.args[:2]:
        if not calls(rsqrt, "aten::rsqrt"):
            continue
        x = _other(node, rsqrt)
        add = rsqrt.args[0]
        if not isinstance(x, Node) or not calls(add, "aten::add.Tensor", "aten::add.Scalar"):
            continue
        mean, eps = add.args[:2]
        if not _mean_of_squares(mean, x):
            mean, eps = eps, mean
        if _is_scalar(eps) and add.kwargs.get("alpha", 1) == 1 and _mean_of_squares(mean, x):
            return node, x, eps, [mean.args[0], mean, add, rsqrt]
    return None


def _is_scalar(eps) -> bool:
    """A Python number, or a one-element constant (export lifts `+ 1e-6` into one)."""
    if isinstance(eps, (int, float)):
        return True
    return isinstance(eps, Node) and eps.op == "placeholder" and eps.meta["val"].numel() == 1


def _eps_value(b, eps) -> float:
    if isinstance(eps, (int, float)):
        return float(eps)
    value = b.constant(eps)
    if value is None and not b.dry_run:
        raise Unsupported("rms_norm epsilon is not a constant")
    return 0.0 if value is None else float(value.reshape(-1)[0])


@HANDLERS.register_pattern
def rms_norm(node: Node) -> Optional[PatternMatch]:
    weight, normalized = None, _normalize(node)
    if normalized is None and calls(node, "aten::mul.Tensor"):
        for candidate in node.args[:2]:
            normalized = _normalize(candidate)
            if normalized is not None:
                weight = _other(node, candidate)
                break
    if normalized is None:
        return None
    inner_mul, x, eps, inner = normalized
    dim = x.meta["val"].shape[-1]
    if weight is not None and (
        not isinstance(weight, Node) or tuple(weight.meta["val"].shape) != (dim,)
    ):
        return None
    nodes = tuple(inner) + ((inner_mul, node) if weight is not None else (node,))

    def lower(b) -> None:
        dtype = b.val(node).dtype
        w = None if weight is None else b.operand(weight, dtype).tid
        b.emit(
            ir.RmsNormNode(
                x=b.operand(x, dtype).tid, out=b.out(node).tid, weight=w, eps=_eps_value(b, eps)
            )
        )

    return PatternMatch("rms_norm", nodes, lower)


CONVOLUTIONS = (
    "aten::convolution",
    "aten::conv1d",
    "aten::conv2d",
    "aten::conv3d",
    "aten::conv_transpose1d",
    "aten::conv_transpose2d.input",
    "aten::conv_transpose3d.input",
)


@HANDLERS.register_pattern
def conv_batch_norm(node: Node) -> Optional[PatternMatch]:
    """getitem(batch_norm(conv(...)), 0), the batch norm in inference mode. The
    builder checks that the convolution's output feeds only the batch norm."""
    if node.op != "call_function" or node.target is not operator.getitem or node.args[1] != 0:
        return None
    bn = node.args[0]
    if not calls(bn, "aten::_native_batch_norm_legit_no_training"):
        return None
    conv = bn.args[0]
    if not calls(conv, *CONVOLUTIONS) or not conv.meta["val"].dtype.is_floating_point:
        return None
    return PatternMatch(
        "conv_batch_norm", (conv, bn, node), lambda b: fold_conv_batch_norm(b, conv, bn, node)
    )
