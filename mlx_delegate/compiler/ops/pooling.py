"""Pooling, adaptive pooling and upsampling over the trailing (spatial) axes of
PyTorch's (N, C, *spatial) or (C, *spatial) layout.

Pixel shuffle and unshuffle need no handler: ExecuTorch decomposes them into
view, permute and clone, which are lowered as they are."""

from __future__ import annotations

import operator

import torch
from torch.fx import Node

from ..builder import HandlerRegistry, Unsupported
from ..builder.emitter import Emitter
from ...formats.ir import schema as ir
from ..passes import (
    adaptive_max_pool as _defines_the_op,
)  # noqa: F401  (mlx_delegate::adaptive_max_pool)
from .common import arg, overload

HANDLERS = HandlerRegistry()

aten = torch.ops.aten


def _per_axis(value, nd: int, default: list[int]) -> list[int]:
    """A pooling argument (an int, or a list of 1 or nd ints) with one entry per
    pooled axis; an empty list or None is `default` (a stride is the kernel)."""
    if value is None or (isinstance(value, (list, tuple)) and not value):
        return list(default)
    values = [int(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
    return values * nd if len(values) == 1 else values


def _require_float(b: Emitter, x: Node, what: str) -> None:
    dtype = b.val(x).dtype
    if not dtype.is_floating_point:
        raise Unsupported(f"{dtype} {what} (MLX computes it in floating point only)")


def _static_sizes(b: Emitter, x: Node, nd: int) -> list[int]:
    sizes = b.val(x).shape[-nd:]
    if any(isinstance(s, torch.SymInt) for s in sizes):
        raise Unsupported("dynamic spatial sizes")
    return [int(s) for s in sizes]


def _used_outputs(node: Node) -> set[int]:
    return {u.args[1] for u in node.users if u.target is operator.getitem}


# ---- max and average pooling ------------------------------------------------------


def pool_output_length(
    length: int, kernel: int, stride: int, padding: int, dilation: int, ceil_mode: bool
) -> int:
    """The number of windows along one pooled axis: PyTorch's rule (ATen's
    pooling_output_shape), which exec_pool (runtime_cpp/src/ops/pooling.cpp)
    applies at run time. Floor division, so a kernel longer than the padded
    input leaves no window unless ceil mode rounds one up; in ceil mode the
    last window must start inside the input or its left padding. Below 1:
    nothing to pool, which exec_pool refuses."""
    if min(kernel, stride, dilation) < 1:
        return 0
    span = length + 2 * padding - dilation * (kernel - 1) - 1
    out = (span + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= length + padding:
        out -= 1
    return out


def _check_window_counts(
    in_shape, out_shape, kernel, stride, padding, ceil_mode, dilation=None
) -> None:
    """Lowers only what exec_pool runs into the exported shape: on every pooled
    axis of static length, the window count by the runtime's rule must be at
    least 1 and equal PyTorch's. A dynamic axis is counted at run time by the
    same rule."""
    nd = len(kernel)
    dilation = dilation or [1] * nd
    for a, (length, want) in enumerate(zip(in_shape[-nd:], out_shape[-nd:])):
        if isinstance(length, torch.SymInt) or isinstance(want, torch.SymInt):
            continue
        got = pool_output_length(
            int(length), kernel[a], stride[a], padding[a], dilation[a], ceil_mode
        )
        if got < 1 or got != int(want):
            raise Unsupported(
                f"pooled axis {a}: {got} windows by the runtime's rule, PyTorch has {want}"
            )


MAX_POOL = {aten.max_pool2d_with_indices.default: 2, aten.max_pool3d_with_indices.default: 3}
# Kept whole: ExecuTorch would otherwise decompose them into max_pool2d_with_indices
# over an unsqueezed axis. max_pool1d has one output, the values.
MAX_POOL_1D = {aten.max_pool1d_with_indices.default: 1, aten.max_pool1d.default: 1}


@HANDLERS.register(list(MAX_POOL))
@HANDLERS.register(list(MAX_POOL_1D), keep_whole=True)
def max_pool(b: Emitter, node: Node) -> None:
    """One PoolNode; its indices output only when the graph reads them (max_poolNd
    without indices become these ops too)."""
    nd = {**MAX_POOL, **MAX_POOL_1D}[overload(node)]
    x = node.args[0]
    _require_float(b, x, "max pooling")
    kernel = _per_axis(node.args[1], nd, [])
    single = overload(node) is aten.max_pool1d.default
    values, indices = (b.val(node), None) if single else b.val(node)
    window = dict(
        kernel=kernel,
        stride=_per_axis(arg(node, "stride"), nd, kernel),
        padding=_per_axis(arg(node, "padding"), nd, [0] * nd),
        dilation=_per_axis(arg(node, "dilation"), nd, [1] * nd),
        ceil_mode=bool(arg(node, "ceil_mode", False)),
    )
    _check_window_counts(b.val(x).shape, values.shape, **window)
    out = b.out(node) if single else b.temp(values.dtype, tuple(values.shape))
    index = None
    if not single and 1 in _used_outputs(node):
        index = b.temp(torch.int64, tuple(indices.shape))
    b.emit(
        ir.PoolNode(
            x=b.tid(x),
            out=out.tid,
            indices_out=index and index.tid,
            kind=ir.PoolKind.Max,
            **window,
        )
    )
    if not single:
        b.bind(node, [out, index])


AVG_POOL = {aten.avg_pool2d.default: 2, aten.avg_pool3d.default: 3}
# Kept whole: ExecuTorch would otherwise decompose it into avg_pool2d over an
# unsqueezed axis.
AVG_POOL_1D = {aten.avg_pool1d.default: 1}


@HANDLERS.register(list(AVG_POOL))
@HANDLERS.register(list(AVG_POOL_1D), keep_whole=True)
def avg_pool(b: Emitter, node: Node) -> None:
    nd = {**AVG_POOL, **AVG_POOL_1D}[overload(node)]
    x = node.args[0]
    _require_float(b, x, "average pooling")
    kernel = _per_axis(node.args[1], nd, [])
    divisor = arg(node, "divisor_override")
    window = dict(
        kernel=kernel,
        stride=_per_axis(arg(node, "stride"), nd, kernel),
        padding=_per_axis(arg(node, "padding"), nd, [0] * nd),
        ceil_mode=bool(arg(node, "ceil_mode", False)),
    )
    _check_window_counts(b.val(x).shape, b.val(node).shape, **window)
    b.emit(
        ir.PoolNode(
            x=b.tid(x),
            out=b.out(node).tid,
            kind=ir.PoolKind.Avg,
            count_include_pad=bool(arg(node, "count_include_pad", True)),
            divisor_override=0 if divisor is None else int(divisor),
            **window,
        )
    )


# ---- adaptive pooling ---------------------------------------------------------------

ADAPTIVE_AVG = {aten._adaptive_avg_pool2d.default: 2, aten._adaptive_avg_pool3d.default: 3}


def adaptive_windows(size: int, out: int) -> list[tuple[int, int]]:
    """PyTorch's adaptive pooling windows [start, end) of an axis of `size` pooled to `out`."""
    return [((o * size) // out, -(-(o + 1) * size // out)) for o in range(out)]


@HANDLERS.register(list(ADAPTIVE_AVG))
def adaptive_avg_pool(b: Emitter, node: Node) -> None:
    """Output sizes that divide the input: one average PoolNode. Otherwise the
    windows overlap or differ in size, and the mean is separable per axis: each
    axis is multiplied by a constant (out, in) averaging matrix."""
    nd = ADAPTIVE_AVG[overload(node)]
    x = node.args[0]
    _require_float(b, x, "adaptive average pooling")
    sizes = _static_sizes(b, x, nd)
    outs = [int(o) for o in node.args[1]]
    if all(s % o == 0 for s, o in zip(sizes, outs)):
        kernel = [s // o for s, o in zip(sizes, outs)]
        b.emit(
            ir.PoolNode(
                x=b.tid(x), out=b.out(node).tid, kind=ir.PoolKind.Avg, kernel=kernel, stride=kernel
            )
        )
        return
    y = b.tensor_slot(x)
    axes = [(a, s, o) for a, (s, o) in enumerate(zip(sizes, outs)) if s != o]
    for i, (a, size, out) in enumerate(axes):
        final = b.out(node) if i == len(axes) - 1 else None
        y = _average_axis(b, y, nd - a, size, out, final)


def _average_axis(b: Emitter, y, from_end: int, size: int, out: int, final):
    """y with its axis `-from_end` (of `size`) averaged into `out` adaptive windows."""

    def matrix():
        m = torch.zeros(out, size, dtype=torch.float64)
        for o, (start, end) in enumerate(adaptive_windows(size, out)):
            m[o, start:end] = 1.0 / (end - start)
        return m.to(y.dtype) if from_end != 1 else m.t().contiguous().to(y.dtype)

    shape = list(y.shape)
    rank = len(shape)
    m = b.computed_constant(matrix, y.dtype, (out, size) if from_end != 1 else (size, out))
    if from_end == 1:  # (..., size) @ (size, out)
        shape[-1] = out
        result = final if final is not None else b.temp(y.dtype, tuple(shape))
        b.emit(ir.MatmulNode(a=y.tid, b=m.tid, out=result.tid))
        return result
    # Bring the axis to -2, then (out, size) @ (..., size, W); swap back.
    perm = list(range(rank))
    perm[-from_end], perm[-2] = perm[-2], perm[-from_end]
    if from_end != 2:
        y = _transpose(b, y, perm)
    moved = [y.shape[p] for p in range(rank)]
    moved[-2] = out
    product = b.temp(y.dtype, tuple(moved)) if from_end != 2 or final is None else final
    b.emit(ir.MatmulNode(a=m.tid, b=y.tid, out=product.tid))
    return product if from_end == 2 else _transpose(b, product, perm, final)


def _transpose(b: Emitter, y, perm: list[int], out=None):
    out = out if out is not None else b.temp(y.dtype, tuple(y.shape[p] for p in perm))
    b.emit(ir.TransposeNode(x=y.tid, out=out.tid, perm=perm))
    return out


@HANDLERS.register([torch.ops.mlx_delegate.adaptive_max_pool.default])
def adaptive_max_pool(b: Emitter, node: Node) -> None:
    """Adaptive max pooling whose windows overlap or differ in size (divisible
    sizes became max_pool*_with_indices before decomposition). Each pooled axis
    is gathered (Take) into out * K positions, K its longest window, a shorter
    window repeating its last element; the values are the max over the K
    positions of every window, the indices map the argmax through a constant
    table to flat indices into the input plane."""
    x, outs = node.args[0], [int(o) for o in node.args[1]]
    nd = len(outs)
    _require_float(b, x, "adaptive max pooling")
    sizes = _static_sizes(b, x, nd)
    windows = [adaptive_windows(s, o) for s, o in zip(sizes, outs)]
    kernels = [max(end - start for start, end in w) for w in windows]
    positions = [
        [min(start + k, end - 1) for start, end in w for k in range(kernel)]
        for w, kernel in zip(windows, kernels)
    ]
    y = b.tensor_slot(x)
    lead = list(y.shape[: len(y.shape) - nd])
    for a, index in enumerate(positions):
        shape = list(y.shape)
        shape[len(lead) + a] = len(index)
        y = _take(b, y, _int_constant(b, index, torch.int32), len(lead) + a, shape)
    # (*lead, o0 * K0, o1 * K1, ..) -> (*lead, o0, K0, o1, K1, ..) -> (*lead, o0, o1, .., K0 * K1 * ..)
    paired = [d for o, k in zip(outs, kernels) for d in (o, k)]
    y = _reshape(b, y, lead + paired)
    window = 1
    for k in kernels:
        window *= k
    perm = (
        list(range(len(lead)))
        + [len(lead) + 2 * a for a in range(nd)]
        + [len(lead) + 2 * a + 1 for a in range(nd)]
    )
    y = _reshape(b, _transpose(b, y, perm), lead + outs + [window])
    values, indices = b.val(node)
    out = b.temp(values.dtype, tuple(values.shape))
    b.emit(ir.MaxNode(x=y.tid, out=out.tid, axes=[-1], keepdims=False))
    index = None
    if 1 in _used_outputs(node):
        index = _input_plane_index(b, y, positions, sizes, outs, window, tuple(indices.shape))
    b.bind(node, [out, index])


def _input_plane_index(b: Emitter, windows, positions, sizes, outs, window, shape):
    """Flat input-plane index of each window's (first) maximum: table[o * window + k]."""

    def table():
        coords = torch.zeros((), dtype=torch.int64)
        stride = 1
        for a in reversed(range(len(sizes))):
            axis = torch.tensor(positions[a]).reshape(outs[a], -1)  # (o, K) input coordinates
            view = [1] * (2 * len(sizes))
            view[a], view[len(sizes) + a] = outs[a], axis.shape[1]
            coords = coords + axis.reshape(view) * stride
            stride *= sizes[a]
        return coords.reshape(-1)

    count = 1
    for o in outs:
        count *= o
    argmax = b.temp(torch.int64, shape)
    b.emit(ir.ArgMaxNode(x=windows.tid, out=argmax.tid, axis=-1, keepdims=False))
    first = _int_constant(b, [o * window for o in range(count)], torch.int64, tuple(outs))
    flat = b.temp(torch.int64, shape)
    b.emit(ir.AddNode(a=argmax.tid, b=first.tid, out=flat.tid))
    lookup = b.computed_constant(table, torch.int64, (count * window,))
    return _take(b, lookup, flat, 0, shape)


def _int_constant(b: Emitter, values: list[int], dtype: torch.dtype, shape=None):
    shape = (len(values),) if shape is None else shape
    return b.computed_constant(
        lambda: torch.tensor(values, dtype=dtype).reshape(shape), dtype, shape
    )


def _take(b: Emitter, x, indices, axis: int, shape):
    out = b.temp(x.dtype, tuple(shape))
    b.emit(ir.TakeNode(x=x.tid, indices=indices.tid, out=out.tid, axis=axis))
    return out


def _reshape(b: Emitter, y, shape: list):
    """y reshaped to `shape`, whose one dynamic size (a batch) is given as -1."""
    if sum(isinstance(d, torch.SymInt) for d in shape) > 1:
        raise Unsupported("more than one dynamic leading axis")
    dims = [ir.IntOrVid(literal=-1 if isinstance(d, torch.SymInt) else int(d)) for d in shape]
    out = b.temp(y.dtype, tuple(shape))
    b.emit(ir.ReshapeNode(x=y.tid, out=out.tid, shape=dims))
    return out


# ---- upsampling ---------------------------------------------------------------------

Nearest, Linear = ir.UpsampleMode.Nearest, ir.UpsampleMode.Linear
# op -> (mode, number of resized axes)
UPSAMPLE = {
    aten.upsample_nearest1d.vec: (Nearest, 1),
    aten.upsample_nearest2d.vec: (Nearest, 2),
    aten.upsample_nearest3d.vec: (Nearest, 3),
    aten.upsample_linear1d.vec: (Linear, 1),
    aten.upsample_bilinear2d.vec: (Linear, 2),
    aten.upsample_trilinear3d.vec: (Linear, 3),
    aten.upsample_nearest2d.default: (Nearest, 2),  # an output size and optional scales
}
# Core ATen ops reach the partitioner as they are; the others are kept whole
# (ExecuTorch would decompose them into index arithmetic and gathers).
CORE_UPSAMPLE = [aten.upsample_nearest2d.vec, aten.upsample_bilinear2d.vec]


@HANDLERS.register(CORE_UPSAMPLE)
@HANDLERS.register([op for op in UPSAMPLE if op not in CORE_UPSAMPLE], keep_whole=True)
def upsample(b: Emitter, node: Node) -> None:
    """F.interpolate's nearest and (bi/tri)linear modes, with a size or scale factors."""
    mode, nd = UPSAMPLE[overload(node)]
    x = node.args[0]
    linear = mode == Linear
    if linear:
        _require_float(b, x, "linear interpolation")
    elif b.val(x).dtype == torch.bool:
        raise Unsupported("nearest interpolation of bool")
    scale_factors = arg(node, "scale_factors")
    if overload(node) is aten.upsample_nearest2d.default:
        scale_factors = [arg(node, "scales_h"), arg(node, "scales_w")]
        scale_factors = None if scale_factors == [None, None] else scale_factors
    if scale_factors is not None and any(
        s is not None and not isinstance(s, (int, float)) for s in scale_factors
    ):
        raise Unsupported("runtime scale factors")
    out_size = b.val(node).shape[-nd:]
    if any(isinstance(s, torch.SymInt) for s in out_size):
        raise Unsupported("dynamic output sizes")
    b.emit(
        ir.UpsampleNode(
            x=b.tid(x),
            out=b.out(node).tid,
            mode=mode,
            align_corners=bool(arg(node, "align_corners", False)) if linear else False,
            out_size=[int(s) for s in out_size],
            # A scale not given (0.0) is in / out.
            scales=(
                [0.0 if not s else 1.0 / float(s) for s in scale_factors] if scale_factors else None
            ),
        )
    )
