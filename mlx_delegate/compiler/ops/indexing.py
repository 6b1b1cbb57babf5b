"""Indexing: index_select, advanced indexing, gather, scatter and scatter_add."""

from __future__ import annotations

import torch
from torch.fx import Node

from ..builder import HandlerRegistry, Unsupported
from ..builder.emitter import Emitter
from ..builder.slots import TensorSlot, ValueSlot, ir_dtype
from ...formats.ir import schema as ir
from .common import arg, contiguous_positions

HANDLERS = HandlerRegistry()

aten = torch.ops.aten


@HANDLERS.register([aten.index_select.default])
def index_select(b: Emitter, node: Node) -> None:
    x, dim, index = node.args[:3]
    indices = b.tensor_slot(index)
    if not indices.shape:  # a 0-d index selects one element but keeps the axis
        flat = b.temp(indices.dtype, (1,))
        b.emit(ir.ReshapeNode(x=indices.tid, out=flat.tid, shape=[ir.IntOrVid(literal=1)]))
        indices = flat
    b.emit(ir.TakeNode(x=b.tid(x), indices=indices.tid, out=b.out(node).tid, axis=int(dim)))


@HANDLERS.register([aten.index.Tensor])
def index(b: Emitter, node: Node) -> None:
    x, indices = node.args[:2]
    # Trailing Nones (full slices) change nothing; a leading None (x[:, i]) does.
    indices = list(indices)
    while indices and indices[-1] is None:
        indices.pop()
    first = next((k for k, i in enumerate(indices) if i is not None), len(indices))
    tensors = indices[first:]
    if any(i is None for i in tensors):
        raise Unsupported("index tensors separated by a full slice")
    slots = [b.tensor_slot(i) for i in tensors]
    if any(s.dtype == torch.bool for s in slots):
        raise Unsupported("boolean mask indexing (data-dependent shape)")
    if len(slots) == 1:
        # One index tensor on axis `first`: its dims replace that axis, as take does.
        b.emit(ir.TakeNode(x=b.tid(x), indices=slots[0].tid, out=b.out(node).tid, axis=first))
        return
    if first:
        raise Unsupported("several index tensors after a full slice")
    b.emit(ir.IndexNode(x=b.tid(x), indices=[s.tid for s in slots], out=b.out(node).tid))


def _fit(b: Emitter, source: Node, like: Node, skip_axis: int | None):
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
        b.emit(
            ir.SliceNode(
                x=slot.tid,
                out=sliced.tid,
                axis=axis,
                start=ir.IntOrVid(literal=0),
                stop=ir.IntOrVid(literal=int(want)),
                step=1,
            )
        )
        slot = sliced
    return slot


@HANDLERS.register([aten.gather.default])
def gather(b: Emitter, node: Node) -> None:
    x, dim, index = node.args[:3]
    if arg(node, "sparse_grad"):
        raise Unsupported("sparse_grad")
    source = _fit(b, x, index, int(dim))
    b.emit(
        ir.TakeAlongAxisNode(x=source.tid, indices=b.tid(index), out=b.out(node).tid, axis=int(dim))
    )


@HANDLERS.register([aten.scatter_add.default])
def scatter_add(b: Emitter, node: Node) -> None:
    x, dim, index, src = node.args[:4]
    dtype = b.val(node).dtype
    _scatter(b, node, ir.ScatterAddNode, b.cast(_fit(b, src, index, None), dtype))


@HANDLERS.register([aten.scatter.src, aten.scatter.value])
def scatter(b: Emitter, node: Node) -> None:
    """torch.scatter without a reduction: a tensor of updates, or one value
    written at every index (DeepSeek-V3's router marks its chosen groups so)."""
    if arg(node, "reduce") is not None:
        raise Unsupported("scatter with a reduction")
    x, dim, index, src = node.args[:4]
    dtype = b.val(node).dtype
    if isinstance(src, Node) and isinstance(b.slot(src), TensorSlot):
        updates = b.cast(_fit(b, src, index, None), dtype)
    else:
        if isinstance(src, Node):
            raise Unsupported("scatter of a runtime scalar")
        indices = b.tensor_slot(index)
        updates = b.temp(dtype, indices.shape)  # the index's shape, dynamic sizes too
        b.emit(
            ir.FullLikeNode(x=indices.tid, out=updates.tid, value=float(src), dtype=ir_dtype(dtype))
        )
    _scatter(b, node, ir.ScatterNode, updates)


def _scatter(b: Emitter, node: Node, op, updates: TensorSlot) -> None:
    """`op` (ScatterAddNode, ScatterNode) of `updates`, shaped as the index, into
    node's x along its dim. PyTorch lets the index be smaller than x on every
    axis; MLX's scatter needs it to match x off `axis`. So scatter into the
    corner of x that the index covers, then write that corner back into x, one
    axis at a time."""
    x, dim, index = node.args[:3]
    dtype = b.val(node).dtype
    axis = int(dim) % max(b.val(x).dim(), 1)
    corners = [b.tensor_slot(x)]  # x, then x sliced on each axis where the index is shorter
    sliced_axes = []
    for a, (have, want) in enumerate(zip(b.val(x).shape, b.val(index).shape)):
        if a == axis or have == want:
            continue
        if isinstance(have, torch.SymInt) or isinstance(want, torch.SymInt):
            raise Unsupported("scatter with dynamic sizes that differ")
        outer = corners[-1]
        shape = list(outer.shape)
        shape[a] = want
        corner = b.temp(outer.dtype, tuple(shape))
        b.emit(
            ir.SliceNode(
                x=outer.tid,
                out=corner.tid,
                axis=a,
                start=ir.IntOrVid(literal=0),
                stop=ir.IntOrVid(literal=int(want)),
                step=1,
            )
        )
        corners.append(corner)
        sliced_axes.append(a)
    result = b.temp(dtype, corners[-1].shape) if sliced_axes else b.out(node)
    b.emit(
        op(x=corners[-1].tid, indices=b.tid(index), updates=updates.tid, out=result.tid, axis=axis)
    )
    for depth in range(len(sliced_axes) - 1, -1, -1):
        outer = corners[depth]
        merged = b.out(node) if depth == 0 else b.temp(dtype, outer.shape)
        b.emit(
            ir.SliceUpdateNode(
                target=outer.tid,
                update=result.tid,
                out=merged.tid,
                axis=sliced_axes[depth],
                start=ir.IntOrVid(literal=0),
            )
        )
        result = merged


@HANDLERS.register([aten.index_put.default, aten.index_copy.default])
def index_put(b: Emitter, node: Node) -> None:
    """x[:, ..., index] = values with one 1-D index tensor (index_copy is the
    same with the axis given): a scatter along that axis."""
    x = node.args[0]
    if "index_copy" in str(node.target):
        axis, index, values = int(node.args[1]), node.args[2], node.args[3]
    else:
        indices, values = node.args[1], node.args[2]
        accumulate = arg(node, "accumulate")
        if accumulate:
            raise Unsupported("index_put with accumulate=True")
        tensors = [i for i in indices if i is not None]
        if len(tensors) != 1 or any(
            i is not None for i in indices[indices.index(tensors[0]) + 1 :]
        ):
            raise Unsupported("index_put supports one index tensor, after full slices only")
        index = tensors[0]
        axis = list(indices).index(index)
    x_val, index_val = b.val(x), b.val(index)
    if index_val.dim() != 1 or index_val.dtype == torch.bool:
        raise Unsupported("index_put with a mask or a multi-dimensional index")
    axis %= x_val.dim()
    shape = list(x_val.shape)
    shape[axis] = index_val.shape[0]
    if any(isinstance(d, torch.SymInt) for d in shape):
        raise Unsupported("index_put on dynamic sizes")
    dtype = b.val(node).dtype
    update = b.operand(values, dtype)
    if tuple(update.shape) != tuple(shape):
        spread = b.temp(dtype, tuple(shape))
        b.emit(
            ir.BroadcastToNode(x=update.tid, out=spread.tid, shape=[b.int_or_vid(d) for d in shape])
        )
        update = spread
    positions = contiguous_positions(index)
    if positions is not None:
        # Rows written at consecutive positions (a KV cache): a slice update,
        # which MLX does in place when nothing else holds the target.
        b.emit(
            ir.SliceUpdateNode(
                target=b.tid(x),
                update=update.tid,
                out=b.out(node).tid,
                axis=axis,
                start=_start(b, positions.offset),
            )
        )
        return
    b.emit(
        ir.IndexPutNode(
            x=b.tid(x), indices=b.tid(index), values=update.tid, out=b.out(node).tid, axis=axis
        )
    )


def _start(b: Emitter, offset) -> ir.IntOrVid:
    """An int, a symbolic int, or the value of a one-element tensor."""
    if isinstance(offset, int) or isinstance(b.slot(offset), ValueSlot):
        return b.int_or_vid(offset)
    value = b.new_value()
    b.emit(ir.ItemNode(x=b.tid(offset), out=value.vid))
    return ir.IntOrVid(vid=value.vid)
