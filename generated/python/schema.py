# generated from schema/schema.fbs, do not edit
"""Dataclasses and a FlatBuffers serializer for the schema named above.

Build instances of the dataclasses below and call `encode(root)`, or mix
`Builders` into a class and call its `build_<Table>(builder, obj)` methods.
Needs nothing but the `flatbuffers` package at run time.
"""

from __future__ import annotations

import dataclasses as _dataclasses
import enum as _enum
import struct as _struct
import typing as _typing

import flatbuffers as _flatbuffers

_NAN = float("nan")
_INF = float("inf")

FILE_IDENTIFIER: bytes | None = b"MLXG"


# A tensor slot.
@_dataclasses.dataclass(kw_only=True)
class Tid:
    """struct mlxd.ir.Tid: 4 bytes, aligned to 4."""

    idx: int = 0


# A value slot: a runtime int, float or bool.
@_dataclasses.dataclass(kw_only=True)
class Vid:
    """struct mlxd.ir.Vid: 4 bytes, aligned to 4."""

    idx: int = 0


# An integer known at compile time (`literal`) or produced at run time (`vid`).
@_dataclasses.dataclass(kw_only=True)
class IntOrVid:
    """table mlxd.ir.IntOrVid"""

    literal: int = 0
    vid: Vid | None = None


# A float known at compile time (`literal`) or produced at run time (`vid`).
@_dataclasses.dataclass(kw_only=True)
class FloatOrVid:
    """table mlxd.ir.FloatOrVid"""

    literal: float = 0.0
    vid: Vid | None = None


# A tensor operand or a runtime scalar operand.
@_dataclasses.dataclass(kw_only=True)
class TidOrVid:
    """table mlxd.ir.TidOrVid"""

    tid: Tid | None = None
    vid: Vid | None = None


class DType(_enum.IntEnum):
    Float32 = 0
    Float16 = 1
    BFloat16 = 2
    Int32 = 3
    Int64 = 4
    Int8 = 5
    UInt8 = 6
    Bool = 7
    Int16 = 8
    UInt16 = 9
    UInt32 = 10
    UInt64 = 11
    Float64 = 12


class SlotKind(_enum.IntEnum):
    Tensor = 0
    Value = 1


# One entry of an input, output or mutable-buffer map.
@_dataclasses.dataclass(kw_only=True)
class SlotRef:
    """struct mlxd.ir.SlotRef: 8 bytes, aligned to 4."""

    kind: SlotKind = SlotKind.Tensor
    idx: int = 0


# Shape and dtype of a tensor slot; dynamic dimensions are value slots.
@_dataclasses.dataclass(kw_only=True)
class TensorMeta:
    """table mlxd.ir.TensorMeta"""

    shape: list[IntOrVid] | None = None
    dtype: DType = DType.Float32


# A constant or mutable buffer bound by name to ExecuTorch's named data map.
@_dataclasses.dataclass(kw_only=True)
class NamedSlot:
    """table mlxd.ir.NamedSlot"""

    name: str
    slot: Tid


class DivRounding(_enum.IntEnum):
    None_ = 0
    Trunc = 1
    Floor = 2


class GeluApproximation(_enum.IntEnum):
    None_ = 0
    Tanh = 1


class IntBinaryOp(_enum.IntEnum):
    Add = 0
    Sub = 1
    Mul = 2
    FloorDiv = 3
    Mod = 4
    Min = 5
    Max = 6


@_dataclasses.dataclass(kw_only=True)
class AddNode:
    """table mlxd.ir.AddNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class SubtractNode:
    """table mlxd.ir.SubtractNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class MultiplyNode:
    """table mlxd.ir.MultiplyNode"""

    a: Tid
    b: Tid
    out: Tid


# rounding None: true division (float operands); Trunc / Floor: the quotient
# rounded toward zero / minus infinity, in the operands' dtype (ints too).
@_dataclasses.dataclass(kw_only=True)
class DivideNode:
    """table mlxd.ir.DivideNode"""

    a: Tid
    b: Tid
    out: Tid
    rounding: DivRounding = DivRounding.None_


@_dataclasses.dataclass(kw_only=True)
class PowerNode:
    """table mlxd.ir.PowerNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class MaximumNode:
    """table mlxd.ir.MaximumNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class MinimumNode:
    """table mlxd.ir.MinimumNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class EqualNode:
    """table mlxd.ir.EqualNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class NotEqualNode:
    """table mlxd.ir.NotEqualNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class LessNode:
    """table mlxd.ir.LessNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class LessEqualNode:
    """table mlxd.ir.LessEqualNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class GreaterNode:
    """table mlxd.ir.GreaterNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class GreaterEqualNode:
    """table mlxd.ir.GreaterEqualNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class LogicalAndNode:
    """table mlxd.ir.LogicalAndNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class LogicalOrNode:
    """table mlxd.ir.LogicalOrNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class NegNode:
    """table mlxd.ir.NegNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class AbsNode:
    """table mlxd.ir.AbsNode"""

    x: Tid
    out: Tid


# Exp, Tanh, Sigmoid and Erf, like Silu and Gelu, are written by hand rather
# than declared: a CPU plugin with our kernels computes them (cpu_kernels.h).
@_dataclasses.dataclass(kw_only=True)
class ExpNode:
    """table mlxd.ir.ExpNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class LogNode:
    """table mlxd.ir.LogNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class SqrtNode:
    """table mlxd.ir.SqrtNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class RsqrtNode:
    """table mlxd.ir.RsqrtNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class SinNode:
    """table mlxd.ir.SinNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class CosNode:
    """table mlxd.ir.CosNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class TanhNode:
    """table mlxd.ir.TanhNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class SigmoidNode:
    """table mlxd.ir.SigmoidNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class ErfNode:
    """table mlxd.ir.ErfNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class FloorNode:
    """table mlxd.ir.FloorNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class CeilNode:
    """table mlxd.ir.CeilNode"""

    x: Tid
    out: Tid


# Rounds half to even, as torch.round.
@_dataclasses.dataclass(kw_only=True)
class RoundNode:
    """table mlxd.ir.RoundNode"""

    x: Tid
    out: Tid
    decimals: int = 0


@_dataclasses.dataclass(kw_only=True)
class ReciprocalNode:
    """table mlxd.ir.ReciprocalNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class LogicalNotNode:
    """table mlxd.ir.LogicalNotNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class ReluNode:
    """table mlxd.ir.ReluNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class SiluNode:
    """table mlxd.ir.SiluNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class GeluNode:
    """table mlxd.ir.GeluNode"""

    x: Tid
    out: Tid
    approximation: GeluApproximation = GeluApproximation.None_


@_dataclasses.dataclass(kw_only=True)
class LeakyReluNode:
    """table mlxd.ir.LeakyReluNode"""

    x: Tid
    out: Tid
    negative_slope: float = 0.01


# Clamps to [min, max]; an absent bound is unbounded.
@_dataclasses.dataclass(kw_only=True)
class ClipNode:
    """table mlxd.ir.ClipNode"""

    x: Tid
    out: Tid
    min: TidOrVid | None = None
    max: TidOrVid | None = None


@_dataclasses.dataclass(kw_only=True)
class WhereNode:
    """table mlxd.ir.WhereNode"""

    condition: Tid
    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class AsTypeNode:
    """table mlxd.ir.AsTypeNode"""

    x: Tid
    out: Tid
    dtype: DType = DType.Float32


@_dataclasses.dataclass(kw_only=True)
class CopyNode:
    """table mlxd.ir.CopyNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class SumNode:
    """table mlxd.ir.SumNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None
    keepdims: bool = False


@_dataclasses.dataclass(kw_only=True)
class MeanNode:
    """table mlxd.ir.MeanNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None
    keepdims: bool = False


@_dataclasses.dataclass(kw_only=True)
class MaxNode:
    """table mlxd.ir.MaxNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None
    keepdims: bool = False


@_dataclasses.dataclass(kw_only=True)
class MinNode:
    """table mlxd.ir.MinNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None
    keepdims: bool = False


@_dataclasses.dataclass(kw_only=True)
class ProdNode:
    """table mlxd.ir.ProdNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None
    keepdims: bool = False


@_dataclasses.dataclass(kw_only=True)
class AnyNode:
    """table mlxd.ir.AnyNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None
    keepdims: bool = False


@_dataclasses.dataclass(kw_only=True)
class AllNode:
    """table mlxd.ir.AllNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None
    keepdims: bool = False


@_dataclasses.dataclass(kw_only=True)
class VarNode:
    """table mlxd.ir.VarNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None
    keepdims: bool = False
    ddof: int = 1


@_dataclasses.dataclass(kw_only=True)
class StdNode:
    """table mlxd.ir.StdNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None
    keepdims: bool = False
    ddof: int = 1


# `axis` absent: over the flattened input.
# Results are MLX's uint32; the compiler casts to int64.
@_dataclasses.dataclass(kw_only=True)
class ArgMaxNode:
    """table mlxd.ir.ArgMaxNode"""

    x: Tid
    out: Tid
    axis: int | None = None
    keepdims: bool = False


@_dataclasses.dataclass(kw_only=True)
class ArgMinNode:
    """table mlxd.ir.ArgMinNode"""

    x: Tid
    out: Tid
    axis: int | None = None
    keepdims: bool = False


# Inclusive cumulative sum along `axis`; `reverse` sums from the end.
@_dataclasses.dataclass(kw_only=True)
class CumSumNode:
    """table mlxd.ir.CumSumNode"""

    x: Tid
    out: Tid
    axis: int = 0
    reverse: bool = False


@_dataclasses.dataclass(kw_only=True)
class SoftmaxNode:
    """table mlxd.ir.SoftmaxNode"""

    x: Tid
    out: Tid
    axis: int = -1


@_dataclasses.dataclass(kw_only=True)
class LogSoftmaxNode:
    """table mlxd.ir.LogSoftmaxNode"""

    x: Tid
    out: Tid
    axis: int = -1


# out = x @ weight^T (+ bias)
@_dataclasses.dataclass(kw_only=True)
class LinearNode:
    """table mlxd.ir.LinearNode"""

    x: Tid
    weight: Tid
    out: Tid
    bias: Tid | None = None


# out = beta * bias + alpha * (mat1 @ mat2)
@_dataclasses.dataclass(kw_only=True)
class AddmmNode:
    """table mlxd.ir.AddmmNode"""

    bias: Tid
    mat1: Tid
    mat2: Tid
    out: Tid
    alpha: float = 1.0
    beta: float = 1.0


@_dataclasses.dataclass(kw_only=True)
class MatmulNode:
    """table mlxd.ir.MatmulNode"""

    a: Tid
    b: Tid
    out: Tid


# How a quantized weight's values are stored: MLX's quantization modes, each
# value's name lower-cased being MLX's name for it. The weight (rows, cols) is
# packed along its last axis into uint32 words `w` (rows, cols * bits / 32):
# the values of a row as one little-endian bit stream, value k in bits
# [k * bits, (k + 1) * bits) of it (for 1, 2, 4 and 8 bits a value never spans
# two words; for 3, 5 and 6 bits 32 values fill `bits` words). Each run of
# `group_size` values of a row shares a scale in `scales` (rows, cols /
# group_size).
# - Affine: unsigned integers q of 1 to 6 or 8 bits (MLX's CUDA kernels take
# 2 and more); group_size 32, 64 or 128; scales and `biases` in a float
# dtype: weight = scales * q + biases.
# - Mxfp4: 4-bit E2M1 floats, Nvfp4 the same; Mxfp8: 8-bit E4M3 floats
# (the float8_e4m3fn bytes). No biases: weight = q * scale, `scales` uint8
# bytes of an E8M0 power of two (Mxfp4, Mxfp8; group_size 32) or of an E4M3
# float (Nvfp4; group_size 16).
class QuantMode(_enum.IntEnum):
    Affine = 0
    Mxfp4 = 1
    Nvfp4 = 2
    Mxfp8 = 3


# A product with a weight (rows, cols) quantized as QuantMode says, kept
# packed: out = x @ weight^T (`transpose`; x (..., cols)) or x @ weight (not
# `transpose`; x (..., rows)), times `tensor_scale` (a float32 scalar: the
# per-tensor scale of an Nvfp4 weight), plus `bias`. `biases`: Affine only.
@_dataclasses.dataclass(kw_only=True)
class QuantizedLinearNode:
    """table mlxd.ir.QuantizedLinearNode"""

    x: Tid
    w: Tid
    scales: Tid
    biases: Tid | None = None
    out: Tid
    bias: Tid | None = None
    group_size: int = 64
    bits: int = 4
    mode: QuantMode = QuantMode.Affine
    tensor_scale: Tid | None = None
    transpose: bool = True


# out = the weight `w` packed as in QuantizedLinearNode, dequantized (times
# `tensor_scale`); leading axes (rows taken from a quantized table) pass
# through. Affine: in the dtype of the scales; the other modes: float32.
@_dataclasses.dataclass(kw_only=True)
class DequantizeNode:
    """table mlxd.ir.DequantizeNode"""

    w: Tid
    scales: Tid
    biases: Tid | None = None
    out: Tid
    group_size: int = 64
    bits: int = 4
    mode: QuantMode = QuantMode.Affine
    tensor_scale: Tid | None = None


# Matrix products with matrix-level gather (MLX's gather_mm), for expert
# layers: out[i] = a[lhs_indices[i]] @ b[rhs_indices[i]], a (..., M, K) and
# b (..., K, N) batches of matrices, the indices broadcast together and index
# the flattened batch axes of their operand; an absent index is arange over
# that operand's batch. The experts' weights are read where they are, never
# copied per token. `sorted_indices`: rhs_indices is sorted (rows grouped by
# expert), which lets MLX take its grouped kernel.
@_dataclasses.dataclass(kw_only=True)
class GatherMMNode:
    """table mlxd.ir.GatherMMNode"""

    a: Tid
    b: Tid
    out: Tid
    lhs_indices: Tid | None = None
    rhs_indices: Tid | None = None
    sorted_indices: bool = False


# GatherMMNode over a quantized `w` (MLX's gather_qmm): w (E, N, K * bits / 32)
# packed, with scales (and, Affine, biases) (E, N, K / group_size), as in
# QuantizedLinearNode, one matrix per expert; out[i] = x[lhs_indices[i]] @
# weight[rhs_indices[i]]^T (`transpose` true) or @ weight[...] (false: w is
# (E, K, N * bits / 32)).
@_dataclasses.dataclass(kw_only=True)
class GatherQMMNode:
    """table mlxd.ir.GatherQMMNode"""

    x: Tid
    w: Tid
    scales: Tid
    biases: Tid | None = None
    out: Tid
    lhs_indices: Tid | None = None
    rhs_indices: Tid | None = None
    transpose: bool = True
    group_size: int = 64
    bits: int = 4
    sorted_indices: bool = False
    mode: QuantMode = QuantMode.Affine


# Normalizes over the last `num_axes` axes.
@_dataclasses.dataclass(kw_only=True)
class LayerNormNode:
    """table mlxd.ir.LayerNormNode"""

    x: Tid
    out: Tid
    weight: Tid | None = None
    bias: Tid | None = None
    eps: float = 1e-05
    num_axes: int = 1
    mean_out: Tid | None = None
    rstd_out: Tid | None = None


@_dataclasses.dataclass(kw_only=True)
class RmsNormNode:
    """table mlxd.ir.RmsNormNode"""

    x: Tid
    out: Tid
    weight: Tid | None = None
    eps: float = 1e-06


# N-d convolution in PyTorch's layout: x (N, C, *spatial), weight
# (O, C / groups, *kernel); stride, padding and dilation have one entry per
# spatial axis. `transposed`: PyTorch's conv_transpose, weight
# (C, O / groups, *kernel), `output_padding` added to one side of the output.
@_dataclasses.dataclass(kw_only=True)
class ConvNode:
    """table mlxd.ir.ConvNode"""

    x: Tid
    weight: Tid
    out: Tid
    bias: Tid | None = None
    stride: list[int] | None = None
    padding: list[int] | None = None
    dilation: list[int] | None = None
    groups: int = 1
    transposed: bool = False
    output_padding: list[int] | None = None


# softmax(q k^T * scale + mask) v with q (B, H, L, D) and k, v (B, Hkv, S, D),
# H a multiple of Hkv (grouped-query attention). `mask` is boolean (true =
# attend) or additive, broadcastable to (B, H, L, S); `causal` is PyTorch's
# is_causal: position i attends to j <= i (top-left aligned).
# `causal`: query i of L sees keys j <= i (PyTorch's is_causal, aligned at the
# upper left); with `lower_right` it sees keys j <= i + S - L: L new tokens
# over S cached keys, MLX's own causal mode.
@_dataclasses.dataclass(kw_only=True)
class ScaledDotProductAttentionNode:
    """table mlxd.ir.ScaledDotProductAttentionNode"""

    q: Tid
    k: Tid
    v: Tid
    out: Tid
    mask: Tid | None = None
    scale: float = 0.0
    causal: bool = False
    lower_right: bool = False


# Rotary position embedding (mlx::core::fast::rope) of the first `dims`
# features of x (..., T, D); the other D - dims pass through. Row t turns by
# the angles (offset + t) * scale / freqs[i]. `traditional` rotates the pairs
# (2i, 2i + 1), otherwise the pairs (i, i + dims / 2) (rotate_half). `freqs`
# (dims / 2, float32) are periods, 1 / inv_freq; without them the periods are
# base ** (2i / dims). `offset` is a 0-d integer tensor (a runtime position).
@_dataclasses.dataclass(kw_only=True)
class RopeNode:
    """table mlxd.ir.RopeNode"""

    x: Tid
    out: Tid
    dims: int = 0
    traditional: bool = False
    base: float = 10000.0
    scale: float = 1.0
    offset: Tid
    freqs: Tid | None = None


@_dataclasses.dataclass(kw_only=True)
class ReshapeNode:
    """table mlxd.ir.ReshapeNode"""

    x: Tid
    out: Tid
    shape: list[IntOrVid] | None = None


@_dataclasses.dataclass(kw_only=True)
class TransposeNode:
    """table mlxd.ir.TransposeNode"""

    x: Tid
    out: Tid
    perm: list[int] | None = None


@_dataclasses.dataclass(kw_only=True)
class ExpandDimsNode:
    """table mlxd.ir.ExpandDimsNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None


# Removes the given size-1 axes; empty `axes`: every size-1 axis.
@_dataclasses.dataclass(kw_only=True)
class SqueezeNode:
    """table mlxd.ir.SqueezeNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None


@_dataclasses.dataclass(kw_only=True)
class BroadcastToNode:
    """table mlxd.ir.BroadcastToNode"""

    x: Tid
    out: Tid
    shape: list[IntOrVid] | None = None


# x[start:stop:step] along `axis`; bounds are clamped as Python slicing does.
@_dataclasses.dataclass(kw_only=True)
class SliceNode:
    """table mlxd.ir.SliceNode"""

    x: Tid
    out: Tid
    axis: int = 0
    start: IntOrVid | None = None
    stop: IntOrVid | None = None
    step: int = 1


# x[index] along `axis`, which is removed; a negative index counts from the end.
@_dataclasses.dataclass(kw_only=True)
class SelectNode:
    """table mlxd.ir.SelectNode"""

    x: Tid
    out: Tid
    axis: int = 0
    index: IntOrVid


@_dataclasses.dataclass(kw_only=True)
class ConcatenateNode:
    """table mlxd.ir.ConcatenateNode"""

    inputs: list[Tid]
    out: Tid
    axis: int = 0


@_dataclasses.dataclass(kw_only=True)
class StackNode:
    """table mlxd.ir.StackNode"""

    inputs: list[Tid]
    out: Tid
    axis: int = 0


# Consecutive pieces of `sizes[i]` elements along `axis`, one per `outs[i]`.
@_dataclasses.dataclass(kw_only=True)
class SplitNode:
    """table mlxd.ir.SplitNode"""

    x: Tid
    outs: list[Tid]
    sizes: list[int] | None = None
    axis: int = 0


# torch.repeat / numpy.tile: `reps` may be longer than x's rank.
@_dataclasses.dataclass(kw_only=True)
class TileNode:
    """table mlxd.ir.TileNode"""

    x: Tid
    out: Tid
    reps: list[int] | None = None


@_dataclasses.dataclass(kw_only=True)
class FlipNode:
    """table mlxd.ir.FlipNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None


# `pad` holds (low, high) pairs from the first axis on.
@_dataclasses.dataclass(kw_only=True)
class PadNode:
    """table mlxd.ir.PadNode"""

    x: Tid
    out: Tid
    pad: list[int] | None = None
    value: float = 0.0


@_dataclasses.dataclass(kw_only=True)
class TrilNode:
    """table mlxd.ir.TrilNode"""

    x: Tid
    out: Tid
    k: int = 0


@_dataclasses.dataclass(kw_only=True)
class TriuNode:
    """table mlxd.ir.TriuNode"""

    x: Tid
    out: Tid
    k: int = 0


# Elements of x at `indices` (any shape) along `axis` (index_select, embedding).
@_dataclasses.dataclass(kw_only=True)
class TakeNode:
    """table mlxd.ir.TakeNode"""

    x: Tid
    indices: Tid
    out: Tid
    axis: int = 0


# torch.gather with an index of x's rank and the same shape as x but on `axis`
# (the compiler slices x to fit).
@_dataclasses.dataclass(kw_only=True)
class TakeAlongAxisNode:
    """table mlxd.ir.TakeAlongAxisNode"""

    x: Tid
    indices: Tid
    out: Tid
    axis: int = 0


# Advanced indexing x[i0, i1, ...] with broadcast index tensors from axis 0.
@_dataclasses.dataclass(kw_only=True)
class IndexNode:
    """table mlxd.ir.IndexNode"""

    x: Tid
    indices: list[Tid]
    out: Tid


# torch.scatter: out = x; out[..indices[i]..] = updates[i] along `axis` (MLX's
# put_along_axis); `updates` has the shape of `indices` (the compiler slices or
# broadcasts it to fit). Where an index repeats, which update lands is unspecified,
# as in PyTorch.
@_dataclasses.dataclass(kw_only=True)
class ScatterNode:
    """table mlxd.ir.ScatterNode"""

    x: Tid
    indices: Tid
    updates: Tid
    out: Tid
    axis: int = 0


# torch.scatter_add: out = x; out[..indices[i]..] += updates[i] along `axis`;
# `updates` has the shape of `indices` (the compiler slices it to fit).
@_dataclasses.dataclass(kw_only=True)
class ScatterAddNode:
    """table mlxd.ir.ScatterAddNode"""

    x: Tid
    indices: Tid
    updates: Tid
    out: Tid
    axis: int = 0


# out = target with `update` written at [start, start + len) along `axis`.
@_dataclasses.dataclass(kw_only=True)
class SliceUpdateNode:
    """table mlxd.ir.SliceUpdateNode"""

    target: Tid
    update: Tid
    out: Tid
    axis: int = 0
    start: IntOrVid


# start (default 0) to stop (exclusive) by step (default 1), in `dtype`.
@_dataclasses.dataclass(kw_only=True)
class ArangeNode:
    """table mlxd.ir.ArangeNode"""

    out: Tid
    start: FloatOrVid | None = None
    stop: FloatOrVid
    step: FloatOrVid | None = None
    dtype: DType = DType.Float32


@_dataclasses.dataclass(kw_only=True)
class FullNode:
    """table mlxd.ir.FullNode"""

    out: Tid
    shape: list[IntOrVid] | None = None
    value: FloatOrVid
    dtype: DType = DType.Float32


@_dataclasses.dataclass(kw_only=True)
class FullLikeNode:
    """table mlxd.ir.FullLikeNode"""

    x: Tid
    out: Tid
    value: float = 0.0
    dtype: DType | None = None


# out = x.shape[dim]
@_dataclasses.dataclass(kw_only=True)
class SymSizeNode:
    """table mlxd.ir.SymSizeNode"""

    x: Tid
    dim: int = 0
    out: Vid


# out = the value of a one-element tensor
@_dataclasses.dataclass(kw_only=True)
class ItemNode:
    """table mlxd.ir.ItemNode"""

    x: Tid
    out: Vid


@_dataclasses.dataclass(kw_only=True)
class IntBinaryNode:
    """table mlxd.ir.IntBinaryNode"""

    op: IntBinaryOp = IntBinaryOp.Add
    a: IntOrVid
    b: IntOrVid
    out: Vid


# x[..., indices, ...] = values along `axis` (torch.index_put with one index
# tensor, and index_copy): out = x with out[indices[i]] = values[i] on `axis`;
# `indices` is 1-D (negative counts from the end), `values` has x's shape but
# len(indices) on `axis` (the compiler broadcasts it).
@_dataclasses.dataclass(kw_only=True)
class IndexPutNode:
    """table mlxd.ir.IndexPutNode"""

    x: Tid
    indices: Tid
    values: Tid
    out: Tid
    axis: int = 0


@_dataclasses.dataclass(kw_only=True)
class TanNode:
    """table mlxd.ir.TanNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class SinhNode:
    """table mlxd.ir.SinhNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class CoshNode:
    """table mlxd.ir.CoshNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class ArcSinNode:
    """table mlxd.ir.ArcSinNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class ArcCosNode:
    """table mlxd.ir.ArcCosNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class ArcTanNode:
    """table mlxd.ir.ArcTanNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class ArcSinhNode:
    """table mlxd.ir.ArcSinhNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class ArcCoshNode:
    """table mlxd.ir.ArcCoshNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class ArcTanhNode:
    """table mlxd.ir.ArcTanhNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class Log2Node:
    """table mlxd.ir.Log2Node"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class Log10Node:
    """table mlxd.ir.Log10Node"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class Log1pNode:
    """table mlxd.ir.Log1pNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class Expm1Node:
    """table mlxd.ir.Expm1Node"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class SignNode:
    """table mlxd.ir.SignNode"""

    x: Tid
    out: Tid


# Rounds toward zero.
@_dataclasses.dataclass(kw_only=True)
class TruncNode:
    """table mlxd.ir.TruncNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class SquareNode:
    """table mlxd.ir.SquareNode"""

    x: Tid
    out: Tid


# Results are bool.
@_dataclasses.dataclass(kw_only=True)
class IsNanNode:
    """table mlxd.ir.IsNanNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class IsInfNode:
    """table mlxd.ir.IsInfNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class IsPosInfNode:
    """table mlxd.ir.IsPosInfNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class IsNegInfNode:
    """table mlxd.ir.IsNegInfNode"""

    x: Tid
    out: Tid


# Bitwise ops on integers; on bool they are the logical ops.
@_dataclasses.dataclass(kw_only=True)
class BitwiseNotNode:
    """table mlxd.ir.BitwiseNotNode"""

    x: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class BitwiseAndNode:
    """table mlxd.ir.BitwiseAndNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class BitwiseOrNode:
    """table mlxd.ir.BitwiseOrNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class BitwiseXorNode:
    """table mlxd.ir.BitwiseXorNode"""

    a: Tid
    b: Tid
    out: Tid


# atan2(a, b): the angle of the point (b, a).
@_dataclasses.dataclass(kw_only=True)
class ArcTan2Node:
    """table mlxd.ir.ArcTan2Node"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class LogAddExpNode:
    """table mlxd.ir.LogAddExpNode"""

    a: Tid
    b: Tid
    out: Tid


# PyTorch's remainder: a - floor(a / b) * b, so a nonzero result has the
# sign of the divisor b (not C's fmod, whose result has the sign of a).
@_dataclasses.dataclass(kw_only=True)
class RemainderNode:
    """table mlxd.ir.RemainderNode"""

    a: Tid
    b: Tid
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class LogSumExpNode:
    """table mlxd.ir.LogSumExpNode"""

    x: Tid
    out: Tid
    axes: list[int] | None = None
    keepdims: bool = False


# Inclusive cumulative product along `axis`; `reverse` multiplies from the end.
@_dataclasses.dataclass(kw_only=True)
class CumProdNode:
    """table mlxd.ir.CumProdNode"""

    x: Tid
    out: Tid
    axis: int = 0
    reverse: bool = False


# Sorts along `axis`: `values_out` the sorted values, `indices_out` (uint32,
# the compiler casts) their positions in x; either may be absent. Ascending
# sorts are stable; a descending sort is the ascending one reversed.
@_dataclasses.dataclass(kw_only=True)
class SortNode:
    """table mlxd.ir.SortNode"""

    x: Tid
    values_out: Tid | None = None
    indices_out: Tid | None = None
    axis: int = -1
    descending: bool = False


# Rolls x by shifts[i] along axes[i]; no axes: the flattened x by shifts[0],
# reshaped back.
@_dataclasses.dataclass(kw_only=True)
class RollNode:
    """table mlxd.ir.RollNode"""

    x: Tid
    out: Tid
    shifts: list[int] | None = None
    axes: list[int] | None = None


class PoolKind(_enum.IntEnum):
    Max = 0
    Avg = 1


# Max or average pooling over the trailing kernel.length axes of x (PyTorch's
# layout: (N, C, *spatial) or (C, *spatial)); kernel, stride, padding and
# dilation have one entry per pooled axis. Max pads with -inf, average with
# zeros, counted in the divisor when count_include_pad (PyTorch's rules,
# ceil_mode included); divisor_override > 0 replaces the divisor.
# `indices_out` (max only, int64): each maximum's flat index into its input
# plane, as PyTorch's max_pool*_with_indices.
@_dataclasses.dataclass(kw_only=True)
class PoolNode:
    """table mlxd.ir.PoolNode"""

    x: Tid
    out: Tid
    indices_out: Tid | None = None
    kind: PoolKind = PoolKind.Max
    kernel: list[int] | None = None
    stride: list[int] | None = None
    padding: list[int] | None = None
    dilation: list[int] | None = None
    ceil_mode: bool = False
    count_include_pad: bool = True
    divisor_override: int = 0


class UpsampleMode(_enum.IntEnum):
    Nearest = 0
    Linear = 1


# Resizes the trailing out_size.length axes of x to out_size. Output position
# i of an axis reads input coordinate src(i): Nearest: floor(i * scales[a]);
# Linear (bilinear, trilinear: separable): align_corners: i * (in - 1) /
# (out - 1), else max(0, (i + 0.5) * scales[a] - 0.5), interpolating the two
# neighbours. scales[a] is 1 / scale_factor where PyTorch was given one;
# absent or <= 0: in / out. Coordinates are computed in float32, as PyTorch
# does.
@_dataclasses.dataclass(kw_only=True)
class UpsampleNode:
    """table mlxd.ir.UpsampleNode"""

    x: Tid
    out: Tid
    mode: UpsampleMode = UpsampleMode.Nearest
    align_corners: bool = False
    out_size: list[int] | None = None
    scales: list[float] | None = None


# Every op. Append only: a member's position is its OpCode.
# Operands arrive as bool (nonzero is true).
@_dataclasses.dataclass(kw_only=True)
class LogicalXorNode:
    """table mlxd.ir.LogicalXorNode"""

    a: Tid
    b: Tid
    out: Tid


# torch.cond: evaluates `pred` (one element, nonzero is true; this forces
# what has been computed so far) and runs `then_chain` if it is true, else
# `else_chain`. Either chain writes the results into `outs`.
@_dataclasses.dataclass(kw_only=True)
class CondNode:
    """table mlxd.ir.CondNode"""

    pred: Tid
    then_chain: int = 0
    else_chain: int = 0
    # What the branches read, listed so that one chain shows every reader.
    operands: list[Tid] | None = None
    outs: list[Tid] | None = None


# torch while_loop: `outs` hold the loop state, first set from `inits`
# (same length). Then, while `cond_chain` leaves a true value in `pred_out`
# (one element, nonzero is true), `body_chain` runs and writes the next
# state into `outs`. Both chains read the state from `outs`.
@_dataclasses.dataclass(kw_only=True)
class WhileNode:
    """table mlxd.ir.WhileNode"""

    inits: list[Tid] | None = None
    outs: list[Tid] | None = None
    cond_chain: int = 0
    body_chain: int = 0
    # Written by `cond_chain`, read by the loop after each run of it.
    pred_out: Tid
    # What the chains read besides the loop state (loop-invariant inputs).
    operands: list[Tid] | None = None


# The next token of a language model, sampled in the program so that only
# its id crosses back (torch: the custom op mlx_delegate::sample). logits
# (1, V) float; temperature, top_p, uniform (1,) float32; out (1,) int64.
# A temperature of 0 or less is greedy: out = argmax(logits), and nothing
# else runs (no sort of the vocabulary). Else top-p: p = softmax(logits /
# temperature); of the tokens by p, largest first, keep the smallest prefix
# whose p reaches top_p (each token whose predecessors' sum is below top_p);
# out is the kept token at which their running sum first exceeds uniform
# times their total (inverse CDF).
@_dataclasses.dataclass(kw_only=True)
class SampleNode:
    """table mlxd.ir.SampleNode"""

    logits: Tid
    temperature: Tid
    top_p: Tid
    uniform: Tid
    out: Tid


# The elementwise sum of `x` over every process of the program's process
# group, in each process (MLX's distributed all_sum; torch: the custom op
# mlx_delegate::all_sum). The group is the process's own, set up once from
# the standard MLX environment or an explicit call; a process alone is a
# group of one, where out = x. Tensor-parallel programs sum the row-parallel
# projections' partial outputs with it. `group_size`: the number of
# processes the program was made for; running in a group of another size is
# an error, not a wrong sum.
@_dataclasses.dataclass(kw_only=True)
class AllSumNode:
    """table mlxd.ir.AllSumNode"""

    x: Tid
    group_size: int = 1
    out: Tid


# `x` of every process of the group concatenated along axis 0, in rank
# order (MLX's distributed all_gather; torch: mlx_delegate::all_gather):
# out's first axis is `group_size` (as AllSumNode's) times x's.
@_dataclasses.dataclass(kw_only=True)
class AllGatherNode:
    """table mlxd.ir.AllGatherNode"""

    x: Tid
    group_size: int = 1
    out: Tid


@_dataclasses.dataclass(kw_only=True)
class Instruction:
    """table mlxd.ir.Instruction"""

    op: OpNode
    op_type: OpNodeType | None = None


@_dataclasses.dataclass(kw_only=True)
class InstructionChain:
    """table mlxd.ir.InstructionChain"""

    instructions: list[Instruction] | None = None


# The root graph of one delegate payload.
@_dataclasses.dataclass(kw_only=True)
class MLXGraph:
    """table mlxd.ir.MLXGraph"""

    version: int = 1
    num_constant_tensors: int = 0
    num_input_tensors: int = 0
    num_output_tensors: int = 0
    num_mutable_buffer_tensors: int = 0
    num_temp_tensors: int = 0
    num_values: int = 0
    instruction_chains: list[InstructionChain] | None = None
    # The chain run by every execute().
    main_chain: int = 0
    # A chain run once at load time (e.g. to initialise buffers); -1: none.
    init_chain: int = -1
    input_map: list[SlotRef] | None = None
    output_map: list[SlotRef] | None = None
    mutable_buffer_map: list[SlotRef] | None = None
    named_slots: list[NamedSlot] | None = None
    tensor_meta: list[TensorMeta] | None = None
    # Run the chains as compiled functions (MLX fuses their elementwise ops);
    # false: instruction by instruction (a debugging switch, the compile spec
    # `compile`). The results are the same either way, so a program without
    # the field keeps its meaning when compiled.
    compile_chains: bool = True
    # The call after this one, as the program predicts it; absent: no prediction.
    run_ahead: RunAhead | None = None


# What a program says its next call will be, so that the runtime can build
# that call's graph and start it on the device before this call returns:
# the host's work for one call then overlaps the device's work for the one
# before (an LLM's decode step, where the host building a step's graph takes
# a quarter of the step). The next call's inputs are predicted from this
# one's: an input named in `fed_inputs` is this call's output at the same
# position of `fed_from_outputs`, reshaped to the input's shape with its one
# dynamic dimension taking the rest; an input in `advanced_inputs` (an
# integer, one element) is larger by the element count of the first fed
# input in this call (an LLM's position moves on by the tokens it took); every
# other input is the same. A call whose inputs differ from the prediction
# runs as usual, after the predicted one. So a program that declares this
# vouches that a predicted call's writes to its state are harmless when the
# prediction fails: an LLM writes its cache at the positions it is given, in
# order, and reads no position it has not written in this sequence.
@_dataclasses.dataclass(kw_only=True)
class RunAhead:
    """table mlxd.ir.RunAhead"""

    # Input positions (of input_map) fed from this call's outputs.
    fed_inputs: list[int] | None = None
    # For each fed input, the output position (of output_map) it takes.
    fed_from_outputs: list[int] | None = None
    # Input positions that move on by the tokens this call took.
    advanced_inputs: list[int] | None = None


# What ExecuTorch hands the delegate backend `backend_id` for one method: this
# header, the MLXGraph FlatBuffer, zero padding to `alignment` bytes, then a
# data segment of `data_size` bytes at `data_offset` (counted from the start of
# the payload; 0 and 0: no segment, the FlatBuffer runs to the end). Integers
# are little-endian. Codegen turns this into the header constants of each
# language (generated/cpp/mlx_payload.h, generated/python/schema_payload.py);
# each language has one parser of it.
@_dataclasses.dataclass(kw_only=True)
class PayloadHeader:
    """struct mlxd.ir.PayloadHeader: 24 bytes, aligned to 8."""

    zero: int = 0
    magic: list[int] = _dataclasses.field(default_factory=lambda: [0] * 4)
    data_offset: int = 0
    data_size: int = 0


OpNode = _typing.Union[
    AddNode,
    SubtractNode,
    MultiplyNode,
    DivideNode,
    PowerNode,
    MaximumNode,
    MinimumNode,
    EqualNode,
    NotEqualNode,
    LessNode,
    LessEqualNode,
    GreaterNode,
    GreaterEqualNode,
    LogicalAndNode,
    LogicalOrNode,
    NegNode,
    AbsNode,
    ExpNode,
    LogNode,
    SqrtNode,
    RsqrtNode,
    SinNode,
    CosNode,
    TanhNode,
    SigmoidNode,
    ErfNode,
    FloorNode,
    CeilNode,
    RoundNode,
    ReciprocalNode,
    LogicalNotNode,
    ReluNode,
    SiluNode,
    GeluNode,
    LeakyReluNode,
    ClipNode,
    WhereNode,
    AsTypeNode,
    CopyNode,
    SumNode,
    MeanNode,
    MaxNode,
    MinNode,
    ProdNode,
    AnyNode,
    AllNode,
    VarNode,
    StdNode,
    ArgMaxNode,
    ArgMinNode,
    CumSumNode,
    SoftmaxNode,
    LogSoftmaxNode,
    LinearNode,
    AddmmNode,
    MatmulNode,
    LayerNormNode,
    RmsNormNode,
    ConvNode,
    ScaledDotProductAttentionNode,
    ReshapeNode,
    TransposeNode,
    ExpandDimsNode,
    SqueezeNode,
    BroadcastToNode,
    SliceNode,
    SelectNode,
    ConcatenateNode,
    StackNode,
    SplitNode,
    TileNode,
    FlipNode,
    PadNode,
    TrilNode,
    TriuNode,
    TakeNode,
    TakeAlongAxisNode,
    IndexNode,
    ScatterAddNode,
    SliceUpdateNode,
    ArangeNode,
    FullNode,
    FullLikeNode,
    SymSizeNode,
    ItemNode,
    IntBinaryNode,
    IndexPutNode,
    TanNode,
    SinhNode,
    CoshNode,
    ArcSinNode,
    ArcCosNode,
    ArcTanNode,
    ArcSinhNode,
    ArcCoshNode,
    ArcTanhNode,
    Log2Node,
    Log10Node,
    Log1pNode,
    Expm1Node,
    SignNode,
    TruncNode,
    SquareNode,
    IsNanNode,
    IsInfNode,
    BitwiseNotNode,
    BitwiseAndNode,
    BitwiseOrNode,
    BitwiseXorNode,
    ArcTan2Node,
    LogAddExpNode,
    RemainderNode,
    LogSumExpNode,
    CumProdNode,
    SortNode,
    RollNode,
    PoolNode,
    UpsampleNode,
    LogicalXorNode,
    CondNode,
    WhileNode,
    IsPosInfNode,
    IsNegInfNode,
    QuantizedLinearNode,
    DequantizeNode,
    RopeNode,
    GatherMMNode,
    GatherQMMNode,
    ScatterNode,
    SampleNode,
    AllSumNode,
    AllGatherNode,
]


class OpNodeType(_enum.IntEnum):
    """Discriminants of union mlxd.ir.OpNode."""

    NONE = 0
    AddNode = 1
    SubtractNode = 2
    MultiplyNode = 3
    DivideNode = 4
    PowerNode = 5
    MaximumNode = 6
    MinimumNode = 7
    EqualNode = 8
    NotEqualNode = 9
    LessNode = 10
    LessEqualNode = 11
    GreaterNode = 12
    GreaterEqualNode = 13
    LogicalAndNode = 14
    LogicalOrNode = 15
    NegNode = 16
    AbsNode = 17
    ExpNode = 18
    LogNode = 19
    SqrtNode = 20
    RsqrtNode = 21
    SinNode = 22
    CosNode = 23
    TanhNode = 24
    SigmoidNode = 25
    ErfNode = 26
    FloorNode = 27
    CeilNode = 28
    RoundNode = 29
    ReciprocalNode = 30
    LogicalNotNode = 31
    ReluNode = 32
    SiluNode = 33
    GeluNode = 34
    LeakyReluNode = 35
    ClipNode = 36
    WhereNode = 37
    AsTypeNode = 38
    CopyNode = 39
    SumNode = 40
    MeanNode = 41
    MaxNode = 42
    MinNode = 43
    ProdNode = 44
    AnyNode = 45
    AllNode = 46
    VarNode = 47
    StdNode = 48
    ArgMaxNode = 49
    ArgMinNode = 50
    CumSumNode = 51
    SoftmaxNode = 52
    LogSoftmaxNode = 53
    LinearNode = 54
    AddmmNode = 55
    MatmulNode = 56
    LayerNormNode = 57
    RmsNormNode = 58
    ConvNode = 59
    ScaledDotProductAttentionNode = 60
    ReshapeNode = 61
    TransposeNode = 62
    ExpandDimsNode = 63
    SqueezeNode = 64
    BroadcastToNode = 65
    SliceNode = 66
    SelectNode = 67
    ConcatenateNode = 68
    StackNode = 69
    SplitNode = 70
    TileNode = 71
    FlipNode = 72
    PadNode = 73
    TrilNode = 74
    TriuNode = 75
    TakeNode = 76
    TakeAlongAxisNode = 77
    IndexNode = 78
    ScatterAddNode = 79
    SliceUpdateNode = 80
    ArangeNode = 81
    FullNode = 82
    FullLikeNode = 83
    SymSizeNode = 84
    ItemNode = 85
    IntBinaryNode = 86
    IndexPutNode = 87
    TanNode = 88
    SinhNode = 89
    CoshNode = 90
    ArcSinNode = 91
    ArcCosNode = 92
    ArcTanNode = 93
    ArcSinhNode = 94
    ArcCoshNode = 95
    ArcTanhNode = 96
    Log2Node = 97
    Log10Node = 98
    Log1pNode = 99
    Expm1Node = 100
    SignNode = 101
    TruncNode = 102
    SquareNode = 103
    IsNanNode = 104
    IsInfNode = 105
    BitwiseNotNode = 106
    BitwiseAndNode = 107
    BitwiseOrNode = 108
    BitwiseXorNode = 109
    ArcTan2Node = 110
    LogAddExpNode = 111
    RemainderNode = 112
    LogSumExpNode = 113
    CumProdNode = 114
    SortNode = 115
    RollNode = 116
    PoolNode = 117
    UpsampleNode = 118
    LogicalXorNode = 119
    CondNode = 120
    WhileNode = 121
    IsPosInfNode = 122
    IsNegInfNode = 123
    QuantizedLinearNode = 124
    DequantizeNode = 125
    RopeNode = 126
    GatherMMNode = 127
    GatherQMMNode = 128
    ScatterNode = 129
    SampleNode = 130
    AllSumNode = 131
    AllGatherNode = 132


# member class -> discriminant of union mlxd.ir.OpNode (first member of a class wins)
OpNode_TYPES: dict[type, OpNodeType] = {
    AddNode: OpNodeType.AddNode,
    SubtractNode: OpNodeType.SubtractNode,
    MultiplyNode: OpNodeType.MultiplyNode,
    DivideNode: OpNodeType.DivideNode,
    PowerNode: OpNodeType.PowerNode,
    MaximumNode: OpNodeType.MaximumNode,
    MinimumNode: OpNodeType.MinimumNode,
    EqualNode: OpNodeType.EqualNode,
    NotEqualNode: OpNodeType.NotEqualNode,
    LessNode: OpNodeType.LessNode,
    LessEqualNode: OpNodeType.LessEqualNode,
    GreaterNode: OpNodeType.GreaterNode,
    GreaterEqualNode: OpNodeType.GreaterEqualNode,
    LogicalAndNode: OpNodeType.LogicalAndNode,
    LogicalOrNode: OpNodeType.LogicalOrNode,
    NegNode: OpNodeType.NegNode,
    AbsNode: OpNodeType.AbsNode,
    ExpNode: OpNodeType.ExpNode,
    LogNode: OpNodeType.LogNode,
    SqrtNode: OpNodeType.SqrtNode,
    RsqrtNode: OpNodeType.RsqrtNode,
    SinNode: OpNodeType.SinNode,
    CosNode: OpNodeType.CosNode,
    TanhNode: OpNodeType.TanhNode,
    SigmoidNode: OpNodeType.SigmoidNode,
    ErfNode: OpNodeType.ErfNode,
    FloorNode: OpNodeType.FloorNode,
    CeilNode: OpNodeType.CeilNode,
    RoundNode: OpNodeType.RoundNode,
    ReciprocalNode: OpNodeType.ReciprocalNode,
    LogicalNotNode: OpNodeType.LogicalNotNode,
    ReluNode: OpNodeType.ReluNode,
    SiluNode: OpNodeType.SiluNode,
    GeluNode: OpNodeType.GeluNode,
    LeakyReluNode: OpNodeType.LeakyReluNode,
    ClipNode: OpNodeType.ClipNode,
    WhereNode: OpNodeType.WhereNode,
    AsTypeNode: OpNodeType.AsTypeNode,
    CopyNode: OpNodeType.CopyNode,
    SumNode: OpNodeType.SumNode,
    MeanNode: OpNodeType.MeanNode,
    MaxNode: OpNodeType.MaxNode,
    MinNode: OpNodeType.MinNode,
    ProdNode: OpNodeType.ProdNode,
    AnyNode: OpNodeType.AnyNode,
    AllNode: OpNodeType.AllNode,
    VarNode: OpNodeType.VarNode,
    StdNode: OpNodeType.StdNode,
    ArgMaxNode: OpNodeType.ArgMaxNode,
    ArgMinNode: OpNodeType.ArgMinNode,
    CumSumNode: OpNodeType.CumSumNode,
    SoftmaxNode: OpNodeType.SoftmaxNode,
    LogSoftmaxNode: OpNodeType.LogSoftmaxNode,
    LinearNode: OpNodeType.LinearNode,
    AddmmNode: OpNodeType.AddmmNode,
    MatmulNode: OpNodeType.MatmulNode,
    LayerNormNode: OpNodeType.LayerNormNode,
    RmsNormNode: OpNodeType.RmsNormNode,
    ConvNode: OpNodeType.ConvNode,
    ScaledDotProductAttentionNode: OpNodeType.ScaledDotProductAttentionNode,
    ReshapeNode: OpNodeType.ReshapeNode,
    TransposeNode: OpNodeType.TransposeNode,
    ExpandDimsNode: OpNodeType.ExpandDimsNode,
    SqueezeNode: OpNodeType.SqueezeNode,
    BroadcastToNode: OpNodeType.BroadcastToNode,
    SliceNode: OpNodeType.SliceNode,
    SelectNode: OpNodeType.SelectNode,
    ConcatenateNode: OpNodeType.ConcatenateNode,
    StackNode: OpNodeType.StackNode,
    SplitNode: OpNodeType.SplitNode,
    TileNode: OpNodeType.TileNode,
    FlipNode: OpNodeType.FlipNode,
    PadNode: OpNodeType.PadNode,
    TrilNode: OpNodeType.TrilNode,
    TriuNode: OpNodeType.TriuNode,
    TakeNode: OpNodeType.TakeNode,
    TakeAlongAxisNode: OpNodeType.TakeAlongAxisNode,
    IndexNode: OpNodeType.IndexNode,
    ScatterAddNode: OpNodeType.ScatterAddNode,
    SliceUpdateNode: OpNodeType.SliceUpdateNode,
    ArangeNode: OpNodeType.ArangeNode,
    FullNode: OpNodeType.FullNode,
    FullLikeNode: OpNodeType.FullLikeNode,
    SymSizeNode: OpNodeType.SymSizeNode,
    ItemNode: OpNodeType.ItemNode,
    IntBinaryNode: OpNodeType.IntBinaryNode,
    IndexPutNode: OpNodeType.IndexPutNode,
    TanNode: OpNodeType.TanNode,
    SinhNode: OpNodeType.SinhNode,
    CoshNode: OpNodeType.CoshNode,
    ArcSinNode: OpNodeType.ArcSinNode,
    ArcCosNode: OpNodeType.ArcCosNode,
    ArcTanNode: OpNodeType.ArcTanNode,
    ArcSinhNode: OpNodeType.ArcSinhNode,
    ArcCoshNode: OpNodeType.ArcCoshNode,
    ArcTanhNode: OpNodeType.ArcTanhNode,
    Log2Node: OpNodeType.Log2Node,
    Log10Node: OpNodeType.Log10Node,
    Log1pNode: OpNodeType.Log1pNode,
    Expm1Node: OpNodeType.Expm1Node,
    SignNode: OpNodeType.SignNode,
    TruncNode: OpNodeType.TruncNode,
    SquareNode: OpNodeType.SquareNode,
    IsNanNode: OpNodeType.IsNanNode,
    IsInfNode: OpNodeType.IsInfNode,
    BitwiseNotNode: OpNodeType.BitwiseNotNode,
    BitwiseAndNode: OpNodeType.BitwiseAndNode,
    BitwiseOrNode: OpNodeType.BitwiseOrNode,
    BitwiseXorNode: OpNodeType.BitwiseXorNode,
    ArcTan2Node: OpNodeType.ArcTan2Node,
    LogAddExpNode: OpNodeType.LogAddExpNode,
    RemainderNode: OpNodeType.RemainderNode,
    LogSumExpNode: OpNodeType.LogSumExpNode,
    CumProdNode: OpNodeType.CumProdNode,
    SortNode: OpNodeType.SortNode,
    RollNode: OpNodeType.RollNode,
    PoolNode: OpNodeType.PoolNode,
    UpsampleNode: OpNodeType.UpsampleNode,
    LogicalXorNode: OpNodeType.LogicalXorNode,
    CondNode: OpNodeType.CondNode,
    WhileNode: OpNodeType.WhileNode,
    IsPosInfNode: OpNodeType.IsPosInfNode,
    IsNegInfNode: OpNodeType.IsNegInfNode,
    QuantizedLinearNode: OpNodeType.QuantizedLinearNode,
    DequantizeNode: OpNodeType.DequantizeNode,
    RopeNode: OpNodeType.RopeNode,
    GatherMMNode: OpNodeType.GatherMMNode,
    GatherQMMNode: OpNodeType.GatherQMMNode,
    ScatterNode: OpNodeType.ScatterNode,
    SampleNode: OpNodeType.SampleNode,
    AllSumNode: OpNodeType.AllSumNode,
    AllGatherNode: OpNodeType.AllGatherNode,
}


def _scalars(builder, fmt, size, alignment, values):
    """A vector of scalars; `values` is a sequence of numbers, or a bytes-like
    object holding the little-endian elements."""
    if isinstance(values, (bytes, bytearray, memoryview)):
        if isinstance(values, memoryview) and values.itemsize not in (1, size):
            raise ValueError(
                "a buffer of %d-byte items for %d-byte elements" % (values.itemsize, size)
            )
        data = bytes(values)
        if len(data) % size:
            raise ValueError(
                "%d bytes is not a whole number of %d-byte elements" % (len(data), size)
            )
        count = len(data) // size
    else:
        count = len(values)
        data = _struct.pack("<%d%s" % (count, fmt), *values)
    builder.StartVector(size, count, alignment)
    builder.head = builder.head - len(data)
    builder.Bytes[builder.head : builder.head + len(data)] = data
    return builder.EndVector()


def _offsets(builder, offsets):
    """A vector of offsets to already written strings, tables or unions."""
    builder.StartVector(4, len(offsets), 4)
    for offset in reversed(offsets):
        builder.PrependUOffsetTRelative(offset)
    return builder.EndVector()


def _union_type(types, explicit, value, where):
    """The discriminant of a union value: `explicit` if given, else from the
    value's class."""
    if explicit is not None:
        return explicit
    kind = types.get(type(value))
    if kind is not None:
        return kind
    for cls, kind in types.items():
        if isinstance(value, cls):
            return kind
    raise TypeError("%s: %s is not a member of the union" % (where, type(value).__name__))


def _check_member(value, cls, where):
    if not isinstance(value, cls):
        raise TypeError("%s takes a %s, not %s" % (where, cls.__name__, type(value).__name__))


def _check_length(values, length, where):
    if len(values) != length:
        raise ValueError("%s: expected %d elements, got %d" % (where, length, len(values)))


class Builders:
    """Serializer mixin: one method per table (`build_<Table>`), struct
    (`write_<Struct>`) and union (`build_<Union>`). Each takes the
    `flatbuffers.Builder` to write into and returns the offset of what it wrote;
    nested values go through `self`, so a subclass may override any of them."""

    def write_Tid(self, builder, obj):
        """Prepend struct mlxd.ir.Tid inline; returns its offset."""
        builder.Prep(4, 4)
        builder.PrependUint32(obj.idx)
        return builder.Offset()

    def write_Vid(self, builder, obj):
        """Prepend struct mlxd.ir.Vid inline; returns its offset."""
        builder.Prep(4, 4)
        builder.PrependUint32(obj.idx)
        return builder.Offset()

    def build_IntOrVid(self, builder, obj):
        """Write table mlxd.ir.IntOrVid; returns its offset."""
        builder.StartObject(2)
        builder.PrependInt64Slot(0, obj.literal, 0)
        if obj.vid is not None:
            self.write_Vid(builder, obj.vid)
            builder.Slot(1)
        return builder.EndObject()

    def build_FloatOrVid(self, builder, obj):
        """Write table mlxd.ir.FloatOrVid; returns its offset."""
        builder.StartObject(2)
        builder.PrependFloat64Slot(0, obj.literal, 0.0)
        if obj.vid is not None:
            self.write_Vid(builder, obj.vid)
            builder.Slot(1)
        return builder.EndObject()

    def build_TidOrVid(self, builder, obj):
        """Write table mlxd.ir.TidOrVid; returns its offset."""
        builder.StartObject(2)
        if obj.tid is not None:
            self.write_Tid(builder, obj.tid)
            builder.Slot(0)
        if obj.vid is not None:
            self.write_Vid(builder, obj.vid)
            builder.Slot(1)
        return builder.EndObject()

    def write_SlotRef(self, builder, obj):
        """Prepend struct mlxd.ir.SlotRef inline; returns its offset."""
        builder.Prep(4, 8)
        builder.PrependUint32(obj.idx)
        builder.Pad(3)
        builder.PrependUint8(obj.kind)
        return builder.Offset()

    def build_TensorMeta(self, builder, obj):
        """Write table mlxd.ir.TensorMeta; returns its offset."""
        o0 = (
            None
            if obj.shape is None
            else _offsets(builder, [self.build_IntOrVid(builder, x) for x in obj.shape])
        )
        builder.StartObject(2)
        if o0 is not None:
            builder.PrependUOffsetTRelativeSlot(0, o0, 0)
        builder.PrependInt8Slot(1, obj.dtype, 0)
        return builder.EndObject()

    def build_NamedSlot(self, builder, obj):
        """Write table mlxd.ir.NamedSlot; returns its offset."""
        if obj.name is None:
            raise ValueError("mlxd.ir.NamedSlot.name is required")
        o0 = None if obj.name is None else builder.CreateString(obj.name)
        if obj.slot is None:
            raise ValueError("mlxd.ir.NamedSlot.slot is required")
        builder.StartObject(2)
        if o0 is not None:
            builder.PrependUOffsetTRelativeSlot(0, o0, 0)
        self.write_Tid(builder, obj.slot)
        builder.Slot(1)
        return builder.EndObject()

    def build_AddNode(self, builder, obj):
        """Write table mlxd.ir.AddNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.AddNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.AddNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.AddNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_SubtractNode(self, builder, obj):
        """Write table mlxd.ir.SubtractNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.SubtractNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.SubtractNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SubtractNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_MultiplyNode(self, builder, obj):
        """Write table mlxd.ir.MultiplyNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.MultiplyNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.MultiplyNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.MultiplyNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_DivideNode(self, builder, obj):
        """Write table mlxd.ir.DivideNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.DivideNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.DivideNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.DivideNode.out is required")
        builder.StartObject(4)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        builder.PrependInt8Slot(3, obj.rounding, 0)
        return builder.EndObject()

    def build_PowerNode(self, builder, obj):
        """Write table mlxd.ir.PowerNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.PowerNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.PowerNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.PowerNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_MaximumNode(self, builder, obj):
        """Write table mlxd.ir.MaximumNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.MaximumNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.MaximumNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.MaximumNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_MinimumNode(self, builder, obj):
        """Write table mlxd.ir.MinimumNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.MinimumNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.MinimumNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.MinimumNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_EqualNode(self, builder, obj):
        """Write table mlxd.ir.EqualNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.EqualNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.EqualNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.EqualNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_NotEqualNode(self, builder, obj):
        """Write table mlxd.ir.NotEqualNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.NotEqualNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.NotEqualNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.NotEqualNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_LessNode(self, builder, obj):
        """Write table mlxd.ir.LessNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.LessNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.LessNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LessNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_LessEqualNode(self, builder, obj):
        """Write table mlxd.ir.LessEqualNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.LessEqualNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.LessEqualNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LessEqualNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_GreaterNode(self, builder, obj):
        """Write table mlxd.ir.GreaterNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.GreaterNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.GreaterNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.GreaterNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_GreaterEqualNode(self, builder, obj):
        """Write table mlxd.ir.GreaterEqualNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.GreaterEqualNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.GreaterEqualNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.GreaterEqualNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_LogicalAndNode(self, builder, obj):
        """Write table mlxd.ir.LogicalAndNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.LogicalAndNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.LogicalAndNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LogicalAndNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_LogicalOrNode(self, builder, obj):
        """Write table mlxd.ir.LogicalOrNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.LogicalOrNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.LogicalOrNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LogicalOrNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_NegNode(self, builder, obj):
        """Write table mlxd.ir.NegNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.NegNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.NegNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_AbsNode(self, builder, obj):
        """Write table mlxd.ir.AbsNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.AbsNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.AbsNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_ExpNode(self, builder, obj):
        """Write table mlxd.ir.ExpNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ExpNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ExpNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_LogNode(self, builder, obj):
        """Write table mlxd.ir.LogNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.LogNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LogNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_SqrtNode(self, builder, obj):
        """Write table mlxd.ir.SqrtNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SqrtNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SqrtNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_RsqrtNode(self, builder, obj):
        """Write table mlxd.ir.RsqrtNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.RsqrtNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.RsqrtNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_SinNode(self, builder, obj):
        """Write table mlxd.ir.SinNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SinNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SinNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_CosNode(self, builder, obj):
        """Write table mlxd.ir.CosNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.CosNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.CosNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_TanhNode(self, builder, obj):
        """Write table mlxd.ir.TanhNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.TanhNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.TanhNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_SigmoidNode(self, builder, obj):
        """Write table mlxd.ir.SigmoidNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SigmoidNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SigmoidNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_ErfNode(self, builder, obj):
        """Write table mlxd.ir.ErfNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ErfNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ErfNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_FloorNode(self, builder, obj):
        """Write table mlxd.ir.FloorNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.FloorNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.FloorNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_CeilNode(self, builder, obj):
        """Write table mlxd.ir.CeilNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.CeilNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.CeilNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_RoundNode(self, builder, obj):
        """Write table mlxd.ir.RoundNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.RoundNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.RoundNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.decimals, 0)
        return builder.EndObject()

    def build_ReciprocalNode(self, builder, obj):
        """Write table mlxd.ir.ReciprocalNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ReciprocalNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ReciprocalNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_LogicalNotNode(self, builder, obj):
        """Write table mlxd.ir.LogicalNotNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.LogicalNotNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LogicalNotNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_ReluNode(self, builder, obj):
        """Write table mlxd.ir.ReluNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ReluNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ReluNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_SiluNode(self, builder, obj):
        """Write table mlxd.ir.SiluNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SiluNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SiluNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_GeluNode(self, builder, obj):
        """Write table mlxd.ir.GeluNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.GeluNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.GeluNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt8Slot(2, obj.approximation, 0)
        return builder.EndObject()

    def build_LeakyReluNode(self, builder, obj):
        """Write table mlxd.ir.LeakyReluNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.LeakyReluNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LeakyReluNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependFloat32Slot(2, obj.negative_slope, 0.01)
        return builder.EndObject()

    def build_ClipNode(self, builder, obj):
        """Write table mlxd.ir.ClipNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ClipNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ClipNode.out is required")
        o2 = None if obj.min is None else self.build_TidOrVid(builder, obj.min)
        o3 = None if obj.max is None else self.build_TidOrVid(builder, obj.max)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        if o3 is not None:
            builder.PrependUOffsetTRelativeSlot(3, o3, 0)
        return builder.EndObject()

    def build_WhereNode(self, builder, obj):
        """Write table mlxd.ir.WhereNode; returns its offset."""
        if obj.condition is None:
            raise ValueError("mlxd.ir.WhereNode.condition is required")
        if obj.a is None:
            raise ValueError("mlxd.ir.WhereNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.WhereNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.WhereNode.out is required")
        builder.StartObject(4)
        self.write_Tid(builder, obj.condition)
        builder.Slot(0)
        self.write_Tid(builder, obj.a)
        builder.Slot(1)
        self.write_Tid(builder, obj.b)
        builder.Slot(2)
        self.write_Tid(builder, obj.out)
        builder.Slot(3)
        return builder.EndObject()

    def build_AsTypeNode(self, builder, obj):
        """Write table mlxd.ir.AsTypeNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.AsTypeNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.AsTypeNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt8Slot(2, obj.dtype, 0)
        return builder.EndObject()

    def build_CopyNode(self, builder, obj):
        """Write table mlxd.ir.CopyNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.CopyNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.CopyNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_SumNode(self, builder, obj):
        """Write table mlxd.ir.SumNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SumNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SumNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_MeanNode(self, builder, obj):
        """Write table mlxd.ir.MeanNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.MeanNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.MeanNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_MaxNode(self, builder, obj):
        """Write table mlxd.ir.MaxNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.MaxNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.MaxNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_MinNode(self, builder, obj):
        """Write table mlxd.ir.MinNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.MinNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.MinNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_ProdNode(self, builder, obj):
        """Write table mlxd.ir.ProdNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ProdNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ProdNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_AnyNode(self, builder, obj):
        """Write table mlxd.ir.AnyNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.AnyNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.AnyNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_AllNode(self, builder, obj):
        """Write table mlxd.ir.AllNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.AllNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.AllNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_VarNode(self, builder, obj):
        """Write table mlxd.ir.VarNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.VarNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.VarNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(5)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependInt32Slot(4, obj.ddof, 1)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_StdNode(self, builder, obj):
        """Write table mlxd.ir.StdNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.StdNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.StdNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(5)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependInt32Slot(4, obj.ddof, 1)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_ArgMaxNode(self, builder, obj):
        """Write table mlxd.ir.ArgMaxNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ArgMaxNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ArgMaxNode.out is required")
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if obj.axis is not None:
            builder.PrependInt32Slot(2, obj.axis, None)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_ArgMinNode(self, builder, obj):
        """Write table mlxd.ir.ArgMinNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ArgMinNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ArgMinNode.out is required")
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if obj.axis is not None:
            builder.PrependInt32Slot(2, obj.axis, None)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_CumSumNode(self, builder, obj):
        """Write table mlxd.ir.CumSumNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.CumSumNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.CumSumNode.out is required")
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.axis, 0)
        builder.PrependBoolSlot(3, obj.reverse, False)
        return builder.EndObject()

    def build_SoftmaxNode(self, builder, obj):
        """Write table mlxd.ir.SoftmaxNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SoftmaxNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SoftmaxNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.axis, -1)
        return builder.EndObject()

    def build_LogSoftmaxNode(self, builder, obj):
        """Write table mlxd.ir.LogSoftmaxNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.LogSoftmaxNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LogSoftmaxNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.axis, -1)
        return builder.EndObject()

    def build_LinearNode(self, builder, obj):
        """Write table mlxd.ir.LinearNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.LinearNode.x is required")
        if obj.weight is None:
            raise ValueError("mlxd.ir.LinearNode.weight is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LinearNode.out is required")
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.weight)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        if obj.bias is not None:
            self.write_Tid(builder, obj.bias)
            builder.Slot(3)
        return builder.EndObject()

    def build_AddmmNode(self, builder, obj):
        """Write table mlxd.ir.AddmmNode; returns its offset."""
        if obj.bias is None:
            raise ValueError("mlxd.ir.AddmmNode.bias is required")
        if obj.mat1 is None:
            raise ValueError("mlxd.ir.AddmmNode.mat1 is required")
        if obj.mat2 is None:
            raise ValueError("mlxd.ir.AddmmNode.mat2 is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.AddmmNode.out is required")
        builder.StartObject(6)
        self.write_Tid(builder, obj.bias)
        builder.Slot(0)
        self.write_Tid(builder, obj.mat1)
        builder.Slot(1)
        self.write_Tid(builder, obj.mat2)
        builder.Slot(2)
        self.write_Tid(builder, obj.out)
        builder.Slot(3)
        builder.PrependFloat32Slot(4, obj.alpha, 1.0)
        builder.PrependFloat32Slot(5, obj.beta, 1.0)
        return builder.EndObject()

    def build_MatmulNode(self, builder, obj):
        """Write table mlxd.ir.MatmulNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.MatmulNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.MatmulNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.MatmulNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_QuantizedLinearNode(self, builder, obj):
        """Write table mlxd.ir.QuantizedLinearNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.QuantizedLinearNode.x is required")
        if obj.w is None:
            raise ValueError("mlxd.ir.QuantizedLinearNode.w is required")
        if obj.scales is None:
            raise ValueError("mlxd.ir.QuantizedLinearNode.scales is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.QuantizedLinearNode.out is required")
        builder.StartObject(11)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.w)
        builder.Slot(1)
        self.write_Tid(builder, obj.scales)
        builder.Slot(2)
        if obj.biases is not None:
            self.write_Tid(builder, obj.biases)
            builder.Slot(3)
        self.write_Tid(builder, obj.out)
        builder.Slot(4)
        if obj.bias is not None:
            self.write_Tid(builder, obj.bias)
            builder.Slot(5)
        builder.PrependInt32Slot(6, obj.group_size, 64)
        builder.PrependInt32Slot(7, obj.bits, 4)
        if obj.tensor_scale is not None:
            self.write_Tid(builder, obj.tensor_scale)
            builder.Slot(9)
        builder.PrependInt8Slot(8, obj.mode, 0)
        builder.PrependBoolSlot(10, obj.transpose, True)
        return builder.EndObject()

    def build_DequantizeNode(self, builder, obj):
        """Write table mlxd.ir.DequantizeNode; returns its offset."""
        if obj.w is None:
            raise ValueError("mlxd.ir.DequantizeNode.w is required")
        if obj.scales is None:
            raise ValueError("mlxd.ir.DequantizeNode.scales is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.DequantizeNode.out is required")
        builder.StartObject(8)
        self.write_Tid(builder, obj.w)
        builder.Slot(0)
        self.write_Tid(builder, obj.scales)
        builder.Slot(1)
        if obj.biases is not None:
            self.write_Tid(builder, obj.biases)
            builder.Slot(2)
        self.write_Tid(builder, obj.out)
        builder.Slot(3)
        builder.PrependInt32Slot(4, obj.group_size, 64)
        builder.PrependInt32Slot(5, obj.bits, 4)
        if obj.tensor_scale is not None:
            self.write_Tid(builder, obj.tensor_scale)
            builder.Slot(7)
        builder.PrependInt8Slot(6, obj.mode, 0)
        return builder.EndObject()

    def build_GatherMMNode(self, builder, obj):
        """Write table mlxd.ir.GatherMMNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.GatherMMNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.GatherMMNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.GatherMMNode.out is required")
        builder.StartObject(6)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        if obj.lhs_indices is not None:
            self.write_Tid(builder, obj.lhs_indices)
            builder.Slot(3)
        if obj.rhs_indices is not None:
            self.write_Tid(builder, obj.rhs_indices)
            builder.Slot(4)
        builder.PrependBoolSlot(5, obj.sorted_indices, False)
        return builder.EndObject()

    def build_GatherQMMNode(self, builder, obj):
        """Write table mlxd.ir.GatherQMMNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.GatherQMMNode.x is required")
        if obj.w is None:
            raise ValueError("mlxd.ir.GatherQMMNode.w is required")
        if obj.scales is None:
            raise ValueError("mlxd.ir.GatherQMMNode.scales is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.GatherQMMNode.out is required")
        builder.StartObject(12)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.w)
        builder.Slot(1)
        self.write_Tid(builder, obj.scales)
        builder.Slot(2)
        if obj.biases is not None:
            self.write_Tid(builder, obj.biases)
            builder.Slot(3)
        self.write_Tid(builder, obj.out)
        builder.Slot(4)
        if obj.lhs_indices is not None:
            self.write_Tid(builder, obj.lhs_indices)
            builder.Slot(5)
        if obj.rhs_indices is not None:
            self.write_Tid(builder, obj.rhs_indices)
            builder.Slot(6)
        builder.PrependInt32Slot(8, obj.group_size, 64)
        builder.PrependInt32Slot(9, obj.bits, 4)
        builder.PrependBoolSlot(7, obj.transpose, True)
        builder.PrependBoolSlot(10, obj.sorted_indices, False)
        builder.PrependInt8Slot(11, obj.mode, 0)
        return builder.EndObject()

    def build_LayerNormNode(self, builder, obj):
        """Write table mlxd.ir.LayerNormNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.LayerNormNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LayerNormNode.out is required")
        builder.StartObject(8)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if obj.weight is not None:
            self.write_Tid(builder, obj.weight)
            builder.Slot(2)
        if obj.bias is not None:
            self.write_Tid(builder, obj.bias)
            builder.Slot(3)
        builder.PrependFloat32Slot(4, obj.eps, 1e-05)
        builder.PrependInt32Slot(5, obj.num_axes, 1)
        if obj.mean_out is not None:
            self.write_Tid(builder, obj.mean_out)
            builder.Slot(6)
        if obj.rstd_out is not None:
            self.write_Tid(builder, obj.rstd_out)
            builder.Slot(7)
        return builder.EndObject()

    def build_RmsNormNode(self, builder, obj):
        """Write table mlxd.ir.RmsNormNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.RmsNormNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.RmsNormNode.out is required")
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if obj.weight is not None:
            self.write_Tid(builder, obj.weight)
            builder.Slot(2)
        builder.PrependFloat32Slot(3, obj.eps, 1e-06)
        return builder.EndObject()

    def build_ConvNode(self, builder, obj):
        """Write table mlxd.ir.ConvNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ConvNode.x is required")
        if obj.weight is None:
            raise ValueError("mlxd.ir.ConvNode.weight is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ConvNode.out is required")
        o4 = None if obj.stride is None else _scalars(builder, "i", 4, 4, obj.stride)
        o5 = None if obj.padding is None else _scalars(builder, "i", 4, 4, obj.padding)
        o6 = None if obj.dilation is None else _scalars(builder, "i", 4, 4, obj.dilation)
        o9 = (
            None if obj.output_padding is None else _scalars(builder, "i", 4, 4, obj.output_padding)
        )
        builder.StartObject(10)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.weight)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        if obj.bias is not None:
            self.write_Tid(builder, obj.bias)
            builder.Slot(3)
        if o4 is not None:
            builder.PrependUOffsetTRelativeSlot(4, o4, 0)
        if o5 is not None:
            builder.PrependUOffsetTRelativeSlot(5, o5, 0)
        if o6 is not None:
            builder.PrependUOffsetTRelativeSlot(6, o6, 0)
        builder.PrependInt32Slot(7, obj.groups, 1)
        if o9 is not None:
            builder.PrependUOffsetTRelativeSlot(9, o9, 0)
        builder.PrependBoolSlot(8, obj.transposed, False)
        return builder.EndObject()

    def build_ScaledDotProductAttentionNode(self, builder, obj):
        """Write table mlxd.ir.ScaledDotProductAttentionNode; returns its offset."""
        if obj.q is None:
            raise ValueError("mlxd.ir.ScaledDotProductAttentionNode.q is required")
        if obj.k is None:
            raise ValueError("mlxd.ir.ScaledDotProductAttentionNode.k is required")
        if obj.v is None:
            raise ValueError("mlxd.ir.ScaledDotProductAttentionNode.v is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ScaledDotProductAttentionNode.out is required")
        builder.StartObject(8)
        self.write_Tid(builder, obj.q)
        builder.Slot(0)
        self.write_Tid(builder, obj.k)
        builder.Slot(1)
        self.write_Tid(builder, obj.v)
        builder.Slot(2)
        self.write_Tid(builder, obj.out)
        builder.Slot(3)
        if obj.mask is not None:
            self.write_Tid(builder, obj.mask)
            builder.Slot(4)
        builder.PrependFloat32Slot(5, obj.scale, 0.0)
        builder.PrependBoolSlot(6, obj.causal, False)
        builder.PrependBoolSlot(7, obj.lower_right, False)
        return builder.EndObject()

    def build_RopeNode(self, builder, obj):
        """Write table mlxd.ir.RopeNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.RopeNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.RopeNode.out is required")
        if obj.offset is None:
            raise ValueError("mlxd.ir.RopeNode.offset is required")
        builder.StartObject(8)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.dims, 0)
        builder.PrependFloat32Slot(4, obj.base, 10000.0)
        builder.PrependFloat32Slot(5, obj.scale, 1.0)
        self.write_Tid(builder, obj.offset)
        builder.Slot(6)
        if obj.freqs is not None:
            self.write_Tid(builder, obj.freqs)
            builder.Slot(7)
        builder.PrependBoolSlot(3, obj.traditional, False)
        return builder.EndObject()

    def build_ReshapeNode(self, builder, obj):
        """Write table mlxd.ir.ReshapeNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ReshapeNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ReshapeNode.out is required")
        o2 = (
            None
            if obj.shape is None
            else _offsets(builder, [self.build_IntOrVid(builder, x) for x in obj.shape])
        )
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        return builder.EndObject()

    def build_TransposeNode(self, builder, obj):
        """Write table mlxd.ir.TransposeNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.TransposeNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.TransposeNode.out is required")
        o2 = None if obj.perm is None else _scalars(builder, "i", 4, 4, obj.perm)
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        return builder.EndObject()

    def build_ExpandDimsNode(self, builder, obj):
        """Write table mlxd.ir.ExpandDimsNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ExpandDimsNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ExpandDimsNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        return builder.EndObject()

    def build_SqueezeNode(self, builder, obj):
        """Write table mlxd.ir.SqueezeNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SqueezeNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SqueezeNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        return builder.EndObject()

    def build_BroadcastToNode(self, builder, obj):
        """Write table mlxd.ir.BroadcastToNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.BroadcastToNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.BroadcastToNode.out is required")
        o2 = (
            None
            if obj.shape is None
            else _offsets(builder, [self.build_IntOrVid(builder, x) for x in obj.shape])
        )
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        return builder.EndObject()

    def build_SliceNode(self, builder, obj):
        """Write table mlxd.ir.SliceNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SliceNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SliceNode.out is required")
        o3 = None if obj.start is None else self.build_IntOrVid(builder, obj.start)
        o4 = None if obj.stop is None else self.build_IntOrVid(builder, obj.stop)
        builder.StartObject(6)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.axis, 0)
        if o3 is not None:
            builder.PrependUOffsetTRelativeSlot(3, o3, 0)
        if o4 is not None:
            builder.PrependUOffsetTRelativeSlot(4, o4, 0)
        builder.PrependInt32Slot(5, obj.step, 1)
        return builder.EndObject()

    def build_SelectNode(self, builder, obj):
        """Write table mlxd.ir.SelectNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SelectNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SelectNode.out is required")
        if obj.index is None:
            raise ValueError("mlxd.ir.SelectNode.index is required")
        o3 = None if obj.index is None else self.build_IntOrVid(builder, obj.index)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.axis, 0)
        if o3 is not None:
            builder.PrependUOffsetTRelativeSlot(3, o3, 0)
        return builder.EndObject()

    def build_ConcatenateNode(self, builder, obj):
        """Write table mlxd.ir.ConcatenateNode; returns its offset."""
        if obj.inputs is None:
            raise ValueError("mlxd.ir.ConcatenateNode.inputs is required")
        o0 = None
        if obj.inputs is not None:
            builder.StartVector(4, len(obj.inputs), 4)
            for x in reversed(obj.inputs):
                self.write_Tid(builder, x)
            o0 = builder.EndVector()
        if obj.out is None:
            raise ValueError("mlxd.ir.ConcatenateNode.out is required")
        builder.StartObject(3)
        if o0 is not None:
            builder.PrependUOffsetTRelativeSlot(0, o0, 0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.axis, 0)
        return builder.EndObject()

    def build_StackNode(self, builder, obj):
        """Write table mlxd.ir.StackNode; returns its offset."""
        if obj.inputs is None:
            raise ValueError("mlxd.ir.StackNode.inputs is required")
        o0 = None
        if obj.inputs is not None:
            builder.StartVector(4, len(obj.inputs), 4)
            for x in reversed(obj.inputs):
                self.write_Tid(builder, x)
            o0 = builder.EndVector()
        if obj.out is None:
            raise ValueError("mlxd.ir.StackNode.out is required")
        builder.StartObject(3)
        if o0 is not None:
            builder.PrependUOffsetTRelativeSlot(0, o0, 0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.axis, 0)
        return builder.EndObject()

    def build_SplitNode(self, builder, obj):
        """Write table mlxd.ir.SplitNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SplitNode.x is required")
        if obj.outs is None:
            raise ValueError("mlxd.ir.SplitNode.outs is required")
        o1 = None
        if obj.outs is not None:
            builder.StartVector(4, len(obj.outs), 4)
            for x in reversed(obj.outs):
                self.write_Tid(builder, x)
            o1 = builder.EndVector()
        o2 = None if obj.sizes is None else _scalars(builder, "i", 4, 4, obj.sizes)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        if o1 is not None:
            builder.PrependUOffsetTRelativeSlot(1, o1, 0)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependInt32Slot(3, obj.axis, 0)
        return builder.EndObject()

    def build_TileNode(self, builder, obj):
        """Write table mlxd.ir.TileNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.TileNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.TileNode.out is required")
        o2 = None if obj.reps is None else _scalars(builder, "i", 4, 4, obj.reps)
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        return builder.EndObject()

    def build_FlipNode(self, builder, obj):
        """Write table mlxd.ir.FlipNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.FlipNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.FlipNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        return builder.EndObject()

    def build_PadNode(self, builder, obj):
        """Write table mlxd.ir.PadNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.PadNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.PadNode.out is required")
        o2 = None if obj.pad is None else _scalars(builder, "i", 4, 4, obj.pad)
        builder.StartObject(4)
        builder.PrependFloat64Slot(3, obj.value, 0.0)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        return builder.EndObject()

    def build_TrilNode(self, builder, obj):
        """Write table mlxd.ir.TrilNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.TrilNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.TrilNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.k, 0)
        return builder.EndObject()

    def build_TriuNode(self, builder, obj):
        """Write table mlxd.ir.TriuNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.TriuNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.TriuNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.k, 0)
        return builder.EndObject()

    def build_TakeNode(self, builder, obj):
        """Write table mlxd.ir.TakeNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.TakeNode.x is required")
        if obj.indices is None:
            raise ValueError("mlxd.ir.TakeNode.indices is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.TakeNode.out is required")
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.indices)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        builder.PrependInt32Slot(3, obj.axis, 0)
        return builder.EndObject()

    def build_TakeAlongAxisNode(self, builder, obj):
        """Write table mlxd.ir.TakeAlongAxisNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.TakeAlongAxisNode.x is required")
        if obj.indices is None:
            raise ValueError("mlxd.ir.TakeAlongAxisNode.indices is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.TakeAlongAxisNode.out is required")
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.indices)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        builder.PrependInt32Slot(3, obj.axis, 0)
        return builder.EndObject()

    def build_IndexNode(self, builder, obj):
        """Write table mlxd.ir.IndexNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.IndexNode.x is required")
        if obj.indices is None:
            raise ValueError("mlxd.ir.IndexNode.indices is required")
        o1 = None
        if obj.indices is not None:
            builder.StartVector(4, len(obj.indices), 4)
            for x in reversed(obj.indices):
                self.write_Tid(builder, x)
            o1 = builder.EndVector()
        if obj.out is None:
            raise ValueError("mlxd.ir.IndexNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        if o1 is not None:
            builder.PrependUOffsetTRelativeSlot(1, o1, 0)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_ScatterNode(self, builder, obj):
        """Write table mlxd.ir.ScatterNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ScatterNode.x is required")
        if obj.indices is None:
            raise ValueError("mlxd.ir.ScatterNode.indices is required")
        if obj.updates is None:
            raise ValueError("mlxd.ir.ScatterNode.updates is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ScatterNode.out is required")
        builder.StartObject(5)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.indices)
        builder.Slot(1)
        self.write_Tid(builder, obj.updates)
        builder.Slot(2)
        self.write_Tid(builder, obj.out)
        builder.Slot(3)
        builder.PrependInt32Slot(4, obj.axis, 0)
        return builder.EndObject()

    def build_ScatterAddNode(self, builder, obj):
        """Write table mlxd.ir.ScatterAddNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ScatterAddNode.x is required")
        if obj.indices is None:
            raise ValueError("mlxd.ir.ScatterAddNode.indices is required")
        if obj.updates is None:
            raise ValueError("mlxd.ir.ScatterAddNode.updates is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ScatterAddNode.out is required")
        builder.StartObject(5)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.indices)
        builder.Slot(1)
        self.write_Tid(builder, obj.updates)
        builder.Slot(2)
        self.write_Tid(builder, obj.out)
        builder.Slot(3)
        builder.PrependInt32Slot(4, obj.axis, 0)
        return builder.EndObject()

    def build_SliceUpdateNode(self, builder, obj):
        """Write table mlxd.ir.SliceUpdateNode; returns its offset."""
        if obj.target is None:
            raise ValueError("mlxd.ir.SliceUpdateNode.target is required")
        if obj.update is None:
            raise ValueError("mlxd.ir.SliceUpdateNode.update is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SliceUpdateNode.out is required")
        if obj.start is None:
            raise ValueError("mlxd.ir.SliceUpdateNode.start is required")
        o4 = None if obj.start is None else self.build_IntOrVid(builder, obj.start)
        builder.StartObject(5)
        self.write_Tid(builder, obj.target)
        builder.Slot(0)
        self.write_Tid(builder, obj.update)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        builder.PrependInt32Slot(3, obj.axis, 0)
        if o4 is not None:
            builder.PrependUOffsetTRelativeSlot(4, o4, 0)
        return builder.EndObject()

    def build_ArangeNode(self, builder, obj):
        """Write table mlxd.ir.ArangeNode; returns its offset."""
        if obj.out is None:
            raise ValueError("mlxd.ir.ArangeNode.out is required")
        o1 = None if obj.start is None else self.build_FloatOrVid(builder, obj.start)
        if obj.stop is None:
            raise ValueError("mlxd.ir.ArangeNode.stop is required")
        o2 = None if obj.stop is None else self.build_FloatOrVid(builder, obj.stop)
        o3 = None if obj.step is None else self.build_FloatOrVid(builder, obj.step)
        builder.StartObject(5)
        self.write_Tid(builder, obj.out)
        builder.Slot(0)
        if o1 is not None:
            builder.PrependUOffsetTRelativeSlot(1, o1, 0)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        if o3 is not None:
            builder.PrependUOffsetTRelativeSlot(3, o3, 0)
        builder.PrependInt8Slot(4, obj.dtype, 0)
        return builder.EndObject()

    def build_FullNode(self, builder, obj):
        """Write table mlxd.ir.FullNode; returns its offset."""
        if obj.out is None:
            raise ValueError("mlxd.ir.FullNode.out is required")
        o1 = (
            None
            if obj.shape is None
            else _offsets(builder, [self.build_IntOrVid(builder, x) for x in obj.shape])
        )
        if obj.value is None:
            raise ValueError("mlxd.ir.FullNode.value is required")
        o2 = None if obj.value is None else self.build_FloatOrVid(builder, obj.value)
        builder.StartObject(4)
        self.write_Tid(builder, obj.out)
        builder.Slot(0)
        if o1 is not None:
            builder.PrependUOffsetTRelativeSlot(1, o1, 0)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependInt8Slot(3, obj.dtype, 0)
        return builder.EndObject()

    def build_FullLikeNode(self, builder, obj):
        """Write table mlxd.ir.FullLikeNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.FullLikeNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.FullLikeNode.out is required")
        builder.StartObject(4)
        builder.PrependFloat64Slot(2, obj.value, 0.0)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if obj.dtype is not None:
            builder.PrependInt8Slot(3, obj.dtype, None)
        return builder.EndObject()

    def build_SymSizeNode(self, builder, obj):
        """Write table mlxd.ir.SymSizeNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SymSizeNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SymSizeNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        builder.PrependInt32Slot(1, obj.dim, 0)
        self.write_Vid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_ItemNode(self, builder, obj):
        """Write table mlxd.ir.ItemNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ItemNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ItemNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Vid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_IntBinaryNode(self, builder, obj):
        """Write table mlxd.ir.IntBinaryNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.IntBinaryNode.a is required")
        o1 = None if obj.a is None else self.build_IntOrVid(builder, obj.a)
        if obj.b is None:
            raise ValueError("mlxd.ir.IntBinaryNode.b is required")
        o2 = None if obj.b is None else self.build_IntOrVid(builder, obj.b)
        if obj.out is None:
            raise ValueError("mlxd.ir.IntBinaryNode.out is required")
        builder.StartObject(4)
        if o1 is not None:
            builder.PrependUOffsetTRelativeSlot(1, o1, 0)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        self.write_Vid(builder, obj.out)
        builder.Slot(3)
        builder.PrependInt8Slot(0, obj.op, 0)
        return builder.EndObject()

    def build_IndexPutNode(self, builder, obj):
        """Write table mlxd.ir.IndexPutNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.IndexPutNode.x is required")
        if obj.indices is None:
            raise ValueError("mlxd.ir.IndexPutNode.indices is required")
        if obj.values is None:
            raise ValueError("mlxd.ir.IndexPutNode.values is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.IndexPutNode.out is required")
        builder.StartObject(5)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.indices)
        builder.Slot(1)
        self.write_Tid(builder, obj.values)
        builder.Slot(2)
        self.write_Tid(builder, obj.out)
        builder.Slot(3)
        builder.PrependInt32Slot(4, obj.axis, 0)
        return builder.EndObject()

    def build_TanNode(self, builder, obj):
        """Write table mlxd.ir.TanNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.TanNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.TanNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_SinhNode(self, builder, obj):
        """Write table mlxd.ir.SinhNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SinhNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SinhNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_CoshNode(self, builder, obj):
        """Write table mlxd.ir.CoshNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.CoshNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.CoshNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_ArcSinNode(self, builder, obj):
        """Write table mlxd.ir.ArcSinNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ArcSinNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ArcSinNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_ArcCosNode(self, builder, obj):
        """Write table mlxd.ir.ArcCosNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ArcCosNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ArcCosNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_ArcTanNode(self, builder, obj):
        """Write table mlxd.ir.ArcTanNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ArcTanNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ArcTanNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_ArcSinhNode(self, builder, obj):
        """Write table mlxd.ir.ArcSinhNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ArcSinhNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ArcSinhNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_ArcCoshNode(self, builder, obj):
        """Write table mlxd.ir.ArcCoshNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ArcCoshNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ArcCoshNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_ArcTanhNode(self, builder, obj):
        """Write table mlxd.ir.ArcTanhNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.ArcTanhNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ArcTanhNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_Log2Node(self, builder, obj):
        """Write table mlxd.ir.Log2Node; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.Log2Node.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.Log2Node.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_Log10Node(self, builder, obj):
        """Write table mlxd.ir.Log10Node; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.Log10Node.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.Log10Node.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_Log1pNode(self, builder, obj):
        """Write table mlxd.ir.Log1pNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.Log1pNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.Log1pNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_Expm1Node(self, builder, obj):
        """Write table mlxd.ir.Expm1Node; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.Expm1Node.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.Expm1Node.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_SignNode(self, builder, obj):
        """Write table mlxd.ir.SignNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SignNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SignNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_TruncNode(self, builder, obj):
        """Write table mlxd.ir.TruncNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.TruncNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.TruncNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_SquareNode(self, builder, obj):
        """Write table mlxd.ir.SquareNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SquareNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SquareNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_IsNanNode(self, builder, obj):
        """Write table mlxd.ir.IsNanNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.IsNanNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.IsNanNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_IsInfNode(self, builder, obj):
        """Write table mlxd.ir.IsInfNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.IsInfNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.IsInfNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_IsPosInfNode(self, builder, obj):
        """Write table mlxd.ir.IsPosInfNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.IsPosInfNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.IsPosInfNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_IsNegInfNode(self, builder, obj):
        """Write table mlxd.ir.IsNegInfNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.IsNegInfNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.IsNegInfNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_BitwiseNotNode(self, builder, obj):
        """Write table mlxd.ir.BitwiseNotNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.BitwiseNotNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.BitwiseNotNode.out is required")
        builder.StartObject(2)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        return builder.EndObject()

    def build_BitwiseAndNode(self, builder, obj):
        """Write table mlxd.ir.BitwiseAndNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.BitwiseAndNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.BitwiseAndNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.BitwiseAndNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_BitwiseOrNode(self, builder, obj):
        """Write table mlxd.ir.BitwiseOrNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.BitwiseOrNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.BitwiseOrNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.BitwiseOrNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_BitwiseXorNode(self, builder, obj):
        """Write table mlxd.ir.BitwiseXorNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.BitwiseXorNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.BitwiseXorNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.BitwiseXorNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_ArcTan2Node(self, builder, obj):
        """Write table mlxd.ir.ArcTan2Node; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.ArcTan2Node.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.ArcTan2Node.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.ArcTan2Node.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_LogAddExpNode(self, builder, obj):
        """Write table mlxd.ir.LogAddExpNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.LogAddExpNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.LogAddExpNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LogAddExpNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_RemainderNode(self, builder, obj):
        """Write table mlxd.ir.RemainderNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.RemainderNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.RemainderNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.RemainderNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_LogSumExpNode(self, builder, obj):
        """Write table mlxd.ir.LogSumExpNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.LogSumExpNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LogSumExpNode.out is required")
        o2 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        builder.PrependBoolSlot(3, obj.keepdims, False)
        return builder.EndObject()

    def build_CumProdNode(self, builder, obj):
        """Write table mlxd.ir.CumProdNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.CumProdNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.CumProdNode.out is required")
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        builder.PrependInt32Slot(2, obj.axis, 0)
        builder.PrependBoolSlot(3, obj.reverse, False)
        return builder.EndObject()

    def build_SortNode(self, builder, obj):
        """Write table mlxd.ir.SortNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.SortNode.x is required")
        builder.StartObject(5)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        if obj.values_out is not None:
            self.write_Tid(builder, obj.values_out)
            builder.Slot(1)
        if obj.indices_out is not None:
            self.write_Tid(builder, obj.indices_out)
            builder.Slot(2)
        builder.PrependInt32Slot(3, obj.axis, -1)
        builder.PrependBoolSlot(4, obj.descending, False)
        return builder.EndObject()

    def build_RollNode(self, builder, obj):
        """Write table mlxd.ir.RollNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.RollNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.RollNode.out is required")
        o2 = None if obj.shifts is None else _scalars(builder, "i", 4, 4, obj.shifts)
        o3 = None if obj.axes is None else _scalars(builder, "i", 4, 4, obj.axes)
        builder.StartObject(4)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        if o3 is not None:
            builder.PrependUOffsetTRelativeSlot(3, o3, 0)
        return builder.EndObject()

    def build_PoolNode(self, builder, obj):
        """Write table mlxd.ir.PoolNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.PoolNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.PoolNode.out is required")
        o4 = None if obj.kernel is None else _scalars(builder, "i", 4, 4, obj.kernel)
        o5 = None if obj.stride is None else _scalars(builder, "i", 4, 4, obj.stride)
        o6 = None if obj.padding is None else _scalars(builder, "i", 4, 4, obj.padding)
        o7 = None if obj.dilation is None else _scalars(builder, "i", 4, 4, obj.dilation)
        builder.StartObject(11)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if obj.indices_out is not None:
            self.write_Tid(builder, obj.indices_out)
            builder.Slot(2)
        if o4 is not None:
            builder.PrependUOffsetTRelativeSlot(4, o4, 0)
        if o5 is not None:
            builder.PrependUOffsetTRelativeSlot(5, o5, 0)
        if o6 is not None:
            builder.PrependUOffsetTRelativeSlot(6, o6, 0)
        if o7 is not None:
            builder.PrependUOffsetTRelativeSlot(7, o7, 0)
        builder.PrependInt32Slot(10, obj.divisor_override, 0)
        builder.PrependInt8Slot(3, obj.kind, 0)
        builder.PrependBoolSlot(8, obj.ceil_mode, False)
        builder.PrependBoolSlot(9, obj.count_include_pad, True)
        return builder.EndObject()

    def build_UpsampleNode(self, builder, obj):
        """Write table mlxd.ir.UpsampleNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.UpsampleNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.UpsampleNode.out is required")
        o4 = None if obj.out_size is None else _scalars(builder, "i", 4, 4, obj.out_size)
        o5 = None if obj.scales is None else _scalars(builder, "d", 8, 8, obj.scales)
        builder.StartObject(6)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        self.write_Tid(builder, obj.out)
        builder.Slot(1)
        if o4 is not None:
            builder.PrependUOffsetTRelativeSlot(4, o4, 0)
        if o5 is not None:
            builder.PrependUOffsetTRelativeSlot(5, o5, 0)
        builder.PrependInt8Slot(2, obj.mode, 0)
        builder.PrependBoolSlot(3, obj.align_corners, False)
        return builder.EndObject()

    def build_LogicalXorNode(self, builder, obj):
        """Write table mlxd.ir.LogicalXorNode; returns its offset."""
        if obj.a is None:
            raise ValueError("mlxd.ir.LogicalXorNode.a is required")
        if obj.b is None:
            raise ValueError("mlxd.ir.LogicalXorNode.b is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.LogicalXorNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.a)
        builder.Slot(0)
        self.write_Tid(builder, obj.b)
        builder.Slot(1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_CondNode(self, builder, obj):
        """Write table mlxd.ir.CondNode; returns its offset."""
        if obj.pred is None:
            raise ValueError("mlxd.ir.CondNode.pred is required")
        o3 = None
        if obj.operands is not None:
            builder.StartVector(4, len(obj.operands), 4)
            for x in reversed(obj.operands):
                self.write_Tid(builder, x)
            o3 = builder.EndVector()
        o4 = None
        if obj.outs is not None:
            builder.StartVector(4, len(obj.outs), 4)
            for x in reversed(obj.outs):
                self.write_Tid(builder, x)
            o4 = builder.EndVector()
        builder.StartObject(5)
        self.write_Tid(builder, obj.pred)
        builder.Slot(0)
        builder.PrependUint32Slot(1, obj.then_chain, 0)
        builder.PrependUint32Slot(2, obj.else_chain, 0)
        if o3 is not None:
            builder.PrependUOffsetTRelativeSlot(3, o3, 0)
        if o4 is not None:
            builder.PrependUOffsetTRelativeSlot(4, o4, 0)
        return builder.EndObject()

    def build_WhileNode(self, builder, obj):
        """Write table mlxd.ir.WhileNode; returns its offset."""
        o0 = None
        if obj.inits is not None:
            builder.StartVector(4, len(obj.inits), 4)
            for x in reversed(obj.inits):
                self.write_Tid(builder, x)
            o0 = builder.EndVector()
        o1 = None
        if obj.outs is not None:
            builder.StartVector(4, len(obj.outs), 4)
            for x in reversed(obj.outs):
                self.write_Tid(builder, x)
            o1 = builder.EndVector()
        if obj.pred_out is None:
            raise ValueError("mlxd.ir.WhileNode.pred_out is required")
        o5 = None
        if obj.operands is not None:
            builder.StartVector(4, len(obj.operands), 4)
            for x in reversed(obj.operands):
                self.write_Tid(builder, x)
            o5 = builder.EndVector()
        builder.StartObject(6)
        if o0 is not None:
            builder.PrependUOffsetTRelativeSlot(0, o0, 0)
        if o1 is not None:
            builder.PrependUOffsetTRelativeSlot(1, o1, 0)
        builder.PrependUint32Slot(2, obj.cond_chain, 0)
        builder.PrependUint32Slot(3, obj.body_chain, 0)
        self.write_Tid(builder, obj.pred_out)
        builder.Slot(4)
        if o5 is not None:
            builder.PrependUOffsetTRelativeSlot(5, o5, 0)
        return builder.EndObject()

    def build_SampleNode(self, builder, obj):
        """Write table mlxd.ir.SampleNode; returns its offset."""
        if obj.logits is None:
            raise ValueError("mlxd.ir.SampleNode.logits is required")
        if obj.temperature is None:
            raise ValueError("mlxd.ir.SampleNode.temperature is required")
        if obj.top_p is None:
            raise ValueError("mlxd.ir.SampleNode.top_p is required")
        if obj.uniform is None:
            raise ValueError("mlxd.ir.SampleNode.uniform is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.SampleNode.out is required")
        builder.StartObject(5)
        self.write_Tid(builder, obj.logits)
        builder.Slot(0)
        self.write_Tid(builder, obj.temperature)
        builder.Slot(1)
        self.write_Tid(builder, obj.top_p)
        builder.Slot(2)
        self.write_Tid(builder, obj.uniform)
        builder.Slot(3)
        self.write_Tid(builder, obj.out)
        builder.Slot(4)
        return builder.EndObject()

    def build_AllSumNode(self, builder, obj):
        """Write table mlxd.ir.AllSumNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.AllSumNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.AllSumNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        builder.PrependInt32Slot(1, obj.group_size, 1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_AllGatherNode(self, builder, obj):
        """Write table mlxd.ir.AllGatherNode; returns its offset."""
        if obj.x is None:
            raise ValueError("mlxd.ir.AllGatherNode.x is required")
        if obj.out is None:
            raise ValueError("mlxd.ir.AllGatherNode.out is required")
        builder.StartObject(3)
        self.write_Tid(builder, obj.x)
        builder.Slot(0)
        builder.PrependInt32Slot(1, obj.group_size, 1)
        self.write_Tid(builder, obj.out)
        builder.Slot(2)
        return builder.EndObject()

    def build_OpNode(self, builder, kind, value):
        """Write the value of union mlxd.ir.OpNode with discriminant `kind`;
        returns its offset."""
        if kind == 1:
            _check_member(value, AddNode, "mlxd.ir.OpNode.AddNode")
            return self.build_AddNode(builder, value)
        if kind == 2:
            _check_member(value, SubtractNode, "mlxd.ir.OpNode.SubtractNode")
            return self.build_SubtractNode(builder, value)
        if kind == 3:
            _check_member(value, MultiplyNode, "mlxd.ir.OpNode.MultiplyNode")
            return self.build_MultiplyNode(builder, value)
        if kind == 4:
            _check_member(value, DivideNode, "mlxd.ir.OpNode.DivideNode")
            return self.build_DivideNode(builder, value)
        if kind == 5:
            _check_member(value, PowerNode, "mlxd.ir.OpNode.PowerNode")
            return self.build_PowerNode(builder, value)
        if kind == 6:
            _check_member(value, MaximumNode, "mlxd.ir.OpNode.MaximumNode")
            return self.build_MaximumNode(builder, value)
        if kind == 7:
            _check_member(value, MinimumNode, "mlxd.ir.OpNode.MinimumNode")
            return self.build_MinimumNode(builder, value)
        if kind == 8:
            _check_member(value, EqualNode, "mlxd.ir.OpNode.EqualNode")
            return self.build_EqualNode(builder, value)
        if kind == 9:
            _check_member(value, NotEqualNode, "mlxd.ir.OpNode.NotEqualNode")
            return self.build_NotEqualNode(builder, value)
        if kind == 10:
            _check_member(value, LessNode, "mlxd.ir.OpNode.LessNode")
            return self.build_LessNode(builder, value)
        if kind == 11:
            _check_member(value, LessEqualNode, "mlxd.ir.OpNode.LessEqualNode")
            return self.build_LessEqualNode(builder, value)
        if kind == 12:
            _check_member(value, GreaterNode, "mlxd.ir.OpNode.GreaterNode")
            return self.build_GreaterNode(builder, value)
        if kind == 13:
            _check_member(value, GreaterEqualNode, "mlxd.ir.OpNode.GreaterEqualNode")
            return self.build_GreaterEqualNode(builder, value)
        if kind == 14:
            _check_member(value, LogicalAndNode, "mlxd.ir.OpNode.LogicalAndNode")
            return self.build_LogicalAndNode(builder, value)
        if kind == 15:
            _check_member(value, LogicalOrNode, "mlxd.ir.OpNode.LogicalOrNode")
            return self.build_LogicalOrNode(builder, value)
        if kind == 16:
            _check_member(value, NegNode, "mlxd.ir.OpNode.NegNode")
            return self.build_NegNode(builder, value)
        if kind == 17:
            _check_member(value, AbsNode, "mlxd.ir.OpNode.AbsNode")
            return self.build_AbsNode(builder, value)
        if kind == 18:
            _check_member(value, ExpNode, "mlxd.ir.OpNode.ExpNode")
            return self.build_ExpNode(builder, value)
        if kind == 19:
            _check_member(value, LogNode, "mlxd.ir.OpNode.LogNode")
            return self.build_LogNode(builder, value)
        if kind == 20:
            _check_member(value, SqrtNode, "mlxd.ir.OpNode.SqrtNode")
            return self.build_SqrtNode(builder, value)
        if kind == 21:
            _check_member(value, RsqrtNode, "mlxd.ir.OpNode.RsqrtNode")
            return self.build_RsqrtNode(builder, value)
        if kind == 22:
            _check_member(value, SinNode, "mlxd.ir.OpNode.SinNode")
            return self.build_SinNode(builder, value)
        if kind == 23:
            _check_member(value, CosNode, "mlxd.ir.OpNode.CosNode")
            return self.build_CosNode(builder, value)
        if kind == 24:
            _check_member(value, TanhNode, "mlxd.ir.OpNode.TanhNode")
            return self.build_TanhNode(builder, value)
        if kind == 25:
            _check_member(value, SigmoidNode, "mlxd.ir.OpNode.SigmoidNode")
            return self.build_SigmoidNode(builder, value)
        if kind == 26:
            _check_member(value, ErfNode, "mlxd.ir.OpNode.ErfNode")
            return self.build_ErfNode(builder, value)
        if kind == 27:
            _check_member(value, FloorNode, "mlxd.ir.OpNode.FloorNode")
            return self.build_FloorNode(builder, value)
        if kind == 28:
            _check_member(value, CeilNode, "mlxd.ir.OpNode.CeilNode")
            return self.build_CeilNode(builder, value)
        if kind == 29:
            _check_member(value, RoundNode, "mlxd.ir.OpNode.RoundNode")
            return self.build_RoundNode(builder, value)
        if kind == 30:
            _check_member(value, ReciprocalNode, "mlxd.ir.OpNode.ReciprocalNode")
            return self.build_ReciprocalNode(builder, value)
        if kind == 31:
            _check_member(value, LogicalNotNode, "mlxd.ir.OpNode.LogicalNotNode")
            return self.build_LogicalNotNode(builder, value)
        if kind == 32:
            _check_member(value, ReluNode, "mlxd.ir.OpNode.ReluNode")
            return self.build_ReluNode(builder, value)
        if kind == 33:
            _check_member(value, SiluNode, "mlxd.ir.OpNode.SiluNode")
            return self.build_SiluNode(builder, value)
        if kind == 34:
            _check_member(value, GeluNode, "mlxd.ir.OpNode.GeluNode")
            return self.build_GeluNode(builder, value)
        if kind == 35:
            _check_member(value, LeakyReluNode, "mlxd.ir.OpNode.LeakyReluNode")
            return self.build_LeakyReluNode(builder, value)
        if kind == 36:
            _check_member(value, ClipNode, "mlxd.ir.OpNode.ClipNode")
            return self.build_ClipNode(builder, value)
        if kind == 37:
            _check_member(value, WhereNode, "mlxd.ir.OpNode.WhereNode")
            return self.build_WhereNode(builder, value)
        if kind == 38:
            _check_member(value, AsTypeNode, "mlxd.ir.OpNode.AsTypeNode")
            return self.build_AsTypeNode(builder, value)
        if kind == 39:
            _check_member(value, CopyNode, "mlxd.ir.OpNode.CopyNode")
            return self.build_CopyNode(builder, value)
        if kind == 40:
            _check_member(value, SumNode, "mlxd.ir.OpNode.SumNode")
            return self.build_SumNode(builder, value)
        if kind == 41:
            _check_member(value, MeanNode, "mlxd.ir.OpNode.MeanNode")
            return self.build_MeanNode(builder, value)
        if kind == 42:
            _check_member(value, MaxNode, "mlxd.ir.OpNode.MaxNode")
            return self.build_MaxNode(builder, value)
        if kind == 43:
            _check_member(value, MinNode, "mlxd.ir.OpNode.MinNode")
            return self.build_MinNode(builder, value)
        if kind == 44:
            _check_member(value, ProdNode, "mlxd.ir.OpNode.ProdNode")
            return self.build_ProdNode(builder, value)
        if kind == 45:
            _check_member(value, AnyNode, "mlxd.ir.OpNode.AnyNode")
            return self.build_AnyNode(builder, value)
        if kind == 46:
            _check_member(value, AllNode, "mlxd.ir.OpNode.AllNode")
            return self.build_AllNode(builder, value)
        if kind == 47:
            _check_member(value, VarNode, "mlxd.ir.OpNode.VarNode")
            return self.build_VarNode(builder, value)
        if kind == 48:
            _check_member(value, StdNode, "mlxd.ir.OpNode.StdNode")
            return self.build_StdNode(builder, value)
        if kind == 49:
            _check_member(value, ArgMaxNode, "mlxd.ir.OpNode.ArgMaxNode")
            return self.build_ArgMaxNode(builder, value)
        if kind == 50:
            _check_member(value, ArgMinNode, "mlxd.ir.OpNode.ArgMinNode")
            return self.build_ArgMinNode(builder, value)
        if kind == 51:
            _check_member(value, CumSumNode, "mlxd.ir.OpNode.CumSumNode")
            return self.build_CumSumNode(builder, value)
        if kind == 52:
            _check_member(value, SoftmaxNode, "mlxd.ir.OpNode.SoftmaxNode")
            return self.build_SoftmaxNode(builder, value)
        if kind == 53:
            _check_member(value, LogSoftmaxNode, "mlxd.ir.OpNode.LogSoftmaxNode")
            return self.build_LogSoftmaxNode(builder, value)
        if kind == 54:
            _check_member(value, LinearNode, "mlxd.ir.OpNode.LinearNode")
            return self.build_LinearNode(builder, value)
        if kind == 55:
            _check_member(value, AddmmNode, "mlxd.ir.OpNode.AddmmNode")
            return self.build_AddmmNode(builder, value)
        if kind == 56:
            _check_member(value, MatmulNode, "mlxd.ir.OpNode.MatmulNode")
            return self.build_MatmulNode(builder, value)
        if kind == 57:
            _check_member(value, LayerNormNode, "mlxd.ir.OpNode.LayerNormNode")
            return self.build_LayerNormNode(builder, value)
        if kind == 58:
            _check_member(value, RmsNormNode, "mlxd.ir.OpNode.RmsNormNode")
            return self.build_RmsNormNode(builder, value)
        if kind == 59:
            _check_member(value, ConvNode, "mlxd.ir.OpNode.ConvNode")
            return self.build_ConvNode(builder, value)
        if kind == 60:
            _check_member(
                value, ScaledDotProductAttentionNode, "mlxd.ir.OpNode.ScaledDotProductAttentionNode"
            )
            return self.build_ScaledDotProductAttentionNode(builder, value)
        if kind == 61:
            _check_member(value, ReshapeNode, "mlxd.ir.OpNode.ReshapeNode")
            return self.build_ReshapeNode(builder, value)
        if kind == 62:
            _check_member(value, TransposeNode, "mlxd.ir.OpNode.TransposeNode")
            return self.build_TransposeNode(builder, value)
        if kind == 63:
            _check_member(value, ExpandDimsNode, "mlxd.ir.OpNode.ExpandDimsNode")
            return self.build_ExpandDimsNode(builder, value)
        if kind == 64:
            _check_member(value, SqueezeNode, "mlxd.ir.OpNode.SqueezeNode")
            return self.build_SqueezeNode(builder, value)
        if kind == 65:
            _check_member(value, BroadcastToNode, "mlxd.ir.OpNode.BroadcastToNode")
            return self.build_BroadcastToNode(builder, value)
        if kind == 66:
            _check_member(value, SliceNode, "mlxd.ir.OpNode.SliceNode")
            return self.build_SliceNode(builder, value)
        if kind == 67:
            _check_member(value, SelectNode, "mlxd.ir.OpNode.SelectNode")
            return self.build_SelectNode(builder, value)
        if kind == 68:
            _check_member(value, ConcatenateNode, "mlxd.ir.OpNode.ConcatenateNode")
            return self.build_ConcatenateNode(builder, value)
        if kind == 69:
            _check_member(value, StackNode, "mlxd.ir.OpNode.StackNode")
            return self.build_StackNode(builder, value)
        if kind == 70:
            _check_member(value, SplitNode, "mlxd.ir.OpNode.SplitNode")
            return self.build_SplitNode(builder, value)
        if kind == 71:
            _check_member(value, TileNode, "mlxd.ir.OpNode.TileNode")
            return self.build_TileNode(builder, value)
        if kind == 72:
            _check_member(value, FlipNode, "mlxd.ir.OpNode.FlipNode")
            return self.build_FlipNode(builder, value)
        if kind == 73:
            _check_member(value, PadNode, "mlxd.ir.OpNode.PadNode")
            return self.build_PadNode(builder, value)
        if kind == 74:
            _check_member(value, TrilNode, "mlxd.ir.OpNode.TrilNode")
            return self.build_TrilNode(builder, value)
        if kind == 75:
            _check_member(value, TriuNode, "mlxd.ir.OpNode.TriuNode")
            return self.build_TriuNode(builder, value)
        if kind == 76:
            _check_member(value, TakeNode, "mlxd.ir.OpNode.TakeNode")
            return self.build_TakeNode(builder, value)
        if kind == 77:
            _check_member(value, TakeAlongAxisNode, "mlxd.ir.OpNode.TakeAlongAxisNode")
            return self.build_TakeAlongAxisNode(builder, value)
        if kind == 78:
            _check_member(value, IndexNode, "mlxd.ir.OpNode.IndexNode")
            return self.build_IndexNode(builder, value)
        if kind == 79:
            _check_member(value, ScatterAddNode, "mlxd.ir.OpNode.ScatterAddNode")
            return self.build_ScatterAddNode(builder, value)
        if kind == 80:
            _check_member(value, SliceUpdateNode, "mlxd.ir.OpNode.SliceUpdateNode")
            return self.build_SliceUpdateNode(builder, value)
        if kind == 81:
            _check_member(value, ArangeNode, "mlxd.ir.OpNode.ArangeNode")
            return self.build_ArangeNode(builder, value)
        if kind == 82:
            _check_member(value, FullNode, "mlxd.ir.OpNode.FullNode")
            return self.build_FullNode(builder, value)
        if kind == 83:
            _check_member(value, FullLikeNode, "mlxd.ir.OpNode.FullLikeNode")
            return self.build_FullLikeNode(builder, value)
        if kind == 84:
            _check_member(value, SymSizeNode, "mlxd.ir.OpNode.SymSizeNode")
            return self.build_SymSizeNode(builder, value)
        if kind == 85:
            _check_member(value, ItemNode, "mlxd.ir.OpNode.ItemNode")
            return self.build_ItemNode(builder, value)
        if kind == 86:
            _check_member(value, IntBinaryNode, "mlxd.ir.OpNode.IntBinaryNode")
            return self.build_IntBinaryNode(builder, value)
        if kind == 87:
            _check_member(value, IndexPutNode, "mlxd.ir.OpNode.IndexPutNode")
            return self.build_IndexPutNode(builder, value)
        if kind == 88:
            _check_member(value, TanNode, "mlxd.ir.OpNode.TanNode")
            return self.build_TanNode(builder, value)
        if kind == 89:
            _check_member(value, SinhNode, "mlxd.ir.OpNode.SinhNode")
            return self.build_SinhNode(builder, value)
        if kind == 90:
            _check_member(value, CoshNode, "mlxd.ir.OpNode.CoshNode")
            return self.build_CoshNode(builder, value)
        if kind == 91:
            _check_member(value, ArcSinNode, "mlxd.ir.OpNode.ArcSinNode")
            return self.build_ArcSinNode(builder, value)
        if kind == 92:
            _check_member(value, ArcCosNode, "mlxd.ir.OpNode.ArcCosNode")
            return self.build_ArcCosNode(builder, value)
        if kind == 93:
            _check_member(value, ArcTanNode, "mlxd.ir.OpNode.ArcTanNode")
            return self.build_ArcTanNode(builder, value)
        if kind == 94:
            _check_member(value, ArcSinhNode, "mlxd.ir.OpNode.ArcSinhNode")
            return self.build_ArcSinhNode(builder, value)
        if kind == 95:
            _check_member(value, ArcCoshNode, "mlxd.ir.OpNode.ArcCoshNode")
            return self.build_ArcCoshNode(builder, value)
        if kind == 96:
            _check_member(value, ArcTanhNode, "mlxd.ir.OpNode.ArcTanhNode")
            return self.build_ArcTanhNode(builder, value)
        if kind == 97:
            _check_member(value, Log2Node, "mlxd.ir.OpNode.Log2Node")
            return self.build_Log2Node(builder, value)
        if kind == 98:
            _check_member(value, Log10Node, "mlxd.ir.OpNode.Log10Node")
            return self.build_Log10Node(builder, value)
        if kind == 99:
            _check_member(value, Log1pNode, "mlxd.ir.OpNode.Log1pNode")
            return self.build_Log1pNode(builder, value)
        if kind == 100:
            _check_member(value, Expm1Node, "mlxd.ir.OpNode.Expm1Node")
            return self.build_Expm1Node(builder, value)
        if kind == 101:
            _check_member(value, SignNode, "mlxd.ir.OpNode.SignNode")
            return self.build_SignNode(builder, value)
        if kind == 102:
            _check_member(value, TruncNode, "mlxd.ir.OpNode.TruncNode")
            return self.build_TruncNode(builder, value)
        if kind == 103:
            _check_member(value, SquareNode, "mlxd.ir.OpNode.SquareNode")
            return self.build_SquareNode(builder, value)
        if kind == 104:
            _check_member(value, IsNanNode, "mlxd.ir.OpNode.IsNanNode")
            return self.build_IsNanNode(builder, value)
        if kind == 105:
            _check_member(value, IsInfNode, "mlxd.ir.OpNode.IsInfNode")
            return self.build_IsInfNode(builder, value)
        if kind == 106:
            _check_member(value, BitwiseNotNode, "mlxd.ir.OpNode.BitwiseNotNode")
            return self.build_BitwiseNotNode(builder, value)
        if kind == 107:
            _check_member(value, BitwiseAndNode, "mlxd.ir.OpNode.BitwiseAndNode")
            return self.build_BitwiseAndNode(builder, value)
        if kind == 108:
            _check_member(value, BitwiseOrNode, "mlxd.ir.OpNode.BitwiseOrNode")
            return self.build_BitwiseOrNode(builder, value)
        if kind == 109:
            _check_member(value, BitwiseXorNode, "mlxd.ir.OpNode.BitwiseXorNode")
            return self.build_BitwiseXorNode(builder, value)
        if kind == 110:
            _check_member(value, ArcTan2Node, "mlxd.ir.OpNode.ArcTan2Node")
            return self.build_ArcTan2Node(builder, value)
        if kind == 111:
            _check_member(value, LogAddExpNode, "mlxd.ir.OpNode.LogAddExpNode")
            return self.build_LogAddExpNode(builder, value)
        if kind == 112:
            _check_member(value, RemainderNode, "mlxd.ir.OpNode.RemainderNode")
            return self.build_RemainderNode(builder, value)
        if kind == 113:
            _check_member(value, LogSumExpNode, "mlxd.ir.OpNode.LogSumExpNode")
            return self.build_LogSumExpNode(builder, value)
        if kind == 114:
            _check_member(value, CumProdNode, "mlxd.ir.OpNode.CumProdNode")
            return self.build_CumProdNode(builder, value)
        if kind == 115:
            _check_member(value, SortNode, "mlxd.ir.OpNode.SortNode")
            return self.build_SortNode(builder, value)
        if kind == 116:
            _check_member(value, RollNode, "mlxd.ir.OpNode.RollNode")
            return self.build_RollNode(builder, value)
        if kind == 117:
            _check_member(value, PoolNode, "mlxd.ir.OpNode.PoolNode")
            return self.build_PoolNode(builder, value)
        if kind == 118:
            _check_member(value, UpsampleNode, "mlxd.ir.OpNode.UpsampleNode")
            return self.build_UpsampleNode(builder, value)
        if kind == 119:
            _check_member(value, LogicalXorNode, "mlxd.ir.OpNode.LogicalXorNode")
            return self.build_LogicalXorNode(builder, value)
        if kind == 120:
            _check_member(value, CondNode, "mlxd.ir.OpNode.CondNode")
            return self.build_CondNode(builder, value)
        if kind == 121:
            _check_member(value, WhileNode, "mlxd.ir.OpNode.WhileNode")
            return self.build_WhileNode(builder, value)
        if kind == 122:
            _check_member(value, IsPosInfNode, "mlxd.ir.OpNode.IsPosInfNode")
            return self.build_IsPosInfNode(builder, value)
        if kind == 123:
            _check_member(value, IsNegInfNode, "mlxd.ir.OpNode.IsNegInfNode")
            return self.build_IsNegInfNode(builder, value)
        if kind == 124:
            _check_member(value, QuantizedLinearNode, "mlxd.ir.OpNode.QuantizedLinearNode")
            return self.build_QuantizedLinearNode(builder, value)
        if kind == 125:
            _check_member(value, DequantizeNode, "mlxd.ir.OpNode.DequantizeNode")
            return self.build_DequantizeNode(builder, value)
        if kind == 126:
            _check_member(value, RopeNode, "mlxd.ir.OpNode.RopeNode")
            return self.build_RopeNode(builder, value)
        if kind == 127:
            _check_member(value, GatherMMNode, "mlxd.ir.OpNode.GatherMMNode")
            return self.build_GatherMMNode(builder, value)
        if kind == 128:
            _check_member(value, GatherQMMNode, "mlxd.ir.OpNode.GatherQMMNode")
            return self.build_GatherQMMNode(builder, value)
        if kind == 129:
            _check_member(value, ScatterNode, "mlxd.ir.OpNode.ScatterNode")
            return self.build_ScatterNode(builder, value)
        if kind == 130:
            _check_member(value, SampleNode, "mlxd.ir.OpNode.SampleNode")
            return self.build_SampleNode(builder, value)
        if kind == 131:
            _check_member(value, AllSumNode, "mlxd.ir.OpNode.AllSumNode")
            return self.build_AllSumNode(builder, value)
        if kind == 132:
            _check_member(value, AllGatherNode, "mlxd.ir.OpNode.AllGatherNode")
            return self.build_AllGatherNode(builder, value)
        raise ValueError("mlxd.ir.OpNode: unknown discriminant %r" % (kind,))

    def build_Instruction(self, builder, obj):
        """Write table mlxd.ir.Instruction; returns its offset."""
        if obj.op is None:
            raise ValueError("mlxd.ir.Instruction.op is required")
        t1 = _union_type(OpNode_TYPES, obj.op_type, obj.op, "mlxd.ir.Instruction.op")
        o1 = self.build_OpNode(builder, t1, obj.op)
        builder.StartObject(2)
        if o1 is not None:
            builder.PrependUint8Slot(0, t1, 0)
            builder.PrependUOffsetTRelativeSlot(1, o1, 0)
        return builder.EndObject()

    def build_InstructionChain(self, builder, obj):
        """Write table mlxd.ir.InstructionChain; returns its offset."""
        o0 = (
            None
            if obj.instructions is None
            else _offsets(builder, [self.build_Instruction(builder, x) for x in obj.instructions])
        )
        builder.StartObject(1)
        if o0 is not None:
            builder.PrependUOffsetTRelativeSlot(0, o0, 0)
        return builder.EndObject()

    def build_MLXGraph(self, builder, obj):
        """Write table mlxd.ir.MLXGraph; returns its offset."""
        o7 = (
            None
            if obj.instruction_chains is None
            else _offsets(
                builder, [self.build_InstructionChain(builder, x) for x in obj.instruction_chains]
            )
        )
        o10 = None
        if obj.input_map is not None:
            builder.StartVector(8, len(obj.input_map), 4)
            for x in reversed(obj.input_map):
                self.write_SlotRef(builder, x)
            o10 = builder.EndVector()
        o11 = None
        if obj.output_map is not None:
            builder.StartVector(8, len(obj.output_map), 4)
            for x in reversed(obj.output_map):
                self.write_SlotRef(builder, x)
            o11 = builder.EndVector()
        o12 = None
        if obj.mutable_buffer_map is not None:
            builder.StartVector(8, len(obj.mutable_buffer_map), 4)
            for x in reversed(obj.mutable_buffer_map):
                self.write_SlotRef(builder, x)
            o12 = builder.EndVector()
        o13 = (
            None
            if obj.named_slots is None
            else _offsets(builder, [self.build_NamedSlot(builder, x) for x in obj.named_slots])
        )
        o14 = (
            None
            if obj.tensor_meta is None
            else _offsets(builder, [self.build_TensorMeta(builder, x) for x in obj.tensor_meta])
        )
        o16 = None if obj.run_ahead is None else self.build_RunAhead(builder, obj.run_ahead)
        builder.StartObject(17)
        builder.PrependUint32Slot(0, obj.version, 1)
        builder.PrependUint32Slot(1, obj.num_constant_tensors, 0)
        builder.PrependUint32Slot(2, obj.num_input_tensors, 0)
        builder.PrependUint32Slot(3, obj.num_output_tensors, 0)
        builder.PrependUint32Slot(4, obj.num_mutable_buffer_tensors, 0)
        builder.PrependUint32Slot(5, obj.num_temp_tensors, 0)
        builder.PrependUint32Slot(6, obj.num_values, 0)
        if o7 is not None:
            builder.PrependUOffsetTRelativeSlot(7, o7, 0)
        builder.PrependUint32Slot(8, obj.main_chain, 0)
        builder.PrependInt32Slot(9, obj.init_chain, -1)
        if o10 is not None:
            builder.PrependUOffsetTRelativeSlot(10, o10, 0)
        if o11 is not None:
            builder.PrependUOffsetTRelativeSlot(11, o11, 0)
        if o12 is not None:
            builder.PrependUOffsetTRelativeSlot(12, o12, 0)
        if o13 is not None:
            builder.PrependUOffsetTRelativeSlot(13, o13, 0)
        if o14 is not None:
            builder.PrependUOffsetTRelativeSlot(14, o14, 0)
        if o16 is not None:
            builder.PrependUOffsetTRelativeSlot(16, o16, 0)
        builder.PrependBoolSlot(15, obj.compile_chains, True)
        return builder.EndObject()

    def build_RunAhead(self, builder, obj):
        """Write table mlxd.ir.RunAhead; returns its offset."""
        o0 = None if obj.fed_inputs is None else _scalars(builder, "I", 4, 4, obj.fed_inputs)
        o1 = (
            None
            if obj.fed_from_outputs is None
            else _scalars(builder, "I", 4, 4, obj.fed_from_outputs)
        )
        o2 = (
            None
            if obj.advanced_inputs is None
            else _scalars(builder, "I", 4, 4, obj.advanced_inputs)
        )
        builder.StartObject(3)
        if o0 is not None:
            builder.PrependUOffsetTRelativeSlot(0, o0, 0)
        if o1 is not None:
            builder.PrependUOffsetTRelativeSlot(1, o1, 0)
        if o2 is not None:
            builder.PrependUOffsetTRelativeSlot(2, o2, 0)
        return builder.EndObject()

    def write_PayloadHeader(self, builder, obj):
        """Prepend struct mlxd.ir.PayloadHeader inline; returns its offset."""
        builder.Prep(8, 24)
        builder.PrependUint64(obj.data_size)
        builder.PrependUint64(obj.data_offset)
        _check_length(obj.magic, 4, "mlxd.ir.PayloadHeader.magic")
        for x in reversed(obj.magic):
            builder.PrependUint8(x)
        builder.PrependUint32(obj.zero)
        return builder.Offset()


def encode(root, *, serializer=None, size_prefixed=False, force_defaults=False, initial_size=1024):
    """Serialize `root`, a `MLXGraph` (the schema's root_type), to bytes, with
    the file identifier `FILE_IDENTIFIER`.

    `serializer` is the `Builders` instance to use (default `Builders()`);
    `force_defaults` writes scalars equal to their defaults too."""
    if not isinstance(root, MLXGraph):
        raise TypeError("encode() takes a MLXGraph, not %s" % (type(root).__name__,))
    builder = _flatbuffers.Builder(initial_size)
    builder.ForceDefaults(force_defaults)
    offset = (Builders() if serializer is None else serializer).build_MLXGraph(builder, root)
    if size_prefixed:
        builder.FinishSizePrefixed(offset, FILE_IDENTIFIER)
    else:
        builder.Finish(offset, FILE_IDENTIFIER)
    return bytes(builder.Output())
