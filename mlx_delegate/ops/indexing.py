"""Indexing: index_select, advanced indexing, gather, scatter_add."""

from __future__ import annotations

import torch
from torch.fx import Node

from ..builder import REGISTRY, Unsupported
from ..builder.program_builder import ProgramBuilder
from ..ir import schema as ir

aten = torch.ops.aten


@REGISTRY.register([aten.index_select.default])
def index_select(b: ProgramBuilder, node: Node) -> None:
    x, dim, index = node.args[:3]
    b.emit(ir.TakeNode(x=b.tid(x), indices=b.tid(index), out=b.out(node).tid, axis=int(dim)))


@REGISTRY.register([aten.index.Tensor])
def index(b: ProgramBuilder, node: Node) -> None:
    x, indices = node.args[:2]
    if any(i is None for i in indices):
        raise Unsupported("indexing with None (skipped axes)")
    tids = []
    for i in indices:
        slot = b.tensor_slot(i)
        if slot.dtype == torch.bool:
            raise Unsupported("boolean mask indexing (data-dependent shape)")
        tids.append(slot.tid)
    b.emit(ir.IndexNode(x=b.tid(x), indices=tids, out=b.out(node).tid))


def _fit(b: ProgramBuilder, source: Node, like: Node, skip_axis: int | None):
    """`source` sliced to `like`'s sizes on every axis but `skip_axis` (if any)."""
    slot = b.tensor_slot(source)
    source_shape, like_shape = b.val(source).shape, b.val(like).shape
    for axis, (have, want) in enumerate(zip(source_shape, like_shape)):
        if (skip_axis is not None and axis == skip_axis % len(like_shape)) or have == want:
            continue
        if isinstance(have, torch.SymInt) or isinstance(want, torch.SymInt):
            raise Unsupported("gather/scatter with dynamic sizes that differ")
        shape = list(slot.shape)
        shape[axis] = want
        sliced = b.temp(slot.dtype, tuple(shape))
        b.emit(ir.SliceNode(x=slot.tid, out=sliced.tid, axis=axis, start=ir.IntOrVid(literal=0),
                            stop=ir.IntOrVid(literal=int(want)), step=1))
        slot = sliced
    return slot


@REGISTRY.register([aten.gather.default])
def gather(b: ProgramBuilder, node: Node) -> None:
    x, dim, index = node.args[:3]
    if node.kwargs.get("sparse_grad"):
        raise Unsupported("sparse_grad")
    source = _fit(b, x, index, int(dim))
    b.emit(ir.TakeAlongAxisNode(x=source.tid, indices=b.tid(index), out=b.out(node).tid, axis=int(dim)))


@REGISTRY.register([aten.scatter_add.default])
def scatter_add(b: ProgramBuilder, node: Node) -> None:
    x, dim, index, src = node.args[:4]
    updates = b.cast(_fit(b, src, index, None), b.val(node).dtype)
    b.emit(ir.ScatterAddNode(x=b.tid(x), indices=b.tid(index), updates=updates.tid,
                             out=b.out(node).tid, axis=int(dim)))
