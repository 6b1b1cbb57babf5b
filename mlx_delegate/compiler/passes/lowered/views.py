"""View collapsing: a reshape of a reshape reads the first reshape's operand,
two transposes in a row become one (or none), a transpose that only moves an
axis that an ExpandDims made, or that a Select then takes away, goes, and a
Select of an axis of one that a reshape made is that reshape without it.

The last two are the shape of a matrix-vector product over a batch written as
torch's bmm (a mixture of experts' gathered products, experts.py): the rows
(S, in) are made columns (S, in, 1), transposed back to (S, 1, in) for MLX's
product, and its result (S, 1, out) transposed to (S, out, 1) for `[..., 0]`.
Each view is a primitive that every call builds and MLX evaluates; collapsed,
the rows become (S, 1, in) by one ExpandDims and the result (S, out) by one
Select. Where the product reads each token's row in place, its (T, k, 1, out)
result is reshaped to (S, out, 1) for `[..., 0]`: one reshape to (S, out)."""

from __future__ import annotations

from typing import Any

from ...builder.slots import TensorSlot
from ....formats.ir import schema as ir
from .dataflow import Dataflow

VIEWS = (ir.ReshapeNode, ir.TransposeNode, ir.ExpandDimsNode)


def collapse_views(lowered) -> None:
    flow = Dataflow.of(lowered.instructions)
    producer = {}  # single-temp slot -> the view that writes it
    for index, node in enumerate(lowered.instructions):
        operand = getattr(node, "x", None)
        inner = producer.get(operand) if isinstance(operand, TensorSlot) else None
        if inner is not None and flow.is_stable(inner.x):
            node = lowered.instructions[index] = _collapsed(node, inner)
        if isinstance(node, VIEWS) and flow.is_single_temp(node.out):
            producer[node.out] = node


def _collapsed(node: Any, inner: Any) -> Any:
    """`node` reading `inner.x` directly where the two views make one; else `node`."""
    if isinstance(node, ir.ReshapeNode) and isinstance(inner, ir.ReshapeNode):
        node.x = inner.x  # the shape is the outer reshape's alone
    elif isinstance(node, ir.TransposeNode) and isinstance(inner, ir.TransposeNode):
        node.perm = [inner.perm[axis] for axis in node.perm]
        node.x = inner.x
    elif isinstance(node, ir.TransposeNode) and isinstance(inner, ir.ExpandDimsNode):
        rank = len(inner.out.shape)
        if len(inner.axes) == 1:
            new = inner.axes[0] % rank
            perm = [axis % rank for axis in node.perm]
            if _in_order(perm, new):  # the new axis moved, the others in their order
                return ir.ExpandDimsNode(x=inner.x, out=node.out, axes=[perm.index(new)])
    elif isinstance(node, ir.SelectNode) and isinstance(inner, ir.TransposeNode):
        rank = len(inner.out.shape)
        perm = [axis % rank for axis in inner.perm]
        taken = perm[node.axis % rank]
        if _in_order(perm, taken):  # what the Select leaves is in the operand's order
            node.x, node.axis = inner.x, taken
    elif isinstance(node, ir.SelectNode) and isinstance(inner, ir.ReshapeNode):
        axis = node.axis % len(inner.shape)
        size = inner.shape[axis]
        if size.vid is None and size.literal == 1:
            shape = [d for i, d in enumerate(inner.shape) if i != axis]
            return ir.ReshapeNode(x=inner.x, out=node.out, shape=shape)
    return node


def _in_order(perm: list[int], moved: int) -> bool:
    rest = [axis for axis in perm if axis != moved]
    return rest == sorted(rest)
