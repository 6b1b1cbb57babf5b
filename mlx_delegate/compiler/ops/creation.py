"""Tensor creation: arange, full, zeros, ones, empty and their *_like forms."""

from __future__ import annotations

import torch
from torch.fx import Node

from ..builder import HandlerRegistry, Unsupported
from ..builder.emitter import Emitter
from ..builder.slots import ir_dtype
from ...formats.ir import schema as ir
from .common import arg, overload

HANDLERS = HandlerRegistry()

aten = torch.ops.aten


def _dtype(b: Emitter, node: Node) -> torch.dtype:
    return b.val(node).dtype


@HANDLERS.register([aten.arange.default, aten.arange.start, aten.arange.start_step])
def arange(b: Emitter, node: Node) -> None:
    args = list(node.args)
    if len(args) == 1:
        args = [0, args[0], 1]
    elif len(args) == 2:
        args = [args[0], args[1], 1]
    start, stop, step = args
    b.emit(
        ir.ArangeNode(
            out=b.out(node).tid,
            start=b.float_or_vid(start),
            stop=b.float_or_vid(stop),
            step=b.float_or_vid(step),
            dtype=ir_dtype(_dtype(b, node)),
        )
    )


@HANDLERS.register(
    [aten.full.default, aten.zeros.default, aten.ones.default, aten.scalar_tensor.default]
)
def full(b: Emitter, node: Node) -> None:
    name = overload(node).overloadpacket.__name__
    if name == "scalar_tensor":
        sizes, value = [], node.args[0]
    else:
        sizes = node.args[0]
        value = {"zeros": 0, "ones": 1}[name] if name != "full" else arg(node, "fill_value")
    slot = b.full(value, _dtype(b, node), list(sizes))
    b.bind(node, slot)


@HANDLERS.register([aten.full_like.default, aten.zeros_like.default, aten.ones_like.default])
def full_like(b: Emitter, node: Node) -> None:
    name = overload(node).overloadpacket.__name__
    value = (
        {"zeros_like": 0, "ones_like": 1}[name] if name != "full_like" else arg(node, "fill_value")
    )
    if isinstance(value, Node):
        raise Unsupported("full_like with a runtime fill value")
    b.emit(
        ir.FullLikeNode(
            x=b.tid(node.args[0]),
            out=b.out(node).tid,
            value=float(value),
            dtype=ir_dtype(_dtype(b, node)),
        )
    )


def _empty_dim_order():
    """ExecuTorch's edge dialect replaces empty with this dim-order aware empty."""
    import executorch.exir.dialects._ops  # noqa: F401  (registers the dim_order_ops namespace)

    return torch.ops.dim_order_ops._empty_dim_order.default


@HANDLERS.register([aten.empty.memory_format, _empty_dim_order()])
def empty(b: Emitter, node: Node) -> None:
    """A tensor whose values are never read before being written (DeepSeek-V3's
    attention assembles its keys into one): zeros, so that a program's results
    never depend on leftover memory."""
    dim_order = arg(node, "dim_order")
    if dim_order and list(dim_order) != list(range(len(dim_order))):
        raise Unsupported(f"non-contiguous dim order {list(dim_order)}")
    b.bind(node, b.full(0, _dtype(b, node), list(node.args[0])))
