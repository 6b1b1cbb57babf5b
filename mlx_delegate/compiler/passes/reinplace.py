"""Re-inplacing, on the program handed to the delegate: a node whose first
operand is a temporary that no later node reads becomes the in-place variant
of its op (`relu` -> `relu_`) when the registry lowers that variant. The
in-place handlers let the result take the operand's storage. Nodes that a
pattern lowers together (an RMSNorm written out), and those whose form a
pattern relies on, stay as they are."""

from __future__ import annotations

from typing import Optional

import torch
from torch.export import ExportedProgram
from torch.fx import Node

from ..._logging import debug
from ..builder.walk import match_patterns


def reinplace(program: ExportedProgram, registry) -> int:
    """Rewrites `program` in place; returns how many nodes became in-place."""
    graph = program.graph_module.graph
    order = {node: index for index, node in enumerate(graph.nodes)}
    anchors, inside = match_patterns(graph, registry)
    inspected = {n for match in anchors.values() for n in match.inspected}
    count = 0
    for node in graph.nodes:
        if node in anchors or node in inside or node in inspected:
            continue
        target = in_place_variant(node, registry)
        if target is not None and _operand_dies_here(node, order):
            debug("re-inplacing %s as %s", node.name, target)
            node.target = target
            count += 1
    if count:
        program.graph_module.recompile()
    return count


def in_place_variant(node: Node, registry) -> Optional[torch._ops.OpOverload]:
    """The in-place overload of `node`'s op, if there is one and it is lowered."""
    if node.op != "call_function":
        return None
    variant = in_place_overload(getattr(node.target, "_op", node.target))
    return variant if variant is not None and registry.lookup(variant) is not None else None


def in_place_overload(functional: object) -> Optional[torch._ops.OpOverload]:
    """`aten.relu.default` -> `aten.relu_.default`: the overload of the op's
    in-place packet with the same argument types (`pow.Tensor_Scalar` ->
    `pow_.Scalar`: the names need not match)."""
    if not isinstance(functional, torch._ops.OpOverload) or functional.namespace != "aten":
        return None
    packet = getattr(torch.ops.aten, functional.overloadpacket.__name__ + "_", None)
    if packet is None:
        return None
    wanted = _argument_types(functional)
    for name in packet.overloads():
        variant = getattr(packet, name)
        if _argument_types(variant) == wanted:
            return variant
    return None


def _argument_types(op: torch._ops.OpOverload) -> list[str]:
    return [str(a.type) for a in op._schema.arguments]


def _operand_dies_here(node: Node, order: dict) -> bool:
    """The first operand is computed by the graph, holds what the result will
    (dtype, shape), and no node after this one reads it."""
    operand = node.args[0] if node.args else None
    if not isinstance(operand, Node) or operand.op != "call_function":
        return False
    before, after = operand.meta.get("val"), node.meta.get("val")
    if not isinstance(before, torch.Tensor) or not isinstance(after, torch.Tensor):
        return False
    if before.dtype != after.dtype or not _same_shape(before.shape, after.shape):
        return False
    return all(order[user] <= order[node] for user in operand.users)


def _same_shape(a, b) -> bool:
    # symbolic sizes compare by their expressions: equal text, equal size
    return len(a) == len(b) and all(str(p) == str(q) for p, q in zip(a, b))
