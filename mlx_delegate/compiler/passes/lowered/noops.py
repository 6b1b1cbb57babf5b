"""No-op removal: nodes whose result equals their operand (a cast to the same
dtype, a reshape or broadcast to the same static shape, an identity transpose,
a copy into a temp) are dropped and their readers read the operand."""

from __future__ import annotations

from ....formats.ir import schema as ir
from .dataflow import Dataflow, forward


def remove_noops(lowered) -> None:
    flow = Dataflow.of(lowered.instructions)
    aliases: dict = {}
    for node in lowered.instructions:
        if _is_noop(node) and flow.is_single_temp(node.out) and flow.is_stable(node.x):
            aliases[node.out] = node.x
    forward(lowered, aliases)


def _is_noop(node) -> bool:
    if isinstance(node, ir.CopyNode):
        return True
    if isinstance(node, ir.AsTypeNode):
        return node.x.dtype == node.out.dtype
    if isinstance(node, (ir.ReshapeNode, ir.BroadcastToNode)):
        shape = concrete(node.x.shape)
        return shape is not None and static_shape(node.shape) == shape == concrete(node.out.shape)
    if isinstance(node, ir.TransposeNode):
        return list(node.perm) == list(range(len(node.perm)))
    return False


def static_shape(dims) -> tuple | None:
    """The shape an `[IntOrVid]` list spells when every entry is a literal."""
    if dims is None or any(d.vid is not None for d in dims):
        return None
    return tuple(int(d.literal) for d in dims)


def concrete(shape) -> tuple | None:
    """`shape` as ints, or None if a dimension is symbolic (comparing it would
    ask the shape environment to guard)."""
    return tuple(shape) if all(type(d) is int for d in shape) else None
