"""Handlers of the ops the schema declares one-to-one onto an MLX function
(`mlx:` and `aten:` on the op table; generated/python/schema_declared.py): the
operands are cast to the dtype `operand_dtype` names (by default the output's,
PyTorch's type promotion) and the node reads them in its declared order. The
runtime side is generated too."""

from __future__ import annotations

from functools import partial

import torch
from torch.fx import Node

from ...formats._generated import declared
from ..builder import HandlerRegistry
from ..builder.emitter import Emitter
from ...formats.ir import schema as ir
from ..builder.slots import ir_dtype
from .common import arg, aten_overload
from .elementwise import compute_dtype

DECLARED_OPS = declared().DECLARED_OPS


def lower_declared(node_class, op, b: Emitter, node: Node) -> None:
    slots = _operands(op, b, node)
    fields = {name: slot.tid for name, slot in zip(op.operands, slots)}
    b.emit(node_class(**fields, out=b.out(node).tid))


def lower_declared_reduction(node_class, op, b: Emitter, node: Node) -> None:
    """Every reduced axis listed (`dim` absent, None or empty: all of them);
    MLX reduces in the operand's dtype, cast to PyTorch's result after."""
    (x,) = _operands(op, b, node)
    rank = len(x.shape)
    dims = arg(node, "dim")
    dims = [dims] if isinstance(dims, int) else list(dims or range(rank))
    axes = sorted({int(d) % rank for d in dims}) if rank else []
    result_dtype = b.val(node).dtype
    shape = tuple(b.val(node).shape)
    result = b.out(node) if x.dtype == result_dtype else b.temp(x.dtype, shape)
    b.emit(node_class(x=x.tid, out=result.tid, axes=axes, keepdims=bool(arg(node, "keepdim"))))
    if result.dtype != result_dtype:
        b.emit(ir.AsTypeNode(x=result.tid, out=b.out(node).tid, dtype=ir_dtype(result_dtype)))


def _operands(op, b: Emitter, node: Node) -> list:
    """The operand slots in the dtype `op.operand_dtype` names."""
    args = node.args[: len(op.operands)]
    if op.operand_dtype == "input":
        return [b.tensor_slot(arg) for arg in args]
    dtype = {
        "result": lambda: b.val(node).dtype,
        "promoted": lambda: compute_dtype(b, *args),
        "bool": lambda: torch.bool,
    }[op.operand_dtype]()
    return [b.operand(arg, dtype) for arg in args]


def declared_handlers(ops) -> HandlerRegistry:
    """A registry with the handler of each op of `ops` (DECLARED_OPS' entries)."""
    handlers = HandlerRegistry()
    for op in ops:
        _register(handlers, op)
    return handlers


def _register(handlers: HandlerRegistry, op) -> None:
    """Overloads outside core ATen are kept whole: ExecuTorch would decompose
    them (sgn into sign) before we see them."""
    lower = lower_declared_reduction if op.kind == "reduction" else lower_declared
    handler = partial(lower, getattr(ir, op.table), op)
    overloads = [aten_overload(name) for name in op.aten]
    core = [o for o in overloads if torch.Tag.core in o.tags]
    if core:
        handlers.register(core)(handler)
    if len(core) < len(overloads):
        handlers.register([o for o in overloads if o not in core], keep_whole=True)(handler)


HANDLERS = declared_handlers(DECLARED_OPS)
