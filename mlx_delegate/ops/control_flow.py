"""Control flow: `torch.cond` and `while_loop` lowered to `CondNode` and
`WhileNode`, their sub-graphs lowered into instruction chains of their own."""

from __future__ import annotations

import torch
from torch.fx import GraphModule, Node

from ..builder import HandlerRegistry, Unsupported
from ..builder.emitter import Emitter
from ..builder.slots import TensorSlot
from ..ir import schema as ir

HANDLERS = HandlerRegistry()

higher_order = torch.ops.higher_order


@HANDLERS.register([higher_order.cond])
def cond(b: Emitter, node: Node) -> None:
    pred, then_graph, else_graph, operands = node.args[:4]
    if not isinstance(pred, Node):
        raise Unsupported("cond on a Python constant (export folds it)")
    operand_slots = [b.tensor_slot(a) for a in operands]
    outs = _result_slots(b, node)
    then_chain, _ = b.lower_sub_chain(_sub_module(then_graph), operand_slots, outs)
    else_chain, _ = b.lower_sub_chain(_sub_module(else_graph), operand_slots, outs)
    b.emit(
        ir.CondNode(
            pred=b.tensor_slot(pred).tid,
            then_chain=then_chain,
            else_chain=else_chain,
            operands=[s.tid for s in operand_slots],
            outs=[s.tid for s in outs],
        )
    )
    b.bind(node, outs)


@HANDLERS.register([higher_order.while_loop])
def while_loop(b: Emitter, node: Node) -> None:
    cond_graph, body_graph, carried, additional = node.args[:4]
    inits = [b.tensor_slot(a) for a in carried]
    operands = [b.tensor_slot(a) for a in additional]
    state = _result_slots(b, node)
    if [(s.dtype, tuple(s.shape)) for s in state] != [(s.dtype, tuple(s.shape)) for s in inits]:
        raise Unsupported("while_loop state changes dtype or shape")
    pred = b.temp(torch.bool, ())
    cond_chain, _ = b.lower_sub_chain(_sub_module(cond_graph), state + operands, [pred])
    body_chain, _ = b.lower_sub_chain(_sub_module(body_graph), state + operands, state)
    b.emit(
        ir.WhileNode(
            inits=[s.tid for s in inits],
            outs=[s.tid for s in state],
            cond_chain=cond_chain,
            body_chain=body_chain,
            pred_out=pred.tid,
            operands=[s.tid for s in operands],
        )
    )
    b.bind(node, state)


def _sub_module(attr: Node) -> GraphModule:
    """The sub-graph a `get_attr` argument of a control-flow node names."""
    if not isinstance(attr, Node) or attr.op != "get_attr":
        raise Unsupported(f"expected a sub-graph, got {attr!r}")
    module = getattr(attr.graph.owning_module, attr.target)
    if not isinstance(module, GraphModule):
        raise Unsupported(f"{attr.target} is not a graph module")
    return module


def _result_slots(b: Emitter, node: Node) -> list[TensorSlot]:
    values = b.val(node)
    if not all(isinstance(v, torch.Tensor) for v in values):
        raise Unsupported(f"{node.name}: every result must be a tensor")
    return [b.temp(v.dtype, tuple(v.shape)) for v in values]
