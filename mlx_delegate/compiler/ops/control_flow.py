"""Control flow: `torch.cond` and `while_loop` lowered to `CondNode` and
`WhileNode`, their sub-graphs lowered into instruction chains of their own;
`scan` and `map` lowered to counted `WhileNode` loops."""

from __future__ import annotations

import torch
from torch.fx import GraphModule, Node

from ..builder import HandlerRegistry, Unsupported
from ..builder.emitter import Emitter
from ..builder.slots import TensorSlot
from ...formats.ir import schema as ir

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
    if not _same_layouts(state, inits):
        raise Unsupported("while_loop state changes dtype or shape")
    pred = b.temp(torch.bool, ())
    cond_chain, _ = b.lower_sub_chain(_sub_module(cond_graph), state + operands, [pred])
    body_chain, _ = b.lower_sub_chain(_sub_module(body_graph), state + operands, state)
    _emit_while(b, inits, state, cond_chain, body_chain, pred, operands)
    b.bind(node, state)


@HANDLERS.register([higher_order.scan])
def scan(b: Emitter, node: Node) -> None:
    """scan(combine, init, xs, additional_inputs): results are the final
    carries, then the per-step outputs stacked on a new axis 0. (`reverse`
    reaches here as flips of the xs and the stacked outputs, around the node.)"""
    combine, init, xs, additional = node.args[:4]
    inits = [b.tensor_slot(a) for a in init]
    results = _result_slots(b, node)
    _counted_loop(b, node, _sub_module(combine), inits, xs, additional, results)
    b.bind(node, results)


@HANDLERS.register([higher_order.map_impl])
def map_impl(b: Emitter, node: Node) -> None:
    """map_impl(body, xs, args): the body's results for each slice of the xs on
    axis 0, stacked on a new axis 0."""
    body, xs, args = node.args[:3]
    results = _result_slots(b, node)
    _counted_loop(b, node, _sub_module(body), [], xs, args, results)
    b.bind(node, results)


def _counted_loop(
    b: Emitter,
    node: Node,
    module: GraphModule,
    inits: list[TensorSlot],
    xs: list,
    additional: list,
    results: list[TensorSlot],
) -> None:
    """A `WhileNode` over the state (step, carries..., stacked outputs...):
    the cond chain tests step < length; the body chain takes element `step`
    of each xs on axis 0, runs `module` on (carries..., elements...,
    additional...), writes its per-step results into the stacked outputs at
    `step` and increments the step. The stacked outputs start as zeros."""
    xs_slots = [b.tensor_slot(a) for a in xs]
    operands = [b.tensor_slot(a) for a in additional]
    if not xs_slots:
        raise Unsupported(f"{node.name}: no xs to iterate over")
    lengths = [s.shape[0] if s.shape else None for s in xs_slots]
    if not all(type(n) is int for n in lengths) or len(set(lengths)) != 1:
        raise Unsupported(f"{node.name}: the xs' leading sizes {lengths} are not one static size")
    length = lengths[0]
    carries, stacked = results[: len(inits)], results[len(inits) :]
    if not _same_layouts(carries, inits):
        raise Unsupported(f"{node.name}: a carry changes dtype or shape")
    if any(not s.shape or s.shape[0] != length for s in stacked):
        raise Unsupported(f"{node.name}: an output is not stacked to the xs' length")

    def int64_constant(value: int, shape: tuple) -> TensorSlot:
        return b.computed_constant(
            lambda: torch.full(shape, value, dtype=torch.int64), torch.int64, shape
        )

    step = b.temp(torch.int64, ())
    start, limit, one = int64_constant(0, ()), int64_constant(length, ()), int64_constant(1, ())
    state = [step, *carries, *stacked]
    loop_inits = [start, *inits, *(b.full(0, s.dtype, s.shape) for s in stacked)]
    pred = b.temp(torch.bool, ())
    with b.new_chain() as cond_chain:
        b.emit(ir.LessNode(a=step.tid, b=limit.tid, out=pred.tid))
    with b.new_chain() as body_chain:
        elements = []
        for x in xs_slots:
            element = b.temp(x.dtype, x.shape[1:])
            b.emit(ir.TakeNode(x=x.tid, indices=step.tid, out=element.tid, axis=0))
            elements.append(element)
        outs = b.lower_inline(module, [*carries, *elements, *operands])
        if len(outs) != len(state) - 1:
            raise Unsupported(f"{node.name}: the sub-graph has {len(outs)} results")
        at = b.temp(torch.int64, (1,))
        b.emit(ir.ReshapeNode(x=step.tid, out=at.tid, shape=[ir.IntOrVid(literal=1)]))
        written = []
        for acc, y in zip(stacked, outs[len(carries) :]):
            if not isinstance(y, TensorSlot) or (y.dtype, tuple(y.shape)) != (
                acc.dtype,
                tuple(acc.shape[1:]),
            ):
                raise Unsupported(f"{node.name}: a per-step result does not fit its stack")
            row = b.temp(y.dtype, (1, *y.shape))
            b.emit(ir.ExpandDimsNode(x=y.tid, out=row.tid, axes=[0]))
            updated = b.temp(acc.dtype, acc.shape)
            b.emit(
                ir.IndexPutNode(x=acc.tid, indices=at.tid, values=row.tid, out=updated.tid, axis=0)
            )
            written.append(updated)
        next_step = b.temp(torch.int64, ())
        b.emit(ir.AddNode(a=step.tid, b=one.tid, out=next_step.tid))
        b.copy_results([next_step, *outs[: len(carries)], *written], state)
    _emit_while(
        b, loop_inits, state, cond_chain, body_chain, pred, [*xs_slots, *operands, limit, one]
    )


def _emit_while(b: Emitter, inits, state, cond_chain: int, body_chain: int, pred, operands) -> None:
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


def _same_layouts(slots: list[TensorSlot], others: list[TensorSlot]) -> bool:
    """Pairwise the same dtype and shape (a loop state must keep both)."""
    layout = lambda s: (s.dtype, tuple(s.shape))  # noqa: E731
    return [layout(s) for s in slots] == [layout(s) for s in others]


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
