"""Matrix products, normalization, convolution, attention, embedding."""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Any, Optional

import torch
from torch.fx import Node

from ..builder import HandlerRegistry, Unsupported
from ..builder.emitter import Emitter
from ..builder.slots import SlotKind, ir_dtype
from ..builder.registry import target_key
from ...formats.ir import schema as ir
from .common import (
    CASTS,
    arg,
    calls,
    contiguous_positions,
    overload,
    repeated_along_new_axis,
    same_size,
)

HANDLERS = HandlerRegistry()

aten = torch.ops.aten


def _float_operands(b: Emitter, node: Node, *args):
    dtype = b.val(node).dtype
    return [None if a is None else b.operand(a, dtype) for a in args]


def _require_float(b: Emitter, node: Node) -> None:
    """MLX's matmul and conv kernels take floats only."""
    if not b.val(node).dtype.is_floating_point:
        raise Unsupported(f"{b.val(node).dtype} inputs (MLX computes this in floating point only)")


@HANDLERS.register([aten.linear.default], keep_whole=True)
def linear(b: Emitter, node: Node) -> None:
    _require_float(b, node)
    x, weight, bias = _float_operands(b, node, node.args[0], node.args[1], arg(node, "bias"))
    b.emit(
        ir.LinearNode(
            x=x.tid, weight=weight.tid, out=b.out(node).tid, bias=None if bias is None else bias.tid
        )
    )


@HANDLERS.register([aten.addmm.default])
def addmm(b: Emitter, node: Node) -> None:
    _require_float(b, node)
    bias, mat1, mat2 = _float_operands(b, node, *node.args[:3])
    b.emit(
        ir.AddmmNode(
            bias=bias.tid,
            mat1=mat1.tid,
            mat2=mat2.tid,
            out=b.out(node).tid,
            alpha=float(arg(node, "alpha")),
            beta=float(arg(node, "beta")),
        )
    )


@HANDLERS.register([aten.mm.default, aten.bmm.default, aten.matmul.default], keep_whole=True)
def matmul(b: Emitter, node: Node) -> None:
    lhs, rhs = _float_operands(b, node, node.args[0], node.args[1])
    if b.val(node).dtype.is_floating_point:
        b.emit(ir.MatmulNode(a=lhs.tid, b=rhs.tid, out=b.out(node).tid))
    else:
        _integer_matmul(b, node, lhs, rhs)


def _integer_matmul(b: Emitter, node: Node, lhs, rhs) -> None:
    """MLX's matmul takes floats only, and float32 is inexact past 2**24; so
    integer products are sum(a[..., :, :, None] * b[..., None, :, :], -2),
    exact and wrapping on overflow as PyTorch's are."""
    if len(lhs.shape) < 2 or len(rhs.shape) < 2:
        raise Unsupported("integer matmul with a vector operand")
    dtype = b.val(node).dtype
    a3 = b.temp(dtype, (*lhs.shape, 1))
    b.emit(ir.ExpandDimsNode(x=lhs.tid, out=a3.tid, axes=[-1]))
    b3 = b.temp(dtype, (*rhs.shape[:-2], 1, *rhs.shape[-2:]))
    b.emit(ir.ExpandDimsNode(x=rhs.tid, out=b3.tid, axes=[-3]))
    out_shape = tuple(b.val(node).shape)
    products = b.temp(dtype, (*out_shape[:-1], lhs.shape[-1], out_shape[-1]))  # (..., M, K, N)
    b.emit(ir.MultiplyNode(a=a3.tid, b=b3.tid, out=products.tid))
    b.emit(ir.SumNode(x=products.tid, out=b.out(node).tid, axes=[-2], keepdims=False))


@HANDLERS.register([aten.layer_norm.default], keep_whole=True)
def layer_norm(b: Emitter, node: Node) -> None:
    normalized_shape = node.args[1]
    weight, bias = arg(node, "weight"), arg(node, "bias")
    eps = float(arg(node, "eps", 1e-5))
    x, w, bb = _float_operands(b, node, node.args[0], weight, bias)
    b.emit(
        ir.LayerNormNode(
            x=x.tid,
            out=b.out(node).tid,
            weight=w and w.tid,
            bias=bb and bb.tid,
            eps=eps,
            num_axes=len(normalized_shape),
        )
    )


@HANDLERS.register([aten.native_layer_norm.default])
def native_layer_norm(b: Emitter, node: Node) -> None:
    x_node, normalized_shape, weight, bias, eps = node.args[:5]
    out_val, mean_val, rstd_val = b.val(node)
    x, w, bb = (None if a is None else b.operand(a, out_val.dtype) for a in (x_node, weight, bias))
    outs = [b.temp(v.dtype, tuple(v.shape)) for v in (out_val, mean_val, rstd_val)]
    b.emit(
        ir.LayerNormNode(
            x=x.tid,
            out=outs[0].tid,
            weight=w and w.tid,
            bias=bb and bb.tid,
            eps=float(eps),
            num_axes=len(normalized_shape),
            mean_out=outs[1].tid,
            rstd_out=outs[2].tid,
        )
    )
    b.bind(node, outs)


@HANDLERS.register([aten.rms_norm.default], keep_whole=True)
def rms_norm(b: Emitter, node: Node) -> None:
    normalized_shape = node.args[1]
    if len(normalized_shape) != 1:
        raise Unsupported("rms_norm over more than the last axis")
    weight = arg(node, "weight")
    eps = arg(node, "eps")
    dtype = b.val(node).dtype
    if eps is None:
        eps = torch.finfo(dtype).eps
    x, w = _float_operands(b, node, node.args[0], weight)
    b.emit(ir.RmsNormNode(x=x.tid, out=b.out(node).tid, weight=w and w.tid, eps=float(eps)))


@HANDLERS.register([aten.embedding.default])
def embedding(b: Emitter, node: Node) -> None:
    weight, indices = b.tensor_slot(node.args[0]), b.tensor_slot(node.args[1])
    b.emit(ir.TakeNode(x=weight.tid, indices=indices.tid, out=b.out(node).tid, axis=0))


@dataclass(frozen=True)
class ConvArgs:
    """A convolution's arguments, whichever op spelled it (convNd, conv_transposeNd
    or convolution)."""

    x: Node
    weight: Node
    bias: Optional[Node]
    stride: Any
    padding: Any
    dilation: Any
    groups: int
    transposed: bool = False
    output_padding: Any = 0


def conv_args(node: Node) -> ConvArgs:
    if target_key(node.target) == "aten::convolution":
        x, weight, bias, stride, padding, dilation, transposed, output_padding, groups = node.args[
            :9
        ]
        return ConvArgs(
            x,
            weight,
            bias,
            stride,
            padding,
            dilation,
            int(groups),
            bool(transposed),
            output_padding,
        )
    transposed = overload(node) in CONV_TRANSPOSE
    return ConvArgs(
        node.args[0],
        node.args[1],
        arg(node, "bias"),
        arg(node, "stride", 1),
        arg(node, "padding", 0),
        arg(node, "dilation", 1),
        int(arg(node, "groups", 1)),
        transposed,
        arg(node, "output_padding", 0) if transposed else 0,
    )


# Kept whole: ExecuTorch would otherwise decompose them into aten.convolution,
# which the handler below lowers the same way.
CONV_TRANSPOSE = [
    aten.conv_transpose1d.default,
    aten.conv_transpose2d.input,
    aten.conv_transpose3d.input,
]


@HANDLERS.register(
    [aten.conv1d.default, aten.conv2d.default, aten.conv3d.default, *CONV_TRANSPOSE],
    keep_whole=True,
)
def conv(b: Emitter, node: Node) -> None:
    emit_conv(b, node, conv_args(node))


@HANDLERS.register([aten.convolution.default])
def convolution(b: Emitter, node: Node) -> None:
    emit_conv(b, node, conv_args(node))


def emit_conv(b: Emitter, node: Node, c: ConvArgs, weight=None, bias=None) -> None:
    """A ConvNode for `c`, writing `node`'s output; `weight` and `bias` replace
    c's own (slots of constants computed at compile time, e.g. a folded batch norm)."""
    _require_float(b, node)
    spatial = b.val(c.weight).dim() - 2
    if spatial not in (1, 2, 3):
        raise Unsupported(f"{spatial}-d convolution")
    if b.val(c.x).dim() != spatial + 2:
        raise Unsupported("unbatched convolution input")
    if isinstance(c.padding, str):
        raise Unsupported(f"padding='{c.padding}'")
    per_axis = lambda v: [
        int(i) for i in (v if isinstance(v, (list, tuple)) else [v] * spatial)
    ]  # noqa: E731
    x, w, bb = _float_operands(
        b, node, c.x, c.weight if weight is None else None, c.bias if bias is None else None
    )
    w = w if weight is None else weight
    bb = bb if bias is None else bias
    b.emit(
        ir.ConvNode(
            x=x.tid,
            weight=w.tid,
            out=b.out(node).tid,
            bias=bb and bb.tid,
            stride=per_axis(c.stride),
            padding=per_axis(c.padding),
            dilation=per_axis(c.dilation),
            groups=c.groups,
            transposed=c.transposed,
            output_padding=per_axis(c.output_padding) if c.transposed else None,
        )
    )


# ---- normalization over batch statistics and groups ----------------------------


def _channel_shape(b: Emitter, x: Node) -> tuple:
    """(C, 1, ..., 1): a per-channel vector shaped to broadcast over (N, C, *spatial)."""
    shape = b.val(x).shape
    return (int(shape[1]),) + (1,) * (len(shape) - 2)


def _per_channel(b: Emitter, slot, shape: tuple, dtype: torch.dtype):
    """A (C,) slot cast to `dtype` and reshaped to `shape`."""
    slot = b.cast(slot, dtype)
    if tuple(slot.shape) == shape:
        return slot
    out = b.temp(dtype, shape)
    b.emit(ir.ReshapeNode(x=slot.tid, out=out.tid, shape=[ir.IntOrVid(literal=d) for d in shape]))
    return out


def _binary(b: Emitter, kind, lhs, rhs):
    """kind(lhs, rhs) into a new temp of their broadcast shape."""
    rank = max(len(lhs.shape), len(rhs.shape))
    pad = lambda s: (1,) * (rank - len(s)) + tuple(s)  # noqa: E731
    shape = tuple(
        r if isinstance(l, int) and l == 1 else l for l, r in zip(pad(lhs.shape), pad(rhs.shape))
    )
    out = b.temp(lhs.dtype, shape)
    b.emit(kind(a=lhs.tid, b=rhs.tid, out=out.tid))
    return out


def _is_constant(b: Emitter, node: Optional[Node]) -> bool:
    """None, or a constant input: a parameter, buffer or lifted tensor (the same
    answer in the partitioner's dry run and at compile time)."""
    return node is None or (
        isinstance(node, Node) and b.tensor_slot(node).kind == SlotKind.CONSTANT
    )


def _only_output_used(node: Node, what: str, *indices: int) -> None:
    used = {u.args[1] for u in node.users if u.target is operator.getitem}
    if used - set(indices):
        raise Unsupported(f"{what}: the statistics outputs are used")


def batch_norm_scale_shift(b: Emitter, weight, bias, mean, var, eps: float):
    """Inference batch norm as y = x * scale + shift, computed (float64) from its
    constants: scale = weight / sqrt(var + eps), shift = bias - mean * scale."""

    def value(n, default=None):
        return default if n is None else b.constant(n).double()

    scale = value(weight, 1.0) * torch.rsqrt(value(var) + eps)
    return scale, value(bias, 0.0) - value(mean) * scale


@HANDLERS.register([aten._native_batch_norm_legit_no_training.default])
def batch_norm(b: Emitter, node: Node) -> None:
    """Inference batch norm (running statistics), when no convolution folds it:
    x * scale + shift with scale and shift computed at compile time from
    constant statistics, else (x - mean) * rsqrt(var + eps) * weight + bias."""
    x_node, weight, bias, mean, var = node.args[:5]
    eps = float(node.args[6])
    _only_output_used(node, "batch norm", 0)
    _require_float(b, x_node)
    dtype, shape = b.val(x_node).dtype, _channel_shape(b, x_node)
    x = b.tensor_slot(x_node)
    if all(_is_constant(b, n) for n in (weight, bias, mean, var)):

        def make(i):
            return (
                lambda: batch_norm_scale_shift(b, weight, bias, mean, var, eps)[i]
                .reshape(shape)
                .to(dtype)
            )

        scale, shift = (b.computed_constant(make(i), dtype, shape) for i in (0, 1))
        out = _binary(b, ir.AddNode, _binary(b, ir.MultiplyNode, x, scale), shift)
    else:
        var = _per_channel(b, b.tensor_slot(var), shape, dtype)
        var_eps = _binary(b, ir.AddNode, var, b.full(eps, dtype))
        scale = b.temp(dtype, shape)
        b.emit(ir.RsqrtNode(x=var_eps.tid, out=scale.tid))
        if weight is not None:
            scale = _binary(
                b, ir.MultiplyNode, scale, _per_channel(b, b.tensor_slot(weight), shape, dtype)
            )
        centered = _binary(
            b, ir.SubtractNode, x, _per_channel(b, b.tensor_slot(mean), shape, dtype)
        )
        out = _affine(b, _binary(b, ir.MultiplyNode, centered, scale), None, bias, shape)
    b.bind(node, [out])


def _affine(b: Emitter, y, weight, bias, shape):
    """y * weight + bias with (C,) weight and bias broadcast as `shape` (either may be None)."""
    for kind, n in ((ir.MultiplyNode, weight), (ir.AddNode, bias)):
        if n is not None:
            y = _binary(b, kind, y, _per_channel(b, b.tensor_slot(n), shape, y.dtype))
    return y


@HANDLERS.register([aten._native_batch_norm_legit.no_stats])
def batch_norm_batch_stats(b: Emitter, node: Node) -> None:
    """Batch norm over the batch's own statistics (no running ones), what
    instance norm becomes: x viewed as (1, N * C, *spatial). Statistics are
    computed in float32; with a batch axis of 1 it is a LayerNorm over the
    trailing axes."""
    x_node, weight, bias = node.args[:3]
    eps = float(node.args[5])
    _only_output_used(node, "batch norm", 0)
    _require_float(b, x_node)
    val = b.val(x_node)
    dtype, rank, shape = val.dtype, val.dim(), _channel_shape(b, x_node)
    x = b.tensor_slot(x_node)
    normed = b.temp(dtype, x.shape)
    if rank >= 3 and not isinstance(val.shape[0], torch.SymInt) and val.shape[0] == 1:
        b.emit(ir.LayerNormNode(x=x.tid, out=normed.tid, eps=eps, num_axes=rank - 2))
    else:
        xf = b.cast(x, torch.float32)
        axes = [0] + list(range(2, rank))
        stats_shape = (1,) + shape
        mean, var = b.temp(torch.float32, stats_shape), b.temp(torch.float32, stats_shape)
        b.emit(ir.MeanNode(x=xf.tid, out=mean.tid, axes=axes, keepdims=True))
        b.emit(ir.VarNode(x=xf.tid, out=var.tid, axes=axes, keepdims=True, ddof=0))
        rstd = b.temp(torch.float32, stats_shape)
        b.emit(
            ir.RsqrtNode(
                x=_binary(b, ir.AddNode, var, b.full(eps, torch.float32)).tid, out=rstd.tid
            )
        )
        scaled = _binary(b, ir.MultiplyNode, _binary(b, ir.SubtractNode, xf, mean), rstd)
        b.emit(ir.AsTypeNode(x=scaled.tid, out=normed.tid, dtype=ir_dtype(dtype)))
    b.bind(node, [_affine(b, normed, weight, bias, shape)])


@HANDLERS.register([aten.native_group_norm.default])
def group_norm(b: Emitter, node: Node) -> None:
    """(N, C, *spatial) viewed as (N, G, C / G * prod(spatial)), normalized over
    its last axis by one LayerNorm, viewed back, then the per-channel affine."""
    x_node, weight, bias, _, channels, hxw, groups, eps = node.args[:8]
    if any(isinstance(v, (Node, torch.SymInt)) for v in (channels, hxw, groups)):
        raise Unsupported("group norm over dynamic channel or spatial sizes")
    _require_float(b, x_node)
    val = b.val(x_node)
    dtype, channels, groups = val.dtype, int(channels), int(groups)
    literal = lambda dims: [ir.IntOrVid(literal=int(d)) for d in dims]  # noqa: E731
    grouped_shape = (val.shape[0], groups, channels // groups * int(hxw))
    grouped = b.temp(dtype, grouped_shape)
    b.emit(
        ir.ReshapeNode(x=b.tid(x_node), out=grouped.tid, shape=literal((-1,) + grouped_shape[1:]))
    )
    used = {u.args[1] for u in node.users if u.target is operator.getitem}
    stats = [b.temp(dtype, (val.shape[0], groups, 1)) if i in used else None for i in (1, 2)]
    normed = b.temp(dtype, grouped_shape)
    b.emit(
        ir.LayerNormNode(
            x=grouped.tid,
            out=normed.tid,
            eps=float(eps),
            num_axes=1,
            mean_out=stats[0] and stats[0].tid,
            rstd_out=stats[1] and stats[1].tid,
        )
    )
    unflat = b.temp(dtype, tuple(val.shape))
    b.emit(
        ir.ReshapeNode(x=normed.tid, out=unflat.tid, shape=literal((-1,) + tuple(val.shape[1:])))
    )
    outs = [_affine(b, unflat, weight, bias, _channel_shape(b, x_node))]
    for stat in stats:
        if stat is not None:
            flat = b.temp(dtype, stat.shape[:2])
            b.emit(ir.ReshapeNode(x=stat.tid, out=flat.tid, shape=literal((-1, groups))))
            stat = flat
        outs.append(stat)
    b.bind(node, outs)


def fold_conv_batch_norm(b: Emitter, conv_node: Node, bn: Node, out: Node) -> None:
    """conv -> inference batch norm -> its output `out`, as one convolution whose
    weights and bias have the batch norm folded in at compile time, when the
    weights and statistics are constants; else each node by its own handler."""
    c = conv_args(conv_node)
    weight, bias, mean, var = bn.args[1:5]
    if not all(_is_constant(b, n) for n in (c.weight, c.bias, weight, bias, mean, var)):
        for n in (conv_node, bn, out):
            b.lower_with_handler(n)
        return
    eps = float(bn.args[6])
    dtype = b.val(conv_node).dtype
    w_shape = tuple(b.val(c.weight).shape)
    channels = int(b.val(conv_node).shape[1])

    def folded_weight():
        scale, _ = batch_norm_scale_shift(b, weight, bias, mean, var, eps)
        w = b.constant(c.weight).double()
        if c.transposed:  # (C_in, O / g, *k): output channel g * (O / g) + j
            grouped = w.reshape(c.groups, -1, channels // c.groups, *w_shape[2:])
            scale = scale.reshape(c.groups, 1, channels // c.groups, *[1] * (len(w_shape) - 2))
            return (grouped * scale).reshape(w_shape).to(dtype)
        return (w * scale.reshape(-1, *[1] * (len(w_shape) - 1))).to(dtype)

    def folded_bias():
        scale, shift = batch_norm_scale_shift(b, weight, bias, mean, var, eps)
        conv_bias = 0.0 if c.bias is None else b.constant(c.bias).double()
        return (conv_bias * scale + shift).to(dtype)

    emit_conv(
        b,
        out,
        c,
        weight=b.computed_constant(folded_weight, dtype, w_shape),
        bias=b.computed_constant(folded_bias, dtype, (channels,)),
    )


@HANDLERS.register([aten.scaled_dot_product_attention.default], keep_whole=True)
def sdpa(b: Emitter, node: Node) -> None:
    """(B, H, L, D) inputs as they are; (B, L, D) ones, and a (B, L, S) mask, get
    a heads axis of 1, removed from the output. Masks broadcast to (B, H, L, S)."""
    q, k, v = node.args[:3]
    mask = arg(node, "attn_mask")
    dropout = arg(node, "dropout_p", 0.0)
    causal = bool(arg(node, "is_causal", False))
    scale = arg(node, "scale")
    enable_gqa = bool(arg(node, "enable_gqa"))
    if dropout:
        raise Unsupported("attention dropout")
    q_val, k_val = b.val(q), b.val(k)
    rank = q_val.dim()
    if rank not in (3, 4) or any(b.val(t).dim() != rank for t in (k, v)):
        raise Unsupported("attention inputs must be (B, H, L, D) or (B, L, D)")
    if rank == 4 and q_val.shape[1] != k_val.shape[1] and not enable_gqa:
        raise Unsupported("query and key heads differ without enable_gqa")
    if causal and mask is not None:
        raise Unsupported("both a mask and is_causal")
    lower_right = mask is not None and _is_lower_right_causal(
        mask, q_val.shape[-2], k_val.shape[-2]
    )
    if lower_right:
        mask, causal = None, True
    if mask is not None and b.val(mask).dim() > 4:
        raise Unsupported("a mask of more than 4 dimensions")
    if scale is None:
        scale = 1.0 / math.sqrt(q_val.shape[-1])
    if rank == 4:
        k, v = _shared_heads(k, v)
    qq, kk, vv = _float_operands(b, node, q, k, v)
    mask_slot = None
    if mask is not None:
        m = b.tensor_slot(mask)
        mask_slot = m if m.dtype == torch.bool else b.cast(m, b.val(node).dtype)
    if rank == 3:
        qq, kk, vv = (_heads_axis(b, t) for t in (qq, kk, vv))
        if mask_slot is not None and len(mask_slot.shape) == 3:
            mask_slot = _heads_axis(b, mask_slot)
    out = b.out(node) if rank == 4 else b.temp(qq.dtype, (*qq.shape[:3], vv.shape[-1]))
    b.emit(
        ir.ScaledDotProductAttentionNode(
            q=qq.tid,
            k=kk.tid,
            v=vv.tid,
            out=out.tid,
            mask=mask_slot and mask_slot.tid,
            scale=float(scale),
            causal=causal,
            lower_right=lower_right,
        )
    )
    if rank == 3:
        b.emit(ir.SqueezeNode(x=out.tid, out=b.out(node).tid, axes=[1]))


def _is_lower_right_causal(mask, queries: int, keys: int) -> bool:
    """`mask` is keys[None, :] <= positions[:, None] (or the same as >=), with
    keys = arange(S) and positions = arange(T) + (S - T): T new tokens over S
    cached ones each see the keys up to their own position. That is MLX's
    causal mode, aligned at the lower right, and needs no mask tensor."""
    if calls(mask, "aten::le.Tensor"):
        key_side, position_side = mask.args[:2]
    elif calls(mask, "aten::ge.Tensor"):
        position_side, key_side = mask.args[:2]
    else:
        return False
    key_axis, position_axis = _unsqueezed(key_side, 0), _unsqueezed(position_side, 1)
    if key_axis is None or position_axis is None:
        return False
    key_positions = contiguous_positions(key_axis)
    positions = contiguous_positions(position_axis)
    if key_positions is None or positions is None or not _is_zero(key_positions.offset):
        return False
    offset = _symbolic_value(positions.offset)
    if offset is None:
        return False
    return (
        same_size(key_positions.length, keys)
        and same_size(positions.length, queries)
        and same_size(keys, queries + offset)
    )


def _symbolic_value(offset):
    """The int or SymInt an offset holds: itself, or the scalar a 0-d tensor was
    made from (`scalar_tensor(u0)`, cast); None when only a tensor knows it."""
    while calls(offset, *CASTS):
        offset = offset.args[0]
    if calls(offset, "aten::scalar_tensor"):
        offset = offset.args[0]
    if isinstance(offset, Node):
        offset = offset.meta.get("val")
    return offset if isinstance(offset, (int, torch.SymInt)) else None


def _unsqueezed(node, axis: int) -> Optional[Node]:
    """x when `node` is x.unsqueeze(axis) giving a 2-D tensor."""
    if not calls(node, "aten::unsqueeze_copy") or node.meta["val"].dim() != 2:
        return None
    return node.args[0] if node.args[1] % 2 == axis else None


def _is_zero(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value == 0


def _unrepeated(kv) -> Optional[Node]:
    """x when `kv` is x (B, Hkv, S, D) with each head repeated n times in a row,
    x[:, :, None].expand(B, Hkv, n, S, D).reshape(B, Hkv * n, S, D) (transformers'
    repeat_kv); else None."""
    found = repeated_along_new_axis(kv, 2)
    if found is None:
        return None
    x, expanded = found
    x_shape, e_shape = tuple(x.meta["val"].shape), tuple(expanded.meta["val"].shape)
    out_shape = tuple(kv.meta["val"].shape)
    if len(x_shape) != 4 or e_shape[:2] != x_shape[:2] or e_shape[3:] != x_shape[2:]:
        return None
    if out_shape != (x_shape[0], x_shape[1] * e_shape[2], *x_shape[2:]):
        return None
    return x


def _shared_heads(k, v):
    """MLX's attention shares each key/value head among consecutive query heads
    itself: a repeat of both (grouped-query attention) is read unrepeated."""
    k_heads, v_heads = _unrepeated(k), _unrepeated(v)
    if k_heads is None or v_heads is None:
        return k, v
    if k_heads.meta["val"].shape[1] != v_heads.meta["val"].shape[1]:
        return k, v
    return k_heads, v_heads


def _heads_axis(b: Emitter, slot):
    """(B, L, D) -> (B, 1, L, D)."""
    out = b.temp(slot.dtype, (slot.shape[0], 1, *slot.shape[1:]))
    b.emit(ir.ExpandDimsNode(x=slot.tid, out=out.tid, axes=[1]))
    return out
