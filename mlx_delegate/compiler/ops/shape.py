"""Shape and layout ops: views, permutations, slicing, joining, padding."""

from __future__ import annotations

import operator
import sys

import torch
from torch.fx import Node

from ..builder import HandlerRegistry, Unsupported
from ..builder.emitter import Emitter
from ..builder.slots import SlotKind, ir_dtype
from ...formats.ir import schema as ir
from .common import arg, overload

HANDLERS = HandlerRegistry()

aten = torch.ops.aten
INT64_MAX = sys.maxsize


def _x(b: Emitter, node: Node):
    return b.tensor_slot(node.args[0])


def _shape_operand(b: Emitter, node: Node, sizes) -> list:
    """Target sizes as IntOrVid: literals, or value slots for symbolic sizes."""
    return [b.int_or_vid(s) for s in sizes]


@HANDLERS.register(
    [aten.view.default, aten.view_copy.default, aten.reshape.default, aten._unsafe_view.default]
)
def reshape(b: Emitter, node: Node) -> None:
    b.emit(
        ir.ReshapeNode(
            x=_x(b, node).tid, out=b.out(node).tid, shape=_shape_operand(b, node, node.args[1])
        )
    )


@HANDLERS.register([aten.permute.default, aten.permute_copy.default])
def permute(b: Emitter, node: Node) -> None:
    b.emit(
        ir.TransposeNode(
            x=_x(b, node).tid, out=b.out(node).tid, perm=[int(d) for d in node.args[1]]
        )
    )


@HANDLERS.register(
    [aten.transpose.int, aten.transpose_copy.int, aten.t.default, aten.t_copy.default]
)
def transpose(b: Emitter, node: Node) -> None:
    rank = b.val(node.args[0]).dim()
    perm = list(range(rank))
    if len(node.args) > 1:
        d0, d1 = (int(d) % rank for d in node.args[1:3])
        perm[d0], perm[d1] = perm[d1], perm[d0]
    else:
        perm.reverse()
    b.emit(ir.TransposeNode(x=_x(b, node).tid, out=b.out(node).tid, perm=perm))


@HANDLERS.register([aten.unsqueeze.default, aten.unsqueeze_copy.default])
def unsqueeze(b: Emitter, node: Node) -> None:
    axis = int(node.args[1]) % (b.val(node.args[0]).dim() + 1)
    b.emit(ir.ExpandDimsNode(x=_x(b, node).tid, out=b.out(node).tid, axes=[axis]))


@HANDLERS.register(
    [
        aten.squeeze.default,
        aten.squeeze.dim,
        aten.squeeze.dims,
        aten.squeeze_copy.default,
        aten.squeeze_copy.dim,
        aten.squeeze_copy.dims,
    ]
)
def squeeze(b: Emitter, node: Node) -> None:
    shape = b.val(node.args[0]).shape
    rank = len(shape)
    dims = arg(node, "dim")
    if dims is None:
        candidates = range(rank)
    else:
        candidates = [
            int(d) % max(rank, 1) for d in (dims if isinstance(dims, (list, tuple)) else [dims])
        ]
    # A dynamic size is never taken for 1: export specializes sizes of 1.
    axes = sorted(
        {d for d in candidates if rank and not isinstance(shape[d], torch.SymInt) and shape[d] == 1}
    )
    x, out = _x(b, node).tid, b.out(node).tid
    b.emit(ir.SqueezeNode(x=x, out=out, axes=axes) if axes else ir.CopyNode(x=x, out=out))


@HANDLERS.register([aten.expand.default, aten.expand_copy.default])
def expand(b: Emitter, node: Node) -> None:
    sizes = list(node.args[1])
    in_shape = b.val(node.args[0]).shape
    offset = len(sizes) - len(in_shape)
    resolved = []
    for i, size in enumerate(sizes):
        if not isinstance(size, Node) and int(size) == -1:
            size = in_shape[i - offset]
            if isinstance(size, torch.SymInt):
                size = _sym_size(b, node.args[0], i - offset)
        resolved.append(size)
    b.emit(
        ir.BroadcastToNode(
            x=_x(b, node).tid, out=b.out(node).tid, shape=_shape_operand(b, node, resolved)
        )
    )


def _sym_size(b: Emitter, tensor: Node, dim: int):
    """A value slot holding tensor.shape[dim]."""
    value = b.new_value()
    b.emit(ir.SymSizeNode(x=b.tid(tensor), dim=dim, out=value.vid))
    return value


@HANDLERS.register([aten.slice.Tensor, aten.slice_copy.Tensor])
def slice_(b: Emitter, node: Node) -> None:
    dim = int(arg(node, "dim", 0))
    start = arg(node, "start", None)
    end = arg(node, "end", None)
    step = int(arg(node, "step", 1))
    if step <= 0:
        raise Unsupported("slice step must be positive")
    b.emit(
        ir.SliceNode(
            x=_x(b, node).tid,
            out=b.out(node).tid,
            axis=dim,
            start=None if start is None else b.int_or_vid(start),
            stop=(
                None
                if end is None or (not isinstance(end, Node) and end >= INT64_MAX)
                else b.int_or_vid(end)
            ),
            step=step,
        )
    )


@HANDLERS.register([aten.select.int, aten.select_copy.int])
def select(b: Emitter, node: Node) -> None:
    b.emit(
        ir.SelectNode(
            x=_x(b, node).tid,
            out=b.out(node).tid,
            axis=int(node.args[1]),
            index=b.int_or_vid(node.args[2]),
        )
    )


def _joined(b: Emitter, node: Node):
    dtype = b.val(node).dtype
    return [b.operand(t, dtype).tid for t in node.args[0]], int(arg(node, "dim", 0))


@HANDLERS.register([aten.cat.default])
def cat(b: Emitter, node: Node) -> None:
    inputs, axis = _joined(b, node)
    b.emit(ir.ConcatenateNode(inputs=inputs, out=b.out(node).tid, axis=axis))


# Kept whole: ExecuTorch would otherwise decompose it into unsqueeze + cat.
@HANDLERS.register([aten.stack.default], keep_whole=True)
def stack(b: Emitter, node: Node) -> None:
    inputs, axis = _joined(b, node)
    b.emit(ir.StackNode(inputs=inputs, out=b.out(node).tid, axis=axis))


@HANDLERS.register(
    [
        aten.split.Tensor,
        aten.split_copy.Tensor,
        aten.split_with_sizes.default,
        aten.split_with_sizes_copy.default,
    ]
)
def split(b: Emitter, node: Node) -> None:
    pieces = b.val(node)
    dim = int(arg(node, "dim", 0))
    sizes = [p.shape[dim] for p in pieces]
    if any(isinstance(s, torch.SymInt) for s in sizes):
        raise Unsupported("split along a dynamic dimension")
    outs = [b.temp(p.dtype, tuple(p.shape)) for p in pieces]
    b.emit(
        ir.SplitNode(
            x=_x(b, node).tid, outs=[o.tid for o in outs], sizes=[int(s) for s in sizes], axis=dim
        )
    )
    b.bind(node, outs)


@HANDLERS.register([operator.getitem])
def getitem(b: Emitter, node: Node) -> None:
    slots = b.slot(node.args[0])
    if not isinstance(slots, list):
        raise Unsupported("getitem of a single value")
    b.bind(node, slots[int(node.args[1])])


@HANDLERS.register([aten.repeat.default])
def repeat(b: Emitter, node: Node) -> None:
    b.emit(ir.TileNode(x=_x(b, node).tid, out=b.out(node).tid, reps=[int(r) for r in node.args[1]]))


# Kept whole: ExecuTorch would otherwise decompose self_Tensor into
# repeat_interleave.Tensor, which is not core ATen (export then fails), and
# index_select; self_int into unsqueeze, expand and view.
@HANDLERS.register(
    [aten.repeat_interleave.self_Tensor, aten.repeat_interleave.self_int], keep_whole=True
)
def repeat_interleave(b: Emitter, node: Node) -> None:
    """x repeated by a constant tensor of counts, or by an integer: a take of
    indices computed at compile time. Counts known only at run time would make
    the indices, and the output's length, depend on the data."""
    x, repeats = node.args[:2]
    dim = arg(node, "dim")
    if overload(node) is aten.repeat_interleave.self_int:
        if not isinstance(repeats, int):
            raise Unsupported("repeat_interleave by a runtime integer")
        counts = repeats
    else:
        counts = _constant_source(b, repeats)
    if counts is None:
        raise Unsupported(
            "repeat_interleave by counts computed at run time " "(data-dependent length)"
        )
    length = b.val(node).shape[0 if dim is None else int(dim)]
    if isinstance(length, torch.SymInt):
        raise Unsupported(
            "repeat_interleave by a tensor without output_size: export leaves the "
            "length unbounded, which ExecuTorch cannot plan"
        )
    source = _x(b, node)
    if dim is None:  # the flattened x
        flat = b.temp(source.dtype, (b.val(x).numel(),))
        b.emit(ir.ReshapeNode(x=source.tid, out=flat.tid, shape=[ir.IntOrVid(literal=-1)]))
        source, axis = flat, 0
    else:
        axis = int(dim) % max(b.val(x).dim(), 1)

    def make():
        if isinstance(counts, int):
            size = int(b.val(x).shape[axis]) if dim is not None else b.val(x).numel()
            return torch.repeat_interleave(torch.arange(size), counts)
        values = b.constant(counts).reshape(-1)
        return torch.repeat_interleave(torch.arange(values.numel()), values)

    indices = b.computed_constant(make, torch.int64, (int(length),))
    b.emit(ir.TakeNode(x=source.tid, indices=indices.tid, out=b.out(node).tid, axis=axis))


def _constant_source(b: Emitter, node: Node):
    """The constant placeholder (a parameter, buffer or lifted tensor that is
    never written) that `node` is a copy of, if any."""
    copies = {
        "clone",
        "_clone_dim_order",
        "alias",
        "alias_copy",
        "detach",
        "detach_copy",
        "lift_fresh_copy",
    }
    while node.op == "call_function" and _packet_name(node) in copies:
        node = node.args[0]
    return node if node.op == "placeholder" and b.slot(node).kind == SlotKind.CONSTANT else None


def _packet_name(node: Node):
    return getattr(getattr(overload(node), "overloadpacket", None), "__name__", None)


@HANDLERS.register([aten.as_strided.default, aten.as_strided_copy.default])
def as_strided(b: Emitter, node: Node) -> None:
    """Elements of x's contiguous storage read through `stride` from `storage_offset`
    (ExecuTorch tensors are contiguous, so storage is x in row-major order). Decomposed
    pooling writes it as a mere re-striding of size-1 axes: then it is a reshape; any
    other layout (overlapping windows, an offset) is a take of indices computed at
    compile time."""
    x = node.args[0]
    size, stride = list(node.args[1]), list(node.args[2])
    offset = arg(node, "storage_offset") or 0
    numel = b.val(x).numel()
    if any(isinstance(v, (Node, torch.SymInt)) for v in [*size, *stride, offset, numel]):
        raise Unsupported("as_strided with sizes known only at run time")
    indices = torch.full(size, int(offset), dtype=torch.int64)
    for axis, (length, step) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[axis] = length
        indices = indices + (torch.arange(length) * step).reshape(shape)
    if indices.numel() and not 0 <= int(indices.min()) <= int(indices.max()) < numel:
        raise Unsupported("as_strided reads outside its input")
    flat = b.temp(b.val(x).dtype, (numel,))
    b.emit(ir.ReshapeNode(x=_x(b, node).tid, out=flat.tid, shape=[ir.IntOrVid(literal=-1)]))
    if torch.equal(indices.reshape(-1), torch.arange(indices.numel())):
        b.emit(
            ir.ReshapeNode(
                x=flat.tid, out=b.out(node).tid, shape=[ir.IntOrVid(literal=int(v)) for v in size]
            )
        )
        return
    table = b.computed_constant(lambda: indices, torch.int64, tuple(size))
    b.emit(ir.TakeNode(x=flat.tid, indices=table.tid, out=b.out(node).tid, axis=0))


@HANDLERS.register([aten.flip.default])
def flip(b: Emitter, node: Node) -> None:
    b.emit(ir.FlipNode(x=_x(b, node).tid, out=b.out(node).tid, axes=[int(d) for d in node.args[1]]))


# Kept whole: ExecuTorch would otherwise decompose it into arange, fmod and
# index_select.
@HANDLERS.register([aten.roll.default], keep_whole=True)
def roll(b: Emitter, node: Node) -> None:
    shifts, dims = arg(node, "shifts"), arg(node, "dims", [])
    shifts = list(shifts) if isinstance(shifts, (list, tuple)) else [shifts]
    dims = list(dims) if isinstance(dims, (list, tuple)) else [dims]
    if any(isinstance(v, (Node, torch.SymInt)) for v in shifts):
        raise Unsupported("roll by a runtime shift")
    b.emit(
        ir.RollNode(
            x=_x(b, node).tid,
            out=b.out(node).tid,
            shifts=[int(v) for v in shifts],
            axes=[int(d) for d in dims],
        )
    )


@HANDLERS.register([aten.slice_scatter.default])
def slice_scatter(b: Emitter, node: Node) -> None:
    """x with src written over x[start:end] along `dim` (src's length is the
    slice's); steps other than 1 are not supported."""
    x, src = node.args[:2]
    shape = b.val(x).shape
    axis = int(arg(node, "dim", 0)) % max(len(shape), 1)
    start = arg(node, "start", None)
    if int(arg(node, "step", 1)) != 1:
        raise Unsupported("slice_scatter with a step other than 1")
    if start is None:
        start = 0
    elif not isinstance(start, Node) and start < 0:
        if isinstance(shape[axis], torch.SymInt):
            raise Unsupported("slice_scatter from a negative start on a dynamic axis")
        start = max(int(start) + int(shape[axis]), 0)
    dtype = b.val(node).dtype
    b.emit(
        ir.SliceUpdateNode(
            target=b.operand(x, dtype).tid,
            update=b.operand(src, dtype).tid,
            out=b.out(node).tid,
            axis=axis,
            start=b.int_or_vid(start),
        )
    )


@HANDLERS.register([aten.constant_pad_nd.default])
def constant_pad(b: Emitter, node: Node) -> None:
    torch_pad = [int(p) for p in node.args[1]]
    value = float(arg(node, "value", 0.0))
    shape = b.val(node.args[0]).shape
    rank = len(shape)
    pairs = [(0, 0)] * rank
    # PyTorch lists (low, high) pairs from the last axis backwards.
    for i in range(len(torch_pad) // 2):
        pairs[rank - 1 - i] = (torch_pad[2 * i], torch_pad[2 * i + 1])
    x = _crop(b, _x(b, node), shape, pairs)
    grow = [max(p, 0) for pair in pairs for p in pair]
    b.emit(ir.PadNode(x=x.tid, out=b.out(node).tid, pad=grow, value=value))


def _crop(b: Emitter, x, shape, pairs):
    """Negative padding removes elements: slice those axes before padding."""
    for axis, (low, high) in enumerate(pairs):
        if low >= 0 and high >= 0:
            continue
        if isinstance(shape[axis], torch.SymInt) and high < 0:
            raise Unsupported("negative padding at the end of a dynamic axis")
        start, stop = max(-low, 0), (int(shape[axis]) + high if high < 0 else None)
        cropped_shape = list(x.shape)
        if not isinstance(shape[axis], torch.SymInt):
            cropped_shape[axis] = (stop if stop is not None else int(shape[axis])) - start
        cropped = b.temp(x.dtype, tuple(cropped_shape))
        b.emit(
            ir.SliceNode(
                x=x.tid,
                out=cropped.tid,
                axis=axis,
                start=ir.IntOrVid(literal=start),
                stop=None if stop is None else ir.IntOrVid(literal=stop),
                step=1,
            )
        )
        x = cropped
    return x


# Kept whole: ExecuTorch would otherwise decompose them into arange/compare/where.
@HANDLERS.register([aten.tril.default, aten.triu.default], keep_whole=True)
def triangle(b: Emitter, node: Node) -> None:
    kind = ir.TrilNode if overload(node).overloadpacket.__name__ == "tril" else ir.TriuNode
    b.emit(kind(x=_x(b, node).tid, out=b.out(node).tid, k=int(arg(node, "diagonal", 0))))


def _clone_dim_order():
    """ExecuTorch's edge dialect replaces clone with this dim-order aware clone."""
    import executorch.exir.dialects._ops  # noqa: F401  (registers the dim_order_ops namespace)

    return torch.ops.dim_order_ops._clone_dim_order.default


@HANDLERS.register(
    [
        aten.clone.default,
        aten.alias.default,
        aten.alias_copy.default,
        aten.detach.default,
        aten.detach_copy.default,
        aten.contiguous.default,
        _clone_dim_order(),
    ]
)
def clone(b: Emitter, node: Node) -> None:
    dim_order = arg(node, "dim_order")
    if dim_order and list(dim_order) != list(range(len(dim_order))):
        raise Unsupported(f"non-contiguous dim order {list(dim_order)}")
    b.emit(ir.CopyNode(x=_x(b, node).tid, out=b.out(node).tid))


@HANDLERS.register([aten.copy.default])
def copy(b: Emitter, node: Node) -> None:
    """copy(self, src) (functionalized `self.copy_(src)`, e.g. a slice
    assignment): src in self's dtype, broadcast to self's shape."""
    src = b.operand(node.args[1], b.val(node).dtype)
    shape = b.val(node).shape
    if tuple(src.shape) == tuple(shape):
        b.emit(ir.CopyNode(x=src.tid, out=b.out(node).tid))
        return
    sizes = [
        _sym_size(b, node.args[0], i) if isinstance(d, torch.SymInt) else d
        for i, d in enumerate(shape)
    ]
    b.emit(ir.BroadcastToNode(x=src.tid, out=b.out(node).tid, shape=_shape_operand(b, node, sizes)))


def _dim_order_copy():
    """ExecuTorch's edge dialect replaces _to_copy with this dim-order aware copy."""
    import executorch.exir.dialects._ops  # noqa: F401  (registers the dim_order_ops namespace)

    return torch.ops.dim_order_ops._to_dim_order_copy.default


@HANDLERS.register([aten._to_copy.default, aten.to.dtype, aten.type_as.default, _dim_order_copy()])
def to_copy(b: Emitter, node: Node) -> None:
    dim_order = arg(node, "dim_order")
    if dim_order and list(dim_order) != list(range(len(dim_order))):
        raise Unsupported(f"non-contiguous dim order {list(dim_order)}")
    dtype = ir_dtype(b.val(node).dtype)
    b.emit(ir.AsTypeNode(x=_x(b, node).tid, out=b.out(node).tid, dtype=dtype))
