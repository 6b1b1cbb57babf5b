"""MXFP4 weights in an export form: E2M1 values with an E8M0 (power of two)
scale per 32 values of a row, OCP microscaling's fp4.

Neither torchao nor ExecuTorch exports them: ExecuTorch's `ExportableMXConfig`
takes float8 elements only. So the form is ours:

- `mlx_delegate::dequantize_mxfp4(qdata, scale, block_size, output_dtype)`, a
  custom op with a reference implementation: qdata (rows, cols / 2) uint8 holds
  two E2M1 codes a byte, the first in the low half; scale (rows, cols /
  block_size) uint8 holds E8M0 exponents, value = code's value * 2^(scale - 127).
  Read as little-endian uint32 words, the codes are MLX's mxfp4 layout as they
  are, and the scales are its scales, so the compiler lowers the op to MLX's
  mxfp4 mode (`mlx_delegate/compiler/ops/quantized.py`);
- `Mxfp4Tensor`, a weight whose linear and embedding call that op on their
  dequantized weight, as torchao's and ExecuTorch's exportable weights do.

The values are quantized by torchao's own `to_mx`."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor
from torchao.utils import TorchAOBaseTensor

aten = torch.ops.aten

BLOCK = 32  # values sharing a scale: the MX formats' block
# E2M1 code -> value: sign, 2 exponent bits, 1 mantissa bit
E2M1_VALUES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
E2M1_VALUES = E2M1_VALUES + tuple(-v for v in E2M1_VALUES)
E8M0_BIAS = 127


@torch.library.custom_op("mlx_delegate::dequantize_mxfp4", mutates_args=())
def dequantize_mxfp4(
    qdata: Tensor, scale: Tensor, block_size: int, output_dtype: torch.dtype = torch.float32
) -> Tensor:
    codes = torch.stack((qdata & 15, qdata >> 4), dim=-1).flatten(-2).long()
    values = torch.tensor(E2M1_VALUES, device=qdata.device)[codes]
    scales = torch.exp2(scale.float() - E8M0_BIAS)
    blocks = values.unflatten(-1, (-1, block_size)) * scales[..., None]
    return blocks.flatten(-2).to(output_dtype)


@dequantize_mxfp4.register_fake
def _(qdata, scale, block_size, output_dtype=torch.float32):
    return qdata.new_empty((*qdata.shape[:-1], qdata.shape[-1] * 2), dtype=output_dtype)


class Mxfp4Tensor(TorchAOBaseTensor):
    """A (rows, cols) weight held as MXFP4 codes and scales (see the module)."""

    tensor_data_names = ["qdata", "scale"]
    tensor_attribute_names = ["block_size", "orig_dtype"]

    def __new__(cls, qdata: Tensor, scale: Tensor, block_size: int, orig_dtype: torch.dtype):
        shape = (*qdata.shape[:-1], qdata.shape[-1] * 2)
        return Tensor._make_wrapper_subclass(cls, shape, dtype=orig_dtype, device=qdata.device)

    def __init__(self, qdata: Tensor, scale: Tensor, block_size: int, orig_dtype: torch.dtype):
        self.qdata, self.scale = qdata, scale
        self.block_size, self.orig_dtype = block_size, orig_dtype

    def dequantize(self, output_dtype=None) -> Tensor:
        return torch.ops.mlx_delegate.dequantize_mxfp4(
            self.qdata, self.scale, self.block_size, output_dtype or self.orig_dtype
        )

    @classmethod
    def from_float(cls, weight: Tensor, block_size: int = BLOCK) -> "Mxfp4Tensor":
        """`weight` (rows, cols), cols a multiple of `block_size`, quantized by
        torchao's `to_mx`."""
        from torchao.prototype.mx_formats.mx_tensor import to_mx

        high = weight if weight.dtype in (torch.float32, torch.bfloat16) else weight.float()
        scale, codes = to_mx(high.contiguous(), torch.float4_e2m1fn_x2, block_size)
        return cls(codes.view(torch.uint8), scale.view(torch.uint8), block_size, weight.dtype)


@Mxfp4Tensor.implements(aten.linear.default)
@Mxfp4Tensor.implements_torch_function(F.linear)
def _linear(func, types, args, kwargs):
    x, weight, bias = args[0], args[1], args[2] if len(args) > 2 else None
    return F.linear(x, weight.dequantize(), bias)


@Mxfp4Tensor.implements(aten.embedding.default)
@Mxfp4Tensor.implements_torch_function(F.embedding)
def _embedding(func, types, args, kwargs):
    if func is F.embedding:  # F.embedding(indices, weight, ...)
        return F.embedding(args[0], args[1].dequantize(), *args[2:], **kwargs)
    return aten.embedding.default(args[0].dequantize(), *args[1:], **kwargs)
