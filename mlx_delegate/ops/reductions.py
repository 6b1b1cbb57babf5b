"""Reductions, scans and softmax."""

from __future__ import annotations

import torch
from torch.fx import Node

from ..builder import REGISTRY, Unsupported
from ..builder.program_builder import ProgramBuilder, ir_dtype
from ..ir import schema as ir
from .common import arg, overload

aten = torch.ops.aten


def _axes(dims) -> list[int]:
    if dims is None:
        return []
    return [int(d) for d in (dims if isinstance(dims, (list, tuple)) else [dims])]


REDUCE = {
    "sum": ir.SumNode,
    "mean": ir.MeanNode,
    "amax": ir.MaxNode,
    "amin": ir.MinNode,
    "prod": ir.ProdNode,
    "any": ir.AnyNode,
    "all": ir.AllNode,
}


@REGISTRY.register([aten.sum.dim_IntList, aten.sum.default, aten.mean.dim, aten.mean.default,
                    aten.amax.default, aten.amin.default, aten.prod.default, aten.prod.dim_int,
                    aten.any.default, aten.any.dim, aten.any.dims])
def reduce(b: ProgramBuilder, node: Node) -> None:
    op = overload(node)
    name = op.overloadpacket.__name__
    reduces_all = op._overloadname == "default" and name not in ("amax", "amin")
    dims = [] if reduces_all else _axes(arg(node, 1, "dim"))
    keepdim = False if reduces_all else bool(arg(node, 2, "keepdim", False))
    out_dtype = b.val(node).dtype
    # Sums and products accumulate in the result dtype, as PyTorch does (int -> int64).
    x = b.operand(node.args[0], out_dtype if name in ("sum", "prod", "mean") else b.val(node.args[0]).dtype)
    if name in ("any", "all"):
        result = b.temp(torch.bool, tuple(b.val(node).shape))
        b.emit(REDUCE[name](x=x.tid, out=result.tid, axes=dims, keepdims=keepdim))
        b.bind(node, b.cast(result, out_dtype))
        return
    if b.val(node.args[0]).dim() == 0:
        dims = []
    b.emit(REDUCE[name](x=x.tid, out=b.out(node).tid, axes=dims, keepdims=keepdim))


# Kept whole: ExecuTorch would otherwise rewrite all(x) as not(any(not(x))).
@REGISTRY.register([aten.all.default, aten.all.dim, aten.all.dims], keep_whole=True)
def reduce_all(b: ProgramBuilder, node: Node) -> None:
    reduce(b, node)


@REGISTRY.register([aten.var.correction, aten.var.dim])
def var_std(b: ProgramBuilder, node: Node) -> None:
    op = overload(node)
    dims = _axes(arg(node, 1, "dim"))
    if op._overloadname == "dim":
        unbiased = arg(node, 2, "unbiased", True)
        ddof = 1 if unbiased else 0
        keepdim = bool(arg(node, 3, "keepdim", False))
    else:
        correction = node.kwargs.get("correction", 1)
        ddof = 1 if correction is None else correction
        keepdim = bool(node.kwargs.get("keepdim", False))
    if ddof != int(ddof):
        raise Unsupported("fractional correction")
    x = b.operand(node.args[0], b.val(node).dtype)
    kind = ir.VarNode if op.overloadpacket.__name__ == "var" else ir.StdNode
    b.emit(kind(x=x.tid, out=b.out(node).tid, axes=dims, keepdims=keepdim, ddof=int(ddof)))


# Kept whole: ExecuTorch would otherwise decompose std into sqrt(var).
@REGISTRY.register([aten.std.correction, aten.std.dim], keep_whole=True)
def std(b: ProgramBuilder, node: Node) -> None:
    var_std(b, node)


@REGISTRY.register([aten.argmax.default, aten.argmin.default])
def arg_reduce(b: ProgramBuilder, node: Node) -> None:
    axis = arg(node, 1, "dim")
    keepdim = bool(arg(node, 2, "keepdim", False))
    x = b.tensor_slot(node.args[0])
    indices = b.temp(torch.int32, tuple(b.val(node).shape))  # MLX returns uint32
    kind = ir.ArgMaxNode if overload(node).overloadpacket.__name__ == "argmax" else ir.ArgMinNode
    b.emit(kind(x=x.tid, out=indices.tid, axis=None if axis is None else int(axis), keepdims=keepdim))
    b.emit(ir.AsTypeNode(x=indices.tid, out=b.out(node).tid, dtype=ir_dtype(b.val(node).dtype)))


@REGISTRY.register([aten.cumsum.default])
def cumsum(b: ProgramBuilder, node: Node) -> None:
    x = b.operand(node.args[0], b.val(node).dtype)
    b.emit(ir.CumSumNode(x=x.tid, out=b.out(node).tid, axis=int(node.args[1]), reverse=False))


@REGISTRY.register([aten._softmax.default, aten._log_softmax.default, aten.softmax.int,
                    aten.log_softmax.int])
def softmax(b: ProgramBuilder, node: Node) -> None:
    dtype = b.val(node).dtype
    if not dtype.is_floating_point:
        raise Unsupported("softmax of a non-float tensor")
    x = b.operand(node.args[0], dtype)
    axis = int(node.args[1])
    kind = ir.LogSoftmaxNode if "log" in overload(node).overloadpacket.__name__ else ir.SoftmaxNode
    b.emit(kind(x=x.tid, out=b.out(node).tid, axis=axis))
