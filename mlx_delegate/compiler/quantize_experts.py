"""Weight-only int4/int8 quantization of mixture-of-experts weights with
torchao, in the form the MLX delegate lowers to MLX's gather_qmm
(mlx_delegate/compiler/ops/experts.py).

transformers keeps a layer's experts as 3-D parameters, (experts, out, in)
stacks such as `gate_up_proj` and `down_proj`, which `quantize_` with
`IntxWeightOnlyConfig` does not take (it quantizes 2-D and 4-D weights only),
and torchao's quantized tensor cannot be indexed by expert ids. So each stack
is quantized here with the same torchao quantizer `IntxWeightOnlyConfig`
uses (`IntxUnpackedToInt8Tensor.from_hp`, symmetric, one scale per `group_size`
consecutive values of the last axis) and kept as the module's parameter, and
reading the attribute dequantizes it (torchao's `dequantize_affine`): the
experts' forward indexes the dequantized stack, eager and exported alike."""

from __future__ import annotations

import functools
import warnings

import torch
from torch import nn

from ..formats.quantized import GROUP_SIZES

SCHEMES = {f"int{bits}": getattr(torch, f"int{bits}") for bits in range(2, 9)}
# The 3-D expert stacks of transformers' experts modules (integrations/moe.py).
EXPERT_WEIGHTS = ("gate_up_proj", "up_proj", "down_proj")


def quantize_experts(model: nn.Module, scheme: str, group_size: int) -> nn.Module:
    """Quantizes, in place, every 3-D expert weight stack of `model` to
    `scheme` ("int2" to "int8") in groups of `group_size` (32, 64 or 128) along
    its last axis; returns `model`. A stack whose last axis is not a multiple
    of `group_size` stays as it is, with a warning naming it. Another scheme is
    refused where there are stacks."""
    if group_size not in GROUP_SIZES:
        raise ValueError(f"group size {group_size}: expected one of {GROUP_SIZES}")
    from torchao.quantization import IntxUnpackedToInt8Tensor

    for fqn, module in list(model.named_modules()):
        names = [  # plain float stacks: one quantized already is a torchao tensor
            name
            for name in EXPERT_WEIGHTS
            if type(module._parameters.get(name)) is nn.Parameter
            and module._parameters[name].dim() == 3
            and module._parameters[name].is_floating_point()
        ]
        quantized = []
        if names and scheme not in SCHEMES:
            raise ValueError(f"{fqn}: expert stacks quantize to {', '.join(SCHEMES)}, not {scheme}")
        for name in names:
            weight = module._parameters[name].detach()
            if weight.shape[-1] % group_size:
                warnings.warn(
                    f"{fqn}.{name} is not quantized: its last axis {weight.shape[-1]} "
                    f"is not a multiple of the group size {group_size}",
                    stacklevel=2,
                )
                continue
            stack = IntxUnpackedToInt8Tensor.from_hp(weight, (1, 1, group_size), SCHEMES[scheme])
            module._parameters[name] = nn.Parameter(stack, requires_grad=False)
            quantized.append(name)
        if quantized:
            _dequantize_on_read(module, quantized)
    return model


def _dequantize_on_read(module: nn.Module, names: list[str]) -> None:
    """Reading `module.<name>` gives the dequantized stack: a subclass of the
    module's class with a property per name (an instance cannot hold one)."""
    cls = type(module)
    already = getattr(cls, "_dequantized_on_read", ())
    base = cls.__bases__[0] if already else cls
    module.__class__ = _reading_class(base, tuple(sorted(set(already) | set(names))))


@functools.cache
def _reading_class(base: type, names: tuple[str, ...]) -> type:
    """One subclass per experts class and set of names, shared by the layers."""

    def reader(name: str) -> property:
        return property(lambda self: self._parameters[name].dequantize())

    attributes = {name: reader(name) for name in names}
    attributes["_dequantized_on_read"] = names
    return type(f"QuantizedExperts{base.__name__}", (base,), attributes)
