"""Reductions that need more than a declaration (schema.fbs declares sum,
mean, max, min, prod, any and all), scans and softmax."""

from __future__ import annotations

import operator

import torch
from torch.fx import Node

from ..builder import HandlerRegistry, Unsupported
from ..builder.emitter import Emitter
from ..builder.slots import ir_dtype
from ...formats.ir import schema as ir
from ..passes import pre_decomposition  # noqa: F401  (defines mlx_delegate::cumprod)
from .common import arg, overload

HANDLERS = HandlerRegistry()

aten = torch.ops.aten


def _axes(dims) -> list[int]:
    if dims is None:
        return []
    return [int(d) for d in (dims if isinstance(dims, (list, tuple)) else [dims])]


@HANDLERS.register([aten.var.correction, aten.var.dim])
def var_std(b: Emitter, node: Node) -> None:
    op = overload(node)
    dims = _axes(arg(node, "dim"))
    if op._overloadname == "dim":
        ddof = 1 if arg(node, "unbiased") else 0
    else:
        correction = arg(node, "correction")
        ddof = 1 if correction is None else correction
    keepdim = bool(arg(node, "keepdim"))
    if ddof != int(ddof):
        raise Unsupported("fractional correction")
    x = b.operand(node.args[0], b.val(node).dtype)
    kind = ir.VarNode if op.overloadpacket.__name__ == "var" else ir.StdNode
    b.emit(kind(x=x.tid, out=b.out(node).tid, axes=dims, keepdims=keepdim, ddof=int(ddof)))


# Kept whole: ExecuTorch would otherwise decompose std into sqrt(var).
@HANDLERS.register([aten.std.correction, aten.std.dim], keep_whole=True)
def std(b: Emitter, node: Node) -> None:
    var_std(b, node)


@HANDLERS.register([aten.argmax.default, aten.argmin.default])
def arg_reduce(b: Emitter, node: Node) -> None:
    axis = arg(node, "dim")
    keepdim = bool(arg(node, "keepdim", False))
    x = b.tensor_slot(node.args[0])
    indices = b.temp(torch.int32, tuple(b.val(node).shape))  # MLX returns uint32
    kind = ir.ArgMaxNode if overload(node).overloadpacket.__name__ == "argmax" else ir.ArgMinNode
    b.emit(
        kind(x=x.tid, out=indices.tid, axis=None if axis is None else int(axis), keepdims=keepdim)
    )
    b.emit(ir.AsTypeNode(x=indices.tid, out=b.out(node).tid, dtype=ir_dtype(b.val(node).dtype)))


@HANDLERS.register([aten.cumsum.default])
def cumsum(b: Emitter, node: Node) -> None:
    x = b.operand(node.args[0], b.val(node).dtype)
    b.emit(ir.CumSumNode(x=x.tid, out=b.out(node).tid, axis=int(node.args[1]), reverse=False))


@HANDLERS.register([torch.ops.mlx_delegate.cumprod.default])  # aten.cumprod, rewritten (passes/)
def cumprod(b: Emitter, node: Node) -> None:
    x = b.operand(node.args[0], b.val(node).dtype)
    b.emit(ir.CumProdNode(x=x.tid, out=b.out(node).tid, axis=int(node.args[1]), reverse=False))


# Kept whole: ExecuTorch would otherwise decompose it into amax, exp, sum, log.
@HANDLERS.register([aten.logsumexp.default], keep_whole=True)
def logsumexp(b: Emitter, node: Node) -> None:
    dims = _axes(arg(node, "dim"))
    keepdim = bool(arg(node, "keepdim", False))
    x = b.operand(node.args[0], b.val(node).dtype)  # integers are promoted to float
    b.emit(ir.LogSumExpNode(x=x.tid, out=b.out(node).tid, axes=dims, keepdims=keepdim))


# ---- sorting ----------------------------------------------------------------


def _sort(b: Emitter, node: Node, axis: int, descending: bool, outputs=(0, 1)):
    """Sorted values and their int32 positions (MLX returns uint32) along `axis`,
    full length; only the `outputs` asked for (0: values, 1: indices)."""
    x = b.tensor_slot(node.args[0])
    values = b.temp(x.dtype, x.shape) if 0 in outputs else None
    order = b.temp(torch.int32, x.shape) if 1 in outputs else None
    tid = lambda slot: None if slot is None else slot.tid  # noqa: E731
    b.emit(
        ir.SortNode(
            x=x.tid,
            values_out=tid(values),
            indices_out=tid(order),
            axis=axis,
            descending=descending,
        )
    )
    return values, order


def _used_outputs(node: Node) -> set:
    """The positions of a tuple-valued node that its getitem users read."""
    return {int(user.args[1]) for user in node.users if user.target is operator.getitem}


# sort.stable and argsort.stable are rewritten into sort.default (passes/): every
# sort here is stable. msort decomposes into sort.default; argsort is kept whole
# (ExecuTorch would decompose it into sort.default too), its one output the indices.
@HANDLERS.register([aten.sort.default])
@HANDLERS.register([aten.argsort.default], keep_whole=True)
def sort(b: Emitter, node: Node) -> None:
    axis = int(arg(node, "dim", -1))
    descending = bool(arg(node, "descending", False))
    if overload(node) is aten.argsort.default:
        _, order = _sort(b, node, axis, descending, {1})
        b.bind(node, b.cast(order, torch.int64))
        return
    values, order = _sort(b, node, axis, descending, _used_outputs(node))
    b.bind(node, [values, None if order is None else b.cast(order, torch.int64)])


@HANDLERS.register([aten.topk.default])
def topk(b: Emitter, node: Node) -> None:
    """The first k of a full sort (descending for the largest). Sorted either
    way: with sorted=False PyTorch leaves the order unspecified."""
    k = arg(node, "k")
    rank = max(b.val(node.args[0]).dim(), 1)
    axis = int(arg(node, "dim", -1)) % rank
    largest = bool(arg(node, "largest", True))
    used = _used_outputs(node)
    sorted_values, order = _sort(b, node, axis, largest, used)
    results = []
    for position, full in enumerate((sorted_values, order)):
        if full is None:
            results.append(None)
            continue
        kept = b.temp(full.dtype, tuple(b.val(node)[position].shape))
        b.emit(
            ir.SliceNode(
                x=full.tid,
                out=kept.tid,
                axis=axis,
                start=ir.IntOrVid(literal=0),
                stop=b.int_or_vid(k),
                step=1,
            )
        )
        results.append(kept)
    values, indices = results
    b.bind(node, [values, None if indices is None else b.cast(indices, torch.int64)])


@HANDLERS.register(
    [aten._softmax.default, aten._log_softmax.default, aten.softmax.int, aten.log_softmax.int]
)
def softmax(b: Emitter, node: Node) -> None:
    dtype = b.val(node).dtype
    if not dtype.is_floating_point:
        raise Unsupported("softmax of a non-float tensor")
    x = b.operand(node.args[0], dtype)
    axis = int(node.args[1])
    kind = ir.LogSoftmaxNode if "log" in overload(node).overloadpacket.__name__ else ir.SoftmaxNode
    b.emit(kind(x=x.tid, out=b.out(node).tid, axis=axis))
