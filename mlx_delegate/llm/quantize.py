"""Weight-only quantization of a model's linear and embedding layers with
torchao, in the forms the MLX delegate lowers to packed weights
(`mlx_delegate/compiler/ops/quantized.py`: quantized matmul, rows gathered then
dequantized).

The formats (`--quantize`):
- `int2` .. `int8`: torchao's `IntxWeightOnlyConfig`, symmetric integers,
  one scale per `group_size` (32, 64 or 128) consecutive inputs; MLX's affine
  mode (7-bit values are stored in 8 bits: MLX packs no 7-bit values).
- `nvfp4`: E2M1 values with an E4M3 scale per 16 and a per-tensor float32
  scale (ExecuTorch's `ExportableNVFP4Tensor`, quantized by torchao's
  `nvfp4_quantize`); MLX's nvfp4 mode.
- `mxfp4`: E2M1 values with an E8M0 scale per 32 (ours,
  `mlx_delegate.compiler.quantize_mxfp4`: no torchao or ExecuTorch export form makes
  them; quantized by torchao's `to_mx`); MLX's mxfp4 mode.
- `mxfp8`: E4M3 values with an E8M0 scale per 32 (ExecuTorch's
  `ExportableMXConfig`); MLX's mxfp8 mode.

The embedding and the LM head have a format of their own
(`Quantization.embedding`): their error reaches every token's logits, and
their size is the vocabulary's, so a model may keep them at 8 bits (or
unquantized) under 4-bit layers."""

from __future__ import annotations

import dataclasses
import warnings
from typing import Optional

import torch
from torch import nn

from ..formats.quantized import GROUP_SIZES

AFFINE = {f"int{bits}": getattr(torch, f"int{bits}") for bits in range(2, 9)}
# The float formats' group sizes are fixed by the format.
FLOAT_GROUPS = {"nvfp4": 16, "mxfp4": 32, "mxfp8": 32}
FORMATS = (*AFFINE, *FLOAT_GROUPS)
# The modules `Quantization.embedding` covers: the token (and position)
# embeddings and the LM head (mlx_delegate/llm/model.py's names).
EMBEDDING_LAYERS = ("embed", "pos_embed", "lm_head")


@dataclasses.dataclass(frozen=True)
class Quantization:
    """What to quantize to: `layers` (a FORMATS name) for the linear layers and
    expert stacks, `embedding` (a FORMATS name, or None: unquantized) for
    EMBEDDING_LAYERS; `group_size` for the integer formats."""

    layers: str
    embedding: Optional[str]
    group_size: int = 32

    def __post_init__(self):
        for name in (self.layers, self.embedding):
            if name is not None and name not in FORMATS:
                raise ValueError(f"quantization {name!r}: expected one of {', '.join(FORMATS)}")
        if self.group_size not in GROUP_SIZES:
            raise ValueError(f"group size {self.group_size}: expected one of {GROUP_SIZES}")

    @classmethod
    def of(cls, scheme: str, group_size: int, embedding: Optional[str] = "same") -> "Quantization":
        """`scheme` for the layers, `embedding` for the embedding and LM head
        ("same": `scheme`; None: unquantized)."""
        return cls(scheme, scheme if embedding == "same" else embedding, group_size)

    def format_of(self, fqn: str) -> Optional[str]:
        """The format of the layer named `fqn` in the model."""
        return self.embedding if fqn.rpartition(".")[2] in EMBEDDING_LAYERS else self.layers

    def needs_amax(self, fqn: str) -> bool:
        """Whether the layer's quantization takes its whole weight's largest
        magnitude (nvfp4's per-tensor scale), so a weight quantized in slices
        needs it first."""
        return self.format_of(fqn) == "nvfp4"

    def __call__(
        self, model: nn.Module, prefix: str = "", amax: Optional[torch.Tensor] = None
    ) -> nn.Module:
        """Quantizes, in place, the weight of every `nn.Linear` and
        `nn.Embedding` of `model` (named `prefix` in the whole model) to its
        format; returns `model`. `amax`: the largest magnitude of the whole
        weight that `model`'s one layer holds a slice of. A layer whose sizes the
        format cannot group stays as it is, with a warning naming it."""
        for fqn, module in list(model.named_modules()):
            name = f"{prefix}.{fqn}".strip(".")
            fmt = self.format_of(name)
            if (
                isinstance(module, (nn.Linear, nn.Embedding))
                and fmt
                and self._fits(module, name, fmt)
            ):
                _quantize_layer(module, fmt, self.group_size, amax)
        return model

    def _fits(self, module: nn.Module, name: str, fmt: str) -> bool:
        rows, inputs = module.weight.shape
        group = FLOAT_GROUPS.get(fmt, self.group_size)
        # nvfp4's E2M1 values pack 8 to a 32-bit word along the rows too (MLX)
        sizes = (rows, inputs) if fmt == "nvfp4" else (inputs,)
        if all(n % group == 0 for n in sizes):
            return True
        warnings.warn(
            f"{name or type(module).__name__} is not quantized: its sizes {tuple(sizes)} "
            f"are not multiples of {fmt}'s group size {group}",
            stacklevel=3,
        )
        return False


def quantize_weights(
    model: nn.Module, scheme: str, group_size: int, embedding: Optional[str] = "same"
) -> nn.Module:
    """Quantizes `model`'s linear and embedding layers to `scheme` (a FORMATS
    name), the embedding and LM head to `embedding` ("same": `scheme`; None:
    unquantized), in place; returns `model`."""
    return Quantization.of(scheme, group_size, embedding)(model)


def _quantize_layer(
    module: nn.Module, fmt: str, group_size: int, amax: Optional[torch.Tensor]
) -> None:
    from torchao.quantization import IntxWeightOnlyConfig, quantize_
    from torchao.quantization.granularity import PerGroup

    if fmt == "nvfp4":
        module.weight = nn.Parameter(_nvfp4(module.weight.detach(), amax), requires_grad=False)
        return
    if fmt == "mxfp4":
        from ..compiler.quantize_mxfp4 import Mxfp4Tensor

        module.weight = nn.Parameter(
            Mxfp4Tensor.from_float(module.weight.detach()), requires_grad=False
        )
        return
    if fmt == "mxfp8":
        from executorch.extension.llm.export.mx import ExportableMXConfig

        config = ExportableMXConfig()
    else:
        config = IntxWeightOnlyConfig(weight_dtype=AFFINE[fmt], granularity=PerGroup(group_size))
    quantize_(module, config, filter_fn=lambda m, fqn: m is module)


def _nvfp4(weight: torch.Tensor, amax: Optional[torch.Tensor]) -> torch.Tensor:
    """`weight` as ExecuTorch's exportable NVFP4 tensor, its per-tensor scale
    from `amax` (the whole weight's, when `weight` is a slice of it; None: its
    own): torchao's two-level scaling, the E4M3 block scales spanning their
    whole range for the tensor's largest block."""
    from executorch.extension.llm.export.nvfp4 import ExportableNVFP4Tensor
    from torchao.prototype.mx_formats.nvfp4_tensor import (
        nvfp4_quantize,
        per_tensor_amax_to_scale,
    )

    amax = weight.abs().max() if amax is None else amax
    tensor_scale = per_tensor_amax_to_scale(amax.float())
    scales, packed = nvfp4_quantize(weight, block_size=16, per_tensor_scale=tensor_scale)
    return ExportableNVFP4Tensor(
        packed.view(torch.uint32),
        scales.view(torch.uint8),
        tensor_scale.to(torch.float32).reshape(()),
        block_size=16,
        orig_dtype=weight.dtype,
    )
