"""Matrix products, normalization, convolution, attention, embedding."""

from __future__ import annotations

import math

import torch
from torch.fx import Node

from ..builder import REGISTRY, Unsupported
from ..builder.program_builder import ProgramBuilder
from ..ir import schema as ir
from .common import arg

aten = torch.ops.aten


def _float_operands(b: ProgramBuilder, node: Node, *args):
    dtype = b.val(node).dtype
    return [None if a is None else b.operand(a, dtype) for a in args]


def _require_float(b: ProgramBuilder, node: Node) -> None:
    """MLX's matmul and conv kernels take floats only."""
    if not b.val(node).dtype.is_floating_point:
        raise Unsupported(f"{b.val(node).dtype} inputs (MLX computes this in floating point only)")


@REGISTRY.register([aten.linear.default], keep_whole=True)
def linear(b: ProgramBuilder, node: Node) -> None:
    _require_float(b, node)
    x, weight, bias = _float_operands(b, node, node.args[0], node.args[1], arg(node, 2, "bias"))
    b.emit(ir.LinearNode(x=x.tid, weight=weight.tid, out=b.out(node).tid,
                         bias=None if bias is None else bias.tid))


@REGISTRY.register([aten.addmm.default])
def addmm(b: ProgramBuilder, node: Node) -> None:
    _require_float(b, node)
    bias, mat1, mat2 = _float_operands(b, node, *node.args[:3])
    b.emit(ir.AddmmNode(bias=bias.tid, mat1=mat1.tid, mat2=mat2.tid, out=b.out(node).tid,
                        alpha=float(node.kwargs.get("alpha", 1)), beta=float(node.kwargs.get("beta", 1))))


@REGISTRY.register([aten.mm.default, aten.bmm.default, aten.matmul.default], keep_whole=True)
def matmul(b: ProgramBuilder, node: Node) -> None:
    lhs, rhs = _float_operands(b, node, node.args[0], node.args[1])
    if b.val(node).dtype.is_floating_point:
        b.emit(ir.MatmulNode(a=lhs.tid, b=rhs.tid, out=b.out(node).tid))
    else:
        _integer_matmul(b, node, lhs, rhs)


def _integer_matmul(b: ProgramBuilder, node: Node, lhs, rhs) -> None:
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


@REGISTRY.register([aten.layer_norm.default], keep_whole=True)
def layer_norm(b: ProgramBuilder, node: Node) -> None:
    normalized_shape = node.args[1]
    weight, bias = arg(node, 2, "weight"), arg(node, 3, "bias")
    eps = float(arg(node, 4, "eps", 1e-5))
    x, w, bb = _float_operands(b, node, node.args[0], weight, bias)
    b.emit(ir.LayerNormNode(x=x.tid, out=b.out(node).tid, weight=w and w.tid, bias=bb and bb.tid,
                            eps=eps, num_axes=len(normalized_shape)))


@REGISTRY.register([aten.native_layer_norm.default])
def native_layer_norm(b: ProgramBuilder, node: Node) -> None:
    x_node, normalized_shape, weight, bias, eps = node.args[:5]
    out_val, mean_val, rstd_val = b.val(node)
    x, w, bb = (None if a is None else b.operand(a, out_val.dtype) for a in (x_node, weight, bias))
    outs = [b.temp(v.dtype, tuple(v.shape)) for v in (out_val, mean_val, rstd_val)]
    b.emit(ir.LayerNormNode(x=x.tid, out=outs[0].tid, weight=w and w.tid, bias=bb and bb.tid,
                            eps=float(eps), num_axes=len(normalized_shape),
                            mean_out=outs[1].tid, rstd_out=outs[2].tid))
    b.bind(node, outs)


@REGISTRY.register([aten.rms_norm.default], keep_whole=True)
def rms_norm(b: ProgramBuilder, node: Node) -> None:
    normalized_shape = node.args[1]
    if len(normalized_shape) != 1:
        raise Unsupported("rms_norm over more than the last axis")
    weight = arg(node, 2, "weight")
    eps = arg(node, 3, "eps")
    dtype = b.val(node).dtype
    if eps is None:
        eps = torch.finfo(dtype).eps
    x, w = _float_operands(b, node, node.args[0], weight)
    b.emit(ir.RmsNormNode(x=x.tid, out=b.out(node).tid, weight=w and w.tid, eps=float(eps)))


@REGISTRY.register([aten.embedding.default])
def embedding(b: ProgramBuilder, node: Node) -> None:
    weight, indices = b.tensor_slot(node.args[0]), b.tensor_slot(node.args[1])
    b.emit(ir.TakeNode(x=weight.tid, indices=indices.tid, out=b.out(node).tid, axis=0))


@REGISTRY.register([aten.conv1d.default, aten.conv2d.default], keep_whole=True)
def conv(b: ProgramBuilder, node: Node) -> None:
    x_node, weight, bias = node.args[0], node.args[1], arg(node, 2, "bias")
    spatial = b.val(weight).dim() - 2
    padding = arg(node, 4, "padding", 0)
    if isinstance(padding, str):
        raise Unsupported(f"padding='{padding}'")
    _emit_conv(b, node, x_node, weight, bias, arg(node, 3, "stride", 1), padding,
               arg(node, 5, "dilation", 1), int(arg(node, 6, "groups", 1)), spatial)


@REGISTRY.register([aten.convolution.default])
def convolution(b: ProgramBuilder, node: Node) -> None:
    x_node, weight, bias, stride, padding, dilation, transposed, output_padding, groups = node.args[:9]
    if transposed:
        raise Unsupported("transposed convolution")
    spatial = b.val(weight).dim() - 2
    _emit_conv(b, node, x_node, weight, bias, stride, padding, dilation, int(groups), spatial)


def _emit_conv(b, node, x_node, weight, bias, stride, padding, dilation, groups, spatial) -> None:
    _require_float(b, node)
    if spatial not in (1, 2):
        raise Unsupported(f"{spatial}-d convolution")
    per_axis = lambda v: [int(i) for i in (v if isinstance(v, (list, tuple)) else [v] * spatial)]  # noqa: E731
    x, w, bb = _float_operands(b, node, x_node, weight, bias)
    b.emit(ir.ConvNode(x=x.tid, weight=w.tid, out=b.out(node).tid, bias=bb and bb.tid,
                       stride=per_axis(stride), padding=per_axis(padding), dilation=per_axis(dilation),
                       groups=groups))


@REGISTRY.register([aten.scaled_dot_product_attention.default], keep_whole=True)
def sdpa(b: ProgramBuilder, node: Node) -> None:
    q, k, v = node.args[:3]
    mask = arg(node, 3, "attn_mask")
    dropout = arg(node, 4, "dropout_p", 0.0)
    causal = bool(arg(node, 5, "is_causal", False))
    scale = arg(node, 6, "scale")
    enable_gqa = bool(node.kwargs.get("enable_gqa", False))
    if dropout:
        raise Unsupported("attention dropout")
    q_val, k_val = b.val(q), b.val(k)
    if q_val.dim() != 4:
        raise Unsupported("attention inputs must be (B, H, L, D)")
    if q_val.shape[1] != k_val.shape[1] and not enable_gqa:
        raise Unsupported("query and key heads differ without enable_gqa")
    if causal and mask is not None:
        raise Unsupported("both a mask and is_causal")
    if scale is None:
        scale = 1.0 / math.sqrt(q_val.shape[-1])
    qq, kk, vv = _float_operands(b, node, q, k, v)
    mask_tid = None
    if mask is not None:
        m = b.tensor_slot(mask)
        mask_tid = (m if m.dtype == torch.bool else b.cast(m, b.val(node).dtype)).tid
    b.emit(ir.ScaledDotProductAttentionNode(q=qq.tid, k=kk.tid, v=vv.tid, out=b.out(node).tid,
                                            mask=mask_tid, scale=float(scale), causal=causal))
