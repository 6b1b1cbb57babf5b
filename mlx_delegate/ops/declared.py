"""Handlers of the ops the schema declares one-to-one onto an MLX function
(`mlx:` and `aten:` on the op table; generated/python/schema_declared.py): the
operands are cast to the dtype `operand_dtype` names (by default the output's,
PyTorch's type promotion) and the node reads them in its declared order. The
runtime side is generated too."""

from __future__ import annotations

from functools import partial

import torch
from torch.fx import Node

from .._generated import declared
from ..builder import HandlerRegistry
from ..builder.emitter import Emitter
from ..ir import schema as ir
from .elementwise import compute_dtype

DECLARED_OPS = declared().DECLARED_OPS


def lower_declared(node_class, op, b: Emitter, node: Node) -> None:
    args = node.args[: len(op.operands)]
    if op.operand_dtype == "input":
        slots = [b.tensor_slot(arg) for arg in args]
    else:
        dtype = b.val(node).dtype if op.operand_dtype == "result" else compute_dtype(b, *args)
        slots = [b.operand(arg, dtype) for arg in args]
    fields = {name: slot.tid for name, slot in zip(op.operands, slots)}
    b.emit(node_class(**fields, out=b.out(node).tid))


def aten_overload(name: str):
    """`sin.default` -> torch.ops.aten.sin.default."""
    packet, overload_name = name.split(".")
    return getattr(getattr(torch.ops.aten, packet), overload_name)


HANDLERS = HandlerRegistry()


def _register(op) -> None:
    """Overloads outside core ATen are kept whole: ExecuTorch would decompose
    them (sgn into sign) before we see them."""
    handler = partial(lower_declared, getattr(ir, op.table), op)
    overloads = [aten_overload(name) for name in op.aten]
    core = [o for o in overloads if torch.Tag.core in o.tags]
    if core:
        HANDLERS.register(core)(handler)
    if len(core) < len(overloads):
        HANDLERS.register([o for o in overloads if o not in core], keep_whole=True)(handler)


for _op in DECLARED_OPS:
    _register(_op)
