"""Runtime values: symbolic sizes, item(), and integer arithmetic on them."""

from __future__ import annotations

import operator

import torch
from torch.fx import Node

from ..builder import HandlerRegistry, Unsupported
from ..builder.registry import target_key
from ..builder.emitter import Emitter
from ...formats.ir import schema as ir
from .common import overload as _overload

HANDLERS = HandlerRegistry()

aten = torch.ops.aten


@HANDLERS.register([aten.sym_size.int])
def sym_size(b: Emitter, node: Node) -> None:
    value = b.new_value()
    b.emit(ir.SymSizeNode(x=b.tid(node.args[0]), dim=int(node.args[1]), out=value.vid))
    b.bind(node, value)


# Views that keep a one-element tensor's one element (and the edge dialect's copies).
ELEMENT_VIEWS = {
    target_key(getattr(packet, overload))
    for name in ("select", "squeeze", "view", "reshape", "unsqueeze")
    for packet in (getattr(aten, name), getattr(aten, f"{name}_copy", None))
    if packet is not None
    for overload in packet.overloads()
}


@HANDLERS.register([aten._local_scalar_dense.default, aten.item.default])
def item(b: Emitter, node: Node) -> None:
    value = b.new_value()
    b.emit(item_node_of(b, node.args[0], value))
    b.bind(node, value)


def item_node_of(b: Emitter, tensor: Node, value) -> ir.ItemNode:
    """Item of `tensor`, read through views of a one-element tensor: an LLM's
    `input_pos[0].item()` then reads the program's input, which is in host
    memory, instead of a selection the device would compute first, so the step
    does not wait for the device before it starts."""
    while (
        isinstance(tensor, Node)
        and tensor.op == "call_function"
        and target_key(tensor.target) in ELEMENT_VIEWS
        and isinstance(tensor.args[0], Node)
        and tensor.args[0].meta["val"].numel() == 1
    ):
        tensor = tensor.args[0]
    return ir.ItemNode(x=b.tid(tensor), out=value.vid)


INT_OPS = {
    operator.add: ir.IntBinaryOp.Add,
    operator.sub: ir.IntBinaryOp.Sub,
    operator.mul: ir.IntBinaryOp.Mul,
    operator.floordiv: ir.IntBinaryOp.FloorDiv,
    operator.mod: ir.IntBinaryOp.Mod,
    torch.sym_min: ir.IntBinaryOp.Min,
    torch.sym_max: ir.IntBinaryOp.Max,
}


@HANDLERS.register(list(INT_OPS))
def int_binary(b: Emitter, node: Node) -> None:
    if not isinstance(node.meta.get("val"), (int, torch.SymInt)):
        raise Unsupported("arithmetic on non-integer runtime values")
    value = b.new_value()
    b.emit(
        ir.IntBinaryNode(
            op=INT_OPS[node.target],
            a=b.int_or_vid(node.args[0]),
            b=b.int_or_vid(node.args[1]),
            out=value.vid,
        )
    )
    b.bind(node, value)


# A runtime check export inserts on a symbolic value (torch._check on an item(),
# say): the delegate does not run it, nor the comparison that is its condition.
@HANDLERS.register([aten._assert_scalar.default])
def assert_scalar(b: Emitter, node: Node) -> None:
    pass


CHECK_CONDITIONS = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]


@HANDLERS.register(CHECK_CONDITIONS)
def check_condition(b: Emitter, node: Node) -> None:
    """A comparison of runtime values read only by checks (_assert_scalar): an
    unwritten value, which no lowered op reads."""
    if not node.users or any(_overload(u) is not aten._assert_scalar.default for u in node.users):
        raise Unsupported("a comparison of runtime values read by more than checks")
    b.bind(node, b.new_value())
