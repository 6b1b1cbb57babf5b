"""Weight-only quantization (torchao's `quantize_` with `IntxWeightOnlyConfig`),
lowered onto MLX's affine quantization with the weight kept packed.

Exported, a quantized weight is `torchao.dequantize_affine(q, [1, group],
scale, zero_point, input_dtype, quant_min, quant_max, output_dtype)` over
constants: q (rows, cols) holds integers in [quant_min, quant_max] (int4 ones
unpacked, one per int8), and each run of `group` values of a row shares a scale
and a zero point: weight = (q - zero_point) * scale.

MLX's affine quantization stores u, unsigned `bits`-bit values packed into
uint32 words along the row, and weight = scales * u + biases per group. With
u = q - quant_min, (q - zero_point) * scale = scale * u + scale * (quant_min -
zero_point): the same integers, scales = scale, biases = scale * (quant_min -
zero_point). The repacking is done once, at compile time.

The weight is dequantized in float32 whatever the activations' dtype: in
bfloat16, scales * u rounds away up to half a quantization step of an int8
weight (u reaches 255; bfloat16 keeps 8 significant bits), where torchao
rounds (q - zero_point) * scale once. So scales and biases are float32
constants, the inputs are cast to float32 and the result back, and the weight
MLX multiplies by is torchao's up to float32 rounding.

- linear(x, dequantize_affine(...), bias) -> QuantizedLinearNode (quantized_matmul)
- embedding(dequantize_affine(...), indices) -> the rows of the packed weight,
  scales and biases taken, then dequantized (only the rows looked up)
- dequantize_affine feeding anything else (a weight tied to several users)
  -> DequantizeNode of the whole weight
- a stack of expert weights (experts, rows, cols), each quantized as above
  (block size [1, 1, group]), gathered by expert ids into a batched matmul
  -> GatherQMMNode (mlx_delegate/ops/experts.py)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import torch
from torch.fx import Node

from ..builder import (
    Emitter,
    HandlerRegistry,
    PatternMatch,
    SlotKind,
    TensorSlot,
    Unsupported,
    ir_dtype,
)
from ..builder.registry import target_key
from ..ir import schema as ir
from .common import arg

HANDLERS = HandlerRegistry()

DEQUANTIZE_AFFINE = "torchao::dequantize_affine"
GROUP_SIZES = (32, 64, 128)  # MLX's affine group sizes
BITS = (4, 8)
WORD_BITS = 32
# Quantized products (and the rows an embedding looks up) keep their result's dtype
# when it is half precision, with scales and biases in that dtype, as mlx-lm stores
# them: in float32 a bfloat16 model read twice the scale bytes and ran MLX's float32
# kernels, and decoded a 1B int4 model on an H100 at 0.5x mlx-lm's speed. The CPU
# plugin widens half-precision products to float32 (runtime_cpp/src/ops/op_util.h).
# Else, and for a whole weight dequantized on its own, the dtype is float32: that
# weight may feed any op (a sum of its rows, say), and bfloat16 biases would put a
# rounding error of up to 2**-9 of each group's offset into every one of its values.
HALF = (torch.bfloat16, torch.float16)


@dataclass(frozen=True)
class AffineWeight:
    """A `dequantize_affine` node of a 2-D weight quantized in groups along its
    rows, or of a stack of them (`batch`: the leading sizes, e.g. the experts)."""

    node: Node
    q: Node
    scale: Node
    zero_point: Optional[Node]
    group_size: int
    bits: int
    quant_min: int
    dtype: torch.dtype  # the dequantized weight's
    rows: int
    cols: int
    batch: tuple = ()

    @property
    def packed_shape(self) -> tuple:
        return (*self.batch, self.rows, self.cols * self.bits // WORD_BITS)

    @property
    def groups_shape(self) -> tuple:
        return (*self.batch, self.rows, self.cols // self.group_size)


def affine_weight(node, ndim: int = 2) -> AffineWeight:
    """The quantization of `node`, a dequantize_affine call of an `ndim`-D
    weight (2, or 3 for a stack of expert weights); Unsupported says what MLX's
    affine quantization cannot hold."""
    if not (
        isinstance(node, Node)
        and node.op == "call_function"
        and target_key(node.target) == DEQUANTIZE_AFFINE
    ):
        raise Unsupported("not a torchao dequantize_affine")
    args = _dequantize_args(node)
    q, scale, zero_point = args["input"], args["scale"], args["zero_point"]
    if not all(isinstance(n, Node) for n in (q, scale)) or not isinstance(
        zero_point, (Node, type(None))
    ):
        raise Unsupported("dequantize_affine of values that are not tensors")
    q_val = q.meta["val"]
    if q_val.dim() != ndim or q_val.dtype not in (torch.int8, torch.uint8):
        raise Unsupported(
            f"quantized weight {q_val.dtype}{tuple(q_val.shape)}: {ndim}-D int8/uint8 only"
        )
    if any(isinstance(d, torch.SymInt) for d in q_val.shape):
        raise Unsupported("quantized weight of dynamic shape")
    *batch, rows, cols = (int(d) for d in q_val.shape)
    block = [int(b) for b in args["block_size"]]
    group = block[-1] if block else 0
    if block[:-1] != [1] * (ndim - 1) or group not in GROUP_SIZES or cols % group:
        raise Unsupported(f"block size {block}: groups of {GROUP_SIZES} along rows only")
    quant_min, quant_max = _quant_range(args)
    bits = (quant_max - quant_min).bit_length()
    if bits not in BITS:
        raise Unsupported(f"range [{quant_min}, {quant_max}] takes {bits} bits; MLX here: {BITS}")
    dtype = args["output_dtype"]
    if dtype not in (torch.float32, torch.bfloat16, torch.float16):
        raise Unsupported(f"dequantized to {dtype} (computed in float32)")
    groups = q_val.numel() // group
    for n in (scale, zero_point):
        if n is not None and n.meta["val"].numel() != groups:
            raise Unsupported(f"{n.name} has {n.meta['val'].numel()} values for {groups} groups")
    return AffineWeight(
        node, q, scale, zero_point, group, bits, quant_min, dtype, rows, cols, tuple(batch)
    )


def _dequantize_args(node: Node) -> dict:
    names = ("input", "block_size", "scale", "zero_point", "input_dtype", "quant_min", "quant_max")
    values = {name: arg(node, name) for name in names}
    dtype = arg(node, "output_dtype")
    # Left out, it is the schema's default, ScalarType 6 (Float), as a number.
    values["output_dtype"] = torch.float32 if dtype == 6 else dtype
    return values


def _quant_range(args: dict) -> tuple[int, int]:
    """[quant_min, quant_max], by default the whole range of `input_dtype`."""
    low, high = args["quant_min"], args["quant_max"]
    if low is None or high is None:
        try:
            info = torch.iinfo(args["input_dtype"])
        except TypeError:
            raise Unsupported(f"no quant_min/quant_max for {args['input_dtype']}") from None
        low = info.min if low is None else low
        high = info.max if high is None else high
    return int(low), int(high)


def _constants(b: Emitter, weight: AffineWeight) -> bool:
    return all(
        n is None or b.tensor_slot(n).kind == SlotKind.CONSTANT
        for n in (weight.q, weight.scale, weight.zero_point)
    )


PACK_SLICE = 1 << 20  # words packed at a time


def pack(q: torch.Tensor, quant_min: int, bits: int) -> torch.Tensor:
    """q (..., rows, cols) as MLX's packed words (..., rows, cols * bits / 32),
    uint32: value k of a word holds q - quant_min in bits [k * bits, (k + 1) * bits)."""
    per_word = WORD_BITS // bits
    if q.min() < quant_min or q.max() > quant_min + (1 << bits) - 1:
        raise Unsupported(f"quantized values outside [{quant_min}, {quant_min + (1 << bits) - 1}]")
    words = q.reshape(-1, per_word)
    packed = torch.empty(words.shape[0], dtype=torch.uint32)
    shifts = torch.arange(per_word, dtype=torch.int64) * bits
    # In slices: the int64 arithmetic of a whole LLM embedding would take 8 bytes a value.
    for start in range(0, words.shape[0], PACK_SLICE):
        part = words[start : start + PACK_SLICE].to(torch.int64) - quant_min
        packed[start : start + PACK_SLICE] = (part << shifts).sum(-1).to(torch.uint32)
    return packed.reshape(*q.shape[:-1], -1)


def compute_dtype(b: Emitter, node: Node) -> torch.dtype:
    """The dtype `node`'s quantized product runs in."""
    dtype = b.val(node).dtype
    return dtype if dtype in HALF else torch.float32


def repacked(
    b: Emitter, weight: AffineWeight, dtype: torch.dtype
) -> tuple[TensorSlot, TensorSlot, TensorSlot]:
    """Constant slots of the packed weight and its scales and biases in `dtype`
    (computed in float64 from torchao's scale and zero point, rounded once)."""
    if not _constants(b, weight):
        raise Unsupported("the quantized weight is not a constant")
    groups = weight.groups_shape

    def scale64() -> torch.Tensor:
        return b.constant(weight.scale).to(torch.float64).reshape(groups)

    def biases() -> torch.Tensor:
        if weight.zero_point is None:
            zero = torch.zeros(groups, dtype=torch.float64)
        else:
            zero = b.constant(weight.zero_point).to(torch.float64).reshape(groups)
        return (scale64() * (weight.quant_min - zero)).to(dtype)

    packed = b.computed_constant(
        lambda: pack(b.constant(weight.q), weight.quant_min, weight.bits),
        torch.uint32,
        weight.packed_shape,
    )
    scales = b.computed_constant(lambda: scale64().to(dtype), dtype, groups)
    return packed, scales, b.computed_constant(biases, dtype, groups)


def _compute_result(b: Emitter, node: Node, dtype: torch.dtype) -> TensorSlot:
    """Where to compute `node`'s result in `dtype`: its own slot if it has that
    dtype, else a temp that `_cast_result` casts into it."""
    value = b.val(node)
    return b.out(node) if value.dtype == dtype else b.temp(dtype, tuple(value.shape))


def _cast_result(b: Emitter, node: Node, result: TensorSlot) -> None:
    dtype = b.val(node).dtype
    if result.dtype != dtype:
        b.emit(ir.AsTypeNode(x=result.tid, out=b.out(node).tid, dtype=ir_dtype(dtype)))


def _dequantize(b: Emitter, node: Node, weight: AffineWeight, w, scales, biases) -> None:
    """`node`'s result: the rows `w`, `scales` and `biases` dequantized, in
    the dtype of the scales."""
    result = _compute_result(b, node, scales.dtype)
    b.emit(
        ir.DequantizeNode(
            w=w.tid,
            scales=scales.tid,
            biases=biases.tid,
            out=result.tid,
            group_size=weight.group_size,
            bits=weight.bits,
        )
    )
    _cast_result(b, node, result)


# Registered by name: torch.ops.torchao exists once torchao is imported, which
# quantizing the model did; the compiler need not import it.
@HANDLERS.register([DEQUANTIZE_AFFINE])
def dequantize_affine(b: Emitter, node: Node) -> None:
    weight = affine_weight(node)
    _dequantize(b, node, weight, *repacked(b, weight, torch.float32))


def _quantized_operand(node: Node, index: int) -> Optional[AffineWeight]:
    operand = node.args[index] if len(node.args) > index else None
    try:
        return affine_weight(operand)
    except Unsupported:
        return None


@HANDLERS.register_pattern
def quantized_linear(node: Node) -> Optional[PatternMatch]:
    """linear(x, dequantize_affine(...)[, bias])."""
    if node.op != "call_function" or target_key(node.target) != "aten::linear":
        return None
    weight = _quantized_operand(node, 1)
    if weight is None:
        return None

    def lower(b: Emitter) -> None:
        dtype = compute_dtype(b, node)
        w, scales, biases = repacked(b, weight, dtype)
        bias = node.args[2] if len(node.args) > 2 else node.kwargs.get("bias")
        result = _compute_result(b, node, dtype)
        b.emit(
            ir.QuantizedLinearNode(
                x=b.operand(node.args[0], dtype).tid,
                w=w.tid,
                scales=scales.tid,
                biases=biases.tid,
                out=result.tid,
                bias=None if bias is None else b.operand(bias, dtype).tid,
                group_size=weight.group_size,
                bits=weight.bits,
            )
        )
        _cast_result(b, node, result)

    return PatternMatch("quantized_linear", (weight.node, node), lower)


@HANDLERS.register_pattern
def quantized_embedding(node: Node) -> Optional[PatternMatch]:
    """embedding(dequantize_affine(...), indices): only the rows looked up are
    dequantized, never the whole table."""
    if node.op != "call_function" or target_key(node.target) != "aten::embedding":
        return None
    weight = _quantized_operand(node, 0)
    if weight is None:
        return None

    def lower(b: Emitter) -> None:
        indices = b.tensor_slot(node.args[1])
        rows = []
        for table in repacked(b, weight, compute_dtype(b, node)):
            taken = b.temp(table.dtype, (*indices.shape, *table.shape[1:]))
            b.emit(ir.TakeNode(x=table.tid, indices=indices.tid, out=taken.tid, axis=0))
            rows.append(taken)
        _dequantize(b, node, weight, *rows)

    return PatternMatch("quantized_embedding", (weight.node, node), lower)
