"""Weight-only quantization of a model's linear and embedding layers with
torchao, in the form the MLX delegate lowers to packed weights
(`mlx_delegate/ops/quantized.py`: quantized matmul, rows gathered then
dequantized)."""

from __future__ import annotations

import warnings

import torch
from torch import nn

from ..ops.quantized import GROUP_SIZES

SCHEMES = {"int4": torch.int4, "int8": torch.int8}


def quantize_weights(model: nn.Module, scheme: str, group_size: int) -> nn.Module:
    """Quantizes, in place, the weight of every `nn.Linear` and `nn.Embedding`
    of `model` to `scheme` ("int4" or "int8"), symmetric, one scale per
    `group_size` (32, 64 or 128) consecutive inputs; returns `model`. A layer
    whose input size is not a multiple of `group_size` stays as it is, with a
    warning naming it."""
    if scheme not in SCHEMES:
        raise ValueError(f"scheme {scheme!r}: expected one of {sorted(SCHEMES)}")
    if group_size not in GROUP_SIZES:
        raise ValueError(f"group size {group_size}: expected one of {GROUP_SIZES}")
    from torchao.quantization import IntxWeightOnlyConfig, quantize_
    from torchao.quantization.granularity import PerGroup

    def eligible(module: nn.Module, fqn: str) -> bool:
        if not isinstance(module, (nn.Linear, nn.Embedding)):
            return False
        inputs = module.weight.shape[1]
        if inputs % group_size:
            warnings.warn(
                f"{fqn or type(module).__name__} is not quantized: its input size {inputs} "
                f"is not a multiple of the group size {group_size}",
                stacklevel=3,
            )
            return False
        return True

    config = IntxWeightOnlyConfig(weight_dtype=SCHEMES[scheme], granularity=PerGroup(group_size))
    quantize_(model, config, filter_fn=eligible)
    return model
