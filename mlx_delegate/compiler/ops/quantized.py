"""Quantized weights exported from torchao, lowered onto MLX's quantization
with the weight kept packed (schema/schema.fbs, `QuantMode`, says how MLX
stores each mode). Each form is a call that dequantizes constant tensors:

- `torchao::dequantize_affine(q, block_size, scale, zero_point, input_dtype,
  quant_min, quant_max, output_dtype)` (`IntxWeightOnlyConfig`, any
  granularity): q holds integers in [quant_min, quant_max], unpacked, one per
  int8; each block of `block_size` values shares a scale and a zero point:
  weight = (q - zero_point) * scale. MLX's affine mode stores u, unsigned
  `bits`-bit values (2 to 6 or 8 bits) packed along the row, and weight =
  scales * u + biases per group of 32, 64 or 128 values of a row. With u = q -
  quant_min, (q - zero_point) * scale = scale * u + scale * (quant_min -
  zero_point): the same integers, scales = scale, biases = scale * (quant_min -
  zero_point). A block runs along one axis in groups (a multiple of 32
  values), which becomes the packed axis, MLX's groups being the largest of 32,
  64 and 128 that divide it; along the other axes it is 1 (per group, per
  channel) or more (per tensor), and its scale is repeated over them.
- `torchao::dequantize_int4_tensor(qdata, scale, zero_point, group_size,
  output_dtype)` (ExecuTorch's export form of torchao's `Int4Tensor`): qdata
  (rows, cols / 2) uint8 holds two unsigned 4-bit values a byte, the first in
  the low half, which read as little-endian uint32 words is MLX's packing as it
  is; scale and zero_point are (cols / group_size, rows), zero points possibly
  fractional: weight = (q - zero_point) * scale, so scales = scale and biases =
  -scale * zero_point, transposed.
- `torchao::dequantize_nvfp4(qdata, scale, per_tensor_scale, 16,
  output_dtype)` (ExecuTorch's `ExportableNVFP4Config`): qdata (rows, cols / 8)
  uint32 of E2M1 nibbles and scale (rows, cols / 16) of E4M3 bytes are MLX's
  nvfp4 layout as they are; weight = q * scale * per_tensor_scale, the last
  multiplied into the result (`tensor_scale`).
- `mlx_delegate::dequantize_mxfp4(qdata, scale, 32, output_dtype)` (ours,
  `mlx_delegate/compiler/quantize_mxfp4.py`): E2M1 codes two a byte, the first in the
  low half, and E8M0 scales as uint8: MLX's mxfp4 layout once the bytes are read
  as uint32 words.
- `torchao::dequantize_mx(qdata, scale, float8_e4m3fn, 32, output_dtype)`
  (ExecuTorch's `ExportableMXConfig`): float8 values, one a byte, and E8M0
  scales: MLX's mxfp8 layout once the bytes are read as uint8 (four values a
  uint32 word). PyTorch's float8 dtypes have no MLX equivalent, so these
  constants never become slots of their own (builder: CompileTimeConstant).

The lowerings, for any of them:

- linear(x, W[, bias]), matmul/mm(x, W) and matmul/mm(x, W^T) ->
  QuantizedLinearNode (quantized_matmul); `transpose` says whether the groups
  run along the inputs of the product (x @ P^T) or its outputs (x @ P)
- embedding(W, indices) -> the rows of the packed weight and of its scales
  (and biases) taken, then dequantized (only the rows looked up)
- the dequantize call feeding anything else (a weight tied to several users, a
  convolution's) -> DequantizeNode of the whole weight
- a stack of affine expert weights (experts, rows, cols) quantized along their
  rows, gathered by expert ids into a batched matmul -> GatherQMMNode
  (mlx_delegate/compiler/ops/experts.py)

Dtypes: affine products, and the rows an embedding looks up, keep their
result's dtype when it is half precision, with scales and biases in that
dtype, as mlx-lm stores them: in float32 a bfloat16 model read twice the scale
bytes and ran MLX's float32 kernels, and decoded a 1B int4 model on an H100 at
0.5x mlx-lm's speed. The CPU plugin widens half-precision products to float32
(runtime_cpp/src/ops/op_util.h). Else, and for a whole weight dequantized on
its own, the dtype is float32: that weight may feed any op (a sum of its rows,
say), and bfloat16 biases would put a rounding error of up to 2**-9 of each
group's offset into every one of its values. The fp modes' scales are bytes;
their weights dequantize to float32, which holds each of their values
exactly."""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Callable, Optional

import torch
from torch.fx import Node

from ..builder import (
    Emitter,
    HandlerRegistry,
    PatternMatch,
    TensorSlot,
    Unsupported,
    ir_dtype,
)
from ..builder.registry import target_key
from ...formats.ir import schema as ir
from ...formats.quantized import BITS, GROUP_SIZES
from .common import arg

HANDLERS = HandlerRegistry()

DEQUANTIZE_AFFINE = "torchao::dequantize_affine"
DEQUANTIZE_INT4_TENSOR = "torchao::dequantize_int4_tensor"
DEQUANTIZE_NVFP4 = "torchao::dequantize_nvfp4"
DEQUANTIZE_MX = "torchao::dequantize_mx"
DEQUANTIZE_MXFP4 = "mlx_delegate::dequantize_mxfp4"  # ours: mlx_delegate/compiler/quantize_mxfp4.py
WORD_BITS = 32
HALF = (torch.bfloat16, torch.float16)
FLOATS = (torch.float32, *HALF)
# A ScalarType argument left at its op-schema default arrives as its code.
SCALAR_TYPES = {5: torch.float16, 6: torch.float32, 15: torch.bfloat16}
TRANSPOSES = ("aten::permute_copy", "aten::permute", "aten::t_copy", "aten::t")
TRANSPOSES_INT = ("aten::transpose_copy.int", "aten::transpose.int")


@dataclass(frozen=True)
class Packed:
    """The constant slots a quantized weight is stored in, in MLX's layout."""

    w: TensorSlot
    scales: TensorSlot
    biases: Optional[TensorSlot]  # affine only
    tensor_scale: Optional[TensorSlot] = None  # a float32 scalar the weight is multiplied by

    @property
    def dtype(self) -> torch.dtype:
        """What MLX dequantizes it to (the affine mode: its scales' dtype)."""
        return self.scales.dtype if self.biases is not None else torch.float32


@dataclass(frozen=True)
class QuantizedWeight:
    """A call that dequantizes constant tensors into a weight of `shape`,
    seen as MLX's quantization: groups of `group_size` values along `axis`
    share a scale. Packed, that axis comes last and the others keep their
    order (`layout`). `block` is the source's block of values per scale (one
    entry per axis), which `per_group` repeats onto MLX's groups."""

    node: Node
    mode: ir.QuantMode
    bits: int
    group_size: int
    shape: tuple
    axis: int
    dtype: torch.dtype  # the dequantized weight's
    block: tuple

    @property
    def layout(self) -> tuple:
        """The weight's axes in packed order."""
        return (*(i for i in range(len(self.shape)) if i != self.axis), self.axis)

    @property
    def layout_shape(self) -> tuple:
        return tuple(self.shape[i] for i in self.layout)

    @property
    def packed_shape(self) -> tuple:
        *lead, cols = self.layout_shape
        return (*lead, cols * self.bits // WORD_BITS)

    @property
    def groups_shape(self) -> tuple:
        *lead, cols = self.layout_shape
        return (*lead, cols // self.group_size)

    def sources(self) -> tuple:
        """The tensors it is made of, constants all (checked at lowering)."""
        raise NotImplementedError

    def packed(self, b: Emitter, dtype: torch.dtype) -> Packed:
        """Its constant slots; float scales and biases in `dtype`."""
        raise NotImplementedError

    def per_group(self, t: torch.Tensor) -> torch.Tensor:
        """`t`, one value per source block, as one per MLX group of the packed
        layout (`groups_shape`), in float64: a tensor of its own, which callers
        may change in place (an LLM embedding's groups take 66 MB a copy)."""
        t = t.to(torch.float64, copy=True).reshape([n // k for n, k in zip(self.shape, self.block)])
        for i, k in enumerate(self.block):
            repeats = k // self.group_size if i == self.axis else k
            if repeats > 1:
                t = t.repeat_interleave(repeats, dim=i)
        return t.permute(self.layout).reshape(self.groups_shape)


def _check_constants(b: Emitter, weight: QuantizedWeight) -> None:
    if not all(n is None or b.is_constant(n) for n in weight.sources()):
        raise Unsupported("the quantized weight is not a constant")


def _mlx_group(block: int, length: int) -> int:
    """The largest of MLX's group sizes that divides `block` and leaves a row
    of `length` values two groups or more where it can: MLX 0.32.4's CUDA
    quantized_matmul returned wrong products in our programs for rows of one
    group (128 of 128, per channel or per group, on an H100). Scales repeated
    over smaller groups change no value."""
    sizes = [size for size in reversed(GROUP_SIZES) if block % size == 0]
    if not sizes:
        raise ValueError(block)
    return next((size for size in sizes if length // size >= 2), sizes[-1])


def _static_shape(node: Node, what: str) -> tuple:
    value = node.meta["val"]
    if any(isinstance(d, torch.SymInt) for d in value.shape):
        raise Unsupported(f"{what} of dynamic shape")
    return tuple(int(d) for d in value.shape)


def _tensors(*nodes) -> None:
    if not all(isinstance(n, Node) for n in nodes):
        raise Unsupported("a dequantization of values that are not tensors")


def _output_dtype(node: Node, name: str = "output_dtype") -> torch.dtype:
    dtype = arg(node, name)
    dtype = SCALAR_TYPES.get(dtype, dtype) if isinstance(dtype, int) else dtype
    if dtype not in FLOATS:
        raise Unsupported(f"dequantized to {dtype}: float32, bfloat16 or float16 only")
    return dtype


# ---- torchao.dequantize_affine ----------------------------------------------


@dataclass(frozen=True)
class AffineWeight(QuantizedWeight):
    q: Node
    scale: Node
    zero_point: Optional[Node]
    quant_min: int

    def sources(self) -> tuple:
        return (self.q, self.scale, self.zero_point)

    def packed(self, b: Emitter, dtype: torch.dtype) -> Packed:
        """Scales and biases computed in float64 from torchao's scale and zero
        point, rounded once."""
        _check_constants(b, self)

        def scales64() -> torch.Tensor:
            return self.per_group(b.constant(self.scale))

        def biases() -> torch.Tensor:  # scale * (quant_min - zero), in place
            if self.zero_point is None:
                return scales64().mul_(self.quant_min).to(dtype)
            offsets = self.per_group(b.constant(self.zero_point)).neg_().add_(self.quant_min)
            return offsets.mul_(scales64()).to(dtype)

        def words() -> torch.Tensor:
            if self.axis != len(self.shape) - 1:  # packed along another axis: read whole
                return pack(b.constant(self.q).permute(self.layout), self.quant_min, self.bits)
            # Packed slice by slice: the values of a 4-bit LLM embedding, one byte
            # each, are twice its packed words.
            packed, start = torch.empty(self.packed_shape, dtype=torch.uint32), 0
            for rows in b.constant_rows(self.q):
                packed[start : start + len(rows)] = pack(rows, self.quant_min, self.bits)
                start += len(rows)
            if start != len(packed):
                raise ValueError(f"{start} rows of quantized values made, {len(packed)} declared")
            return packed

        return Packed(
            b.computed_constant(words, torch.uint32, self.packed_shape),
            b.computed_constant(lambda: scales64().to(dtype), dtype, self.groups_shape),
            b.computed_constant(biases, dtype, self.groups_shape),
        )


def affine_weight(node, ndim: Optional[int] = 2, any_axis: bool = False) -> AffineWeight:
    """The quantization of `node`, a dequantize_affine call of an `ndim`-D
    weight (None: of any rank from 2), grouped along its last axis unless
    `any_axis`; Unsupported says what MLX's affine quantization cannot hold."""
    if target_key(getattr(node, "target", None)) != DEQUANTIZE_AFFINE:
        raise Unsupported("not a torchao dequantize_affine")
    q, scale, zero_point = (arg(node, n) for n in ("input", "scale", "zero_point"))
    _tensors(q, scale)
    if zero_point is not None:
        _tensors(zero_point)
    q_val = q.meta["val"]
    if q_val.dtype not in (torch.int8, torch.uint8):
        raise Unsupported(f"quantized values of {q_val.dtype}: int8/uint8 only")
    if q_val.dim() < 2 or (ndim is not None and q_val.dim() != ndim):
        rank = "2-D or more" if ndim is None else f"{ndim}-D"
        raise Unsupported(f"quantized weight {tuple(q_val.shape)}: {rank} only")
    shape = _static_shape(q, "quantized weight")
    block = [int(k) for k in arg(node, "block_size")]
    axis = _group_axis(shape, block)
    if axis != len(shape) - 1 and not any_axis:
        raise Unsupported(f"block size {block}: groups along the last axis only here")
    quant_min, quant_max = _quant_range(node)
    bits = _stored_bits((quant_max - quant_min).bit_length())
    if bits not in BITS:
        raise Unsupported(
            f"range [{quant_min}, {quant_max}] takes {bits} bits; MLX packs {BITS} bits"
        )
    blocks = prod(n // k for n, k in zip(shape, block))
    for n in (scale, zero_point):
        if n is not None and n.meta["val"].numel() != blocks:
            raise Unsupported(f"{n.name} has {n.meta['val'].numel()} values for {blocks} blocks")
    return AffineWeight(
        node=node,
        mode=ir.QuantMode.Affine,
        bits=bits,
        group_size=_mlx_group(block[axis], shape[axis]),
        shape=shape,
        axis=axis,
        dtype=_output_dtype(node),
        block=tuple(block),
        q=q,
        scale=scale,
        zero_point=zero_point,
        quant_min=quant_min,
    )


def _stored_bits(bits: int) -> int:
    """The width MLX stores `bits`-bit values in: their own, but 7-bit values in
    8 bits (MLX packs no 7-bit values; the integers are the same, so the
    product is too, at 8 bits' size)."""
    return 8 if bits == 7 else bits


def _group_axis(shape: tuple, block: list) -> int:
    """The axis MLX's groups run along: the last whose blocks hold more than
    one value, a multiple of 32 of them (per tensor: the last axis)."""
    valid = len(block) == len(shape) and all(0 < k and n % k == 0 for n, k in zip(shape, block))
    grouped = [i for i, k in enumerate(block) if k > 1] if valid else []
    if not grouped or block[grouped[-1]] % GROUP_SIZES[0]:
        raise Unsupported(
            f"block size {block} of a {list(shape)} weight: MLX groups {GROUP_SIZES[0]}, "
            f"{GROUP_SIZES[1]} or {GROUP_SIZES[2]} values along one axis, the block a "
            "multiple of 32 values along it"
        )
    return grouped[-1]


def _quant_range(node: Node) -> tuple[int, int]:
    """[quant_min, quant_max], by default the whole range of `input_dtype`."""
    low, high = arg(node, "quant_min"), arg(node, "quant_max")
    if low is None or high is None:
        try:
            info = torch.iinfo(arg(node, "input_dtype"))
        except TypeError:
            raise Unsupported(f"no quant_min/quant_max for {arg(node, 'input_dtype')}") from None
        low = info.min if low is None else low
        high = info.max if high is None else high
    return int(low), int(high)


PACK_SLICE = 1 << 17  # runs of values packed at a time (int4: 1M values, 8 MiB as int64)


def pack(q: torch.Tensor, quant_min: int, bits: int) -> torch.Tensor:
    """q (..., cols) as MLX's packed words (..., cols * bits / 32), uint32: the
    values q - quant_min of a row as one little-endian bit stream, value k in
    bits [k * bits, (k + 1) * bits). A run of values that fills whole bytes (a
    word, or 8 values of 3, 5 or 6 bits) is summed as one int64, whose low
    bytes (little-endian) are the run's."""
    # compared as Python ints: a bound beyond q's dtype (191 for int8) would wrap
    if int(q.min()) < quant_min or int(q.max()) > quant_min + (1 << bits) - 1:
        raise Unsupported(f"quantized values outside [{quant_min}, {quant_min + (1 << bits) - 1}]")
    per_run = WORD_BITS // bits if WORD_BITS % bits == 0 else 8
    run_bytes = per_run * bits // 8
    runs = q.reshape(-1, per_run)
    shifts = torch.arange(per_run, dtype=torch.int64) * bits
    packed = torch.empty(runs.shape[0], run_bytes, dtype=torch.uint8)
    # In slices: the int64 arithmetic of a whole LLM embedding would take 8 bytes a value.
    for start in range(0, runs.shape[0], PACK_SLICE):
        part = runs[start : start + PACK_SLICE].to(torch.int64) - quant_min
        sums = (part << shifts).sum(-1)
        packed[start : start + PACK_SLICE] = sums.view(torch.uint8).reshape(-1, 8)[:, :run_bytes]
    return packed.reshape(*q.shape[:-1], -1).view(torch.uint32)


# ---- torchao.dequantize_int4_tensor -----------------------------------------


@dataclass(frozen=True)
class Int4TensorWeight(QuantizedWeight):
    qdata: Node
    scale: Node
    zero_point: Node

    def sources(self) -> tuple:
        return (self.qdata, self.scale, self.zero_point)

    def packed(self, b: Emitter, dtype: torch.dtype) -> Packed:
        _check_constants(b, self)

        def scales64() -> torch.Tensor:
            return self.per_group(b.constant(self.scale).t())

        def biases() -> torch.Tensor:
            return scales64().neg_().mul_(self.per_group(b.constant(self.zero_point).t())).to(dtype)

        return Packed(
            b.computed_constant(
                lambda: b.constant(self.qdata).contiguous().view(torch.uint32),
                torch.uint32,
                self.packed_shape,
            ),
            b.computed_constant(lambda: scales64().to(dtype), dtype, self.groups_shape),
            b.computed_constant(biases, dtype, self.groups_shape),
        )


def int4_tensor_weight(node: Node) -> Int4TensorWeight:
    qdata, scale, zero_point = (arg(node, n) for n in ("qdata", "scale", "zero_point"))
    _tensors(qdata, scale, zero_point)
    if qdata.meta["val"].dtype != torch.uint8 or qdata.meta["val"].dim() != 2:
        raise Unsupported("int4 tensor data: 2-D uint8 only")
    rows, half = _static_shape(qdata, "int4 tensor")
    cols, group = 2 * half, int(arg(node, "group_size"))
    if group % GROUP_SIZES[0] or cols % group:
        raise Unsupported(f"int4 groups of {group} of {cols} values: a multiple of 32 only")
    for n in (scale, zero_point):
        if tuple(n.meta["val"].shape) != (cols // group, rows):
            raise Unsupported(f"{n.name} {tuple(n.meta['val'].shape)} for groups of {group}")
    return Int4TensorWeight(
        node=node,
        mode=ir.QuantMode.Affine,
        bits=4,
        group_size=_mlx_group(group, cols),
        shape=(rows, cols),
        axis=1,
        dtype=_output_dtype(node),
        block=(1, group),
        qdata=qdata,
        scale=scale,
        zero_point=zero_point,
    )


# ---- ExecuTorch's NVFP4 and MX forms -------------------------------------------


@dataclass(frozen=True)
class FloatWeight(QuantizedWeight):
    """An nvfp4 or mxfp8 weight: its values and scales are MLX's bytes, read
    as they are (`qdata` uint32, `scale` uint8) or reinterpreted (float8)."""

    qdata: Node
    scale: Node
    tensor_scale: Optional[Node] = None

    def sources(self) -> tuple:
        return (self.qdata, self.scale, self.tensor_scale)

    def packed(self, b: Emitter, dtype: torch.dtype) -> Packed:
        _check_constants(b, self)
        return Packed(
            self._bytes(b, self.qdata, torch.uint32, self.packed_shape),
            self._bytes(b, self.scale, torch.uint8, self.groups_shape),
            None,
            self._tensor_scale(b),
        )

    @staticmethod
    def _bytes(b: Emitter, node: Node, dtype: torch.dtype, shape: tuple) -> TensorSlot:
        if node.meta["val"].dtype == dtype:
            return b.tensor_slot(node)
        return b.computed_constant(
            lambda: b.constant(node).contiguous().view(torch.uint8).view(dtype), dtype, shape
        )

    def _tensor_scale(self, b: Emitter) -> Optional[TensorSlot]:
        """None where it is 1 (known once lowering for real)."""
        if self.tensor_scale is None:
            return None
        value = b.constant(self.tensor_scale)
        if value is not None and value.item() == 1:
            return None
        slot = b.tensor_slot(self.tensor_scale)
        if slot.dtype == torch.float32 and slot.shape == ():
            return slot
        return b.computed_constant(
            lambda: b.constant(self.tensor_scale).to(torch.float32).reshape(()), torch.float32, ()
        )


def nvfp4_weight(node: Node) -> FloatWeight:
    qdata, scale, tensor_scale = (arg(node, n) for n in ("qdata", "scale", "per_tensor_scale"))
    _tensors(qdata, scale, tensor_scale)
    block = int(arg(node, "block_size"))
    if block != 16:
        raise Unsupported(f"nvfp4 blocks of {block}: MLX's nvfp4 groups 16 values")
    rows, cols = _float_weight_shape(node, qdata, torch.uint32, 8)
    _check_scales(scale, torch.uint8, (rows, cols // block))
    if tensor_scale.meta["val"].numel() != 1:
        raise Unsupported("a per-tensor scale of more than one value")
    return FloatWeight(
        node=node,
        mode=ir.QuantMode.Nvfp4,
        bits=4,
        group_size=block,
        shape=(rows, cols),
        axis=1,
        dtype=_output_dtype(node),
        block=(1, block),
        qdata=qdata,
        scale=scale,
        tensor_scale=tensor_scale,
    )


# The MX forms, by their op: (MLX's mode, its name, bits, the dtype qdata
# holds, values a qdata item, the dtype of the E8M0 scales). torchao's
# dequantize_mx also names its elements' dtype (elem_dtype), which must be
# float8_e4m3fn; our dequantize_mxfp4 has E2M1 codes only.
_MX_FORMS = {
    DEQUANTIZE_MX: (ir.QuantMode.Mxfp8, "mxfp8", 8, torch.float8_e4m3fn, 1, torch.float8_e8m0fnu),
    DEQUANTIZE_MXFP4: (ir.QuantMode.Mxfp4, "mxfp4", 4, torch.uint8, 2, torch.uint8),
}


def mx_weight(node: Node) -> FloatWeight:
    """An mxfp8 (`torchao::dequantize_mx`) or mxfp4 (`dequantize_mxfp4`) weight."""
    key = target_key(node.target)
    mode, name, bits, data_dtype, per_item, scale_dtype = _MX_FORMS[key]
    qdata, scale = arg(node, "qdata"), arg(node, "scale")
    _tensors(qdata, scale)
    block = int(arg(node, "block_size"))
    if key == DEQUANTIZE_MX:
        elements = arg(node, "elem_dtype")
        if elements != torch.float8_e4m3fn:
            raise Unsupported(
                f"MX elements of {elements}: MLX's MX modes take float8_e4m3fn (mxfp8)"
            )
    if block != 32:
        raise Unsupported(f"MX blocks of {block}: MLX's {name} groups 32 values")
    rows, cols = _float_weight_shape(node, qdata, data_dtype, per_item)
    _check_scales(scale, scale_dtype, (rows, cols // block))
    return FloatWeight(
        node=node,
        mode=mode,
        bits=bits,
        group_size=block,
        shape=(rows, cols),
        axis=1,
        dtype=_output_dtype(node),
        block=(1, block),
        qdata=qdata,
        scale=scale,
    )


def _float_weight_shape(node: Node, qdata: Node, dtype: torch.dtype, per_item: int) -> tuple:
    value = qdata.meta["val"]
    if value.dtype != dtype or value.dim() != 2:
        raise Unsupported(f"{target_key(node.target)} of {value.dtype} data: 2-D {dtype} only")
    rows, items = _static_shape(qdata, "quantized weight")
    if (items * per_item) % WORD_BITS:
        raise Unsupported(f"rows of {items * per_item} values: a multiple of 32 only")
    return rows, items * per_item


def _check_scales(scale: Node, dtype: torch.dtype, shape: tuple) -> None:
    value = scale.meta["val"]
    if value.dtype != dtype or tuple(value.shape) != shape:
        raise Unsupported(f"scales {value.dtype}{tuple(value.shape)}: {dtype}{shape} expected")


# ---- every form -----------------------------------------------------------------

READERS: dict[str, Callable[[Node], QuantizedWeight]] = {
    DEQUANTIZE_AFFINE: lambda node: affine_weight(node, ndim=None, any_axis=True),
    DEQUANTIZE_INT4_TENSOR: int4_tensor_weight,
    DEQUANTIZE_NVFP4: nvfp4_weight,
    DEQUANTIZE_MX: mx_weight,
    DEQUANTIZE_MXFP4: mx_weight,
}


def quantized_weight(node) -> QuantizedWeight:
    """The quantization of `node`, a call of one of READERS' ops; Unsupported
    says why MLX cannot hold it."""
    key = target_key(node.target) if isinstance(node, Node) and node.op == "call_function" else None
    if key not in READERS:
        raise Unsupported("not a torchao dequantization")
    return READERS[key](node)


def _operand(node: Node, index: int) -> Optional[QuantizedWeight]:
    """The quantized weight argument `index` of `node` dequantizes, if any."""
    operand = node.args[index] if len(node.args) > index else None
    try:
        return quantized_weight(operand)
    except Unsupported:
        return None


def repacked(
    b: Emitter, weight: QuantizedWeight, dtype: torch.dtype
) -> tuple[TensorSlot, TensorSlot, Optional[TensorSlot]]:
    """The packed weight and its scales and biases, scales and biases in `dtype`."""
    packed = weight.packed(b, dtype)
    return packed.w, packed.scales, packed.biases


def compute_dtype(b: Emitter, node: Node) -> torch.dtype:
    """The dtype `node`'s quantized product runs in."""
    dtype = b.val(node).dtype
    return dtype if dtype in HALF else torch.float32


def _compute_result(b: Emitter, node: Node, dtype: torch.dtype) -> TensorSlot:
    """Where to compute `node`'s result in `dtype`: its own slot if it has that
    dtype, else a temp that `_cast_result` casts into it."""
    value = b.val(node)
    return b.out(node) if value.dtype == dtype else b.temp(dtype, tuple(value.shape))


def _cast_result(b: Emitter, node: Node, result: TensorSlot) -> None:
    dtype = b.val(node).dtype
    if result.dtype != dtype:
        b.emit(ir.AsTypeNode(x=result.tid, out=b.out(node).tid, dtype=ir_dtype(dtype)))


def _tid(slot: Optional[TensorSlot]):
    return None if slot is None else slot.tid


def _dequantize(
    b: Emitter, node: Node, weight: QuantizedWeight, packed: Packed, shape: tuple, perm=None
) -> None:
    """`node`'s result: `packed` (rows of `shape`, in the packed layout)
    dequantized, axes permuted by `perm` if any, cast to `node`'s dtype."""
    value = b.val(node)
    last = perm is None and packed.dtype == value.dtype
    rows = b.out(node) if last else b.temp(packed.dtype, shape)
    b.emit(
        ir.DequantizeNode(
            w=packed.w.tid,
            scales=packed.scales.tid,
            biases=_tid(packed.biases),
            out=rows.tid,
            group_size=weight.group_size,
            bits=weight.bits,
            mode=weight.mode,
            tensor_scale=_tid(packed.tensor_scale),
        )
    )
    if perm is not None:
        result = _compute_result(b, node, packed.dtype)
        b.emit(ir.TransposeNode(x=rows.tid, out=result.tid, perm=list(perm)))
        rows = result
    _cast_result(b, node, rows)


# Registered by name: torch.ops.torchao's ops exist once torchao (or ExecuTorch's
# export forms) is imported, which quantizing the model did; the compiler need
# not import them.
@HANDLERS.register(list(READERS))
def dequantize(b: Emitter, node: Node) -> None:
    """The whole weight, dequantized in float32 (the affine mode: float32 scales)."""
    weight = quantized_weight(node)
    packed = weight.packed(b, torch.float32)
    layout = weight.layout
    axes = range(len(layout))
    perm = None if layout == tuple(axes) else [layout.index(i) for i in axes]
    _dequantize(b, node, weight, packed, weight.layout_shape, perm)


def _product(b: Emitter, node: Node, x: Node, weight: QuantizedWeight, transpose: bool, bias=None):
    """node = x @ (the weight, packed, transposed or not) (+ bias), by quantized_matmul."""
    dtype = compute_dtype(b, node)
    packed = weight.packed(b, dtype)
    result = _compute_result(b, node, dtype)
    b.emit(
        ir.QuantizedLinearNode(
            x=b.operand(x, dtype).tid,
            w=packed.w.tid,
            scales=packed.scales.tid,
            biases=_tid(packed.biases),
            out=result.tid,
            bias=None if bias is None else b.operand(bias, dtype).tid,
            group_size=weight.group_size,
            bits=weight.bits,
            mode=weight.mode,
            tensor_scale=_tid(packed.tensor_scale),
            transpose=transpose,
        )
    )
    _cast_result(b, node, result)


@HANDLERS.register_pattern
def quantized_linear(node: Node) -> Optional[PatternMatch]:
    """linear(x, W[, bias]), W a quantized (out, in) weight: groups along its
    inputs multiply as x @ P^T, along its outputs as x @ P (P: W^T packed)."""
    if node.op != "call_function" or target_key(node.target) != "aten::linear":
        return None
    weight = _operand(node, 1)
    if weight is None or len(weight.shape) != 2:
        return None
    bias = node.args[2] if len(node.args) > 2 else node.kwargs.get("bias")
    transpose = weight.axis == 1

    def lower(b: Emitter) -> None:
        _product(b, node, node.args[0], weight, transpose, bias)

    return PatternMatch("quantized_linear", (weight.node, node), lower)


def _transposed(node) -> Optional[Node]:
    """The matrix `node` transposes (a 2-D permute or transpose), if it does."""
    if not isinstance(node, Node) or node.op != "call_function":
        return None
    key = target_key(node.target)
    value = node.args[0].meta.get("val") if node.args and isinstance(node.args[0], Node) else None
    if not isinstance(value, torch.Tensor) or value.dim() != 2:
        return None
    if key in TRANSPOSES and (len(node.args) == 1 or [d % 2 for d in node.args[1]] == [1, 0]):
        return node.args[0]
    if key in TRANSPOSES_INT and sorted(d % 2 for d in node.args[1:3]) == [0, 1]:
        return node.args[0]
    return None


@HANDLERS.register_pattern
def quantized_matmul(node: Node) -> Optional[PatternMatch]:
    """matmul/mm(x, M), M = W or W^T for a quantized 2-D weight W: groups
    along M's rows (the contraction) multiply as x @ P^T, along its columns as
    x @ P."""
    if node.op != "call_function" or target_key(node.target) not in ("aten::matmul", "aten::mm"):
        return None
    x, matrix = node.args[:2]
    inner = _transposed(matrix)
    weight = _operand(node, 1) if inner is None else _operand(matrix, 0)
    x_val = x.meta.get("val") if isinstance(x, Node) else None
    if weight is None or len(weight.shape) != 2 or not isinstance(x_val, torch.Tensor):
        return None
    if x_val.dim() < 2:
        return None  # a vector times a quantized matrix: dequantized whole
    groups_along_rows = (weight.axis == 0) == (inner is None)
    members = (weight.node, node) if inner is None else (weight.node, matrix, node)

    def lower(b: Emitter) -> None:
        _product(b, node, x, weight, transpose=groups_along_rows)

    return PatternMatch("quantized_matmul", members, lower)


@HANDLERS.register_pattern
def quantized_embedding(node: Node) -> Optional[PatternMatch]:
    """embedding(W, indices), W quantized along its rows: only the rows
    looked up are dequantized, never the whole table."""
    if node.op != "call_function" or target_key(node.target) != "aten::embedding":
        return None
    weight = _operand(node, 0)
    if weight is None or len(weight.shape) != 2 or weight.axis != 1:
        return None

    def lower(b: Emitter) -> None:
        indices = b.tensor_slot(node.args[1])
        packed = weight.packed(b, compute_dtype(b, node))

        def taken(table: Optional[TensorSlot]) -> Optional[TensorSlot]:
            if table is None:
                return None
            rows = b.temp(table.dtype, (*indices.shape, *table.shape[1:]))
            b.emit(ir.TakeNode(x=table.tid, indices=indices.tid, out=rows.tid, axis=0))
            return rows

        rows = Packed(
            taken(packed.w), taken(packed.scales), taken(packed.biases), packed.tensor_scale
        )
        _dequantize(b, node, weight, rows, (*indices.shape, weight.shape[1]))

    return PatternMatch("quantized_embedding", (weight.node, node), lower)
