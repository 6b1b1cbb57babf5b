"""View collapsing: a reshape of a reshape reads the first reshape's operand,
and two transposes in a row become one (or none)."""

from __future__ import annotations

from ...builder.slots import TensorSlot
from ....formats.ir import schema as ir
from .dataflow import Dataflow


def collapse_views(lowered) -> None:
    flow = Dataflow.of(lowered.instructions)
    producer = {}  # single-temp slot -> the node that writes it
    for node in lowered.instructions:
        operand = getattr(node, "x", None)
        inner = producer.get(operand) if isinstance(operand, TensorSlot) else None
        if inner is not None and type(inner) is type(node) and flow.is_stable(inner.x):
            if isinstance(node, ir.ReshapeNode):
                node.x = inner.x  # the shape is the outer reshape's alone
            elif isinstance(node, ir.TransposeNode):
                node.perm = [inner.perm[axis] for axis in node.perm]
                node.x = inner.x
        if isinstance(node, (ir.ReshapeNode, ir.TransposeNode)) and flow.is_single_temp(node.out):
            producer[node.out] = node
