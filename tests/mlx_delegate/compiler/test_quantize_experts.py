"""quantize_experts: transformers' 3-D expert stacks quantized with torchao's
quantizer, read back dequantized; what it refuses and what it leaves alone."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from mlx_delegate.compiler.quantize_experts import quantize_experts


class Experts(nn.Module):
    def __init__(self, inputs: int = 64, hidden: int = 32):
        super().__init__()
        self.gate_up_proj = nn.Parameter(torch.randn(4, 2 * hidden, inputs))
        self.down_proj = nn.Parameter(torch.randn(4, inputs, hidden))
        self.router = nn.Linear(inputs, 4)  # 2-D: not an expert stack


@pytest.mark.parametrize("scheme, levels", [("int3", 8), ("int4", 16), ("int8", 256)])
def test_each_stack_reads_back_as_its_groups_quantized(scheme, levels):
    torch.manual_seed(0)
    experts = Experts()
    original = experts.gate_up_proj.detach().clone()
    quantize_experts(experts, scheme, 32)
    from torchao.quantization import IntxUnpackedToInt8Tensor

    assert isinstance(experts._parameters["gate_up_proj"], IntxUnpackedToInt8Tensor)
    assert isinstance(experts._parameters["down_proj"], IntxUnpackedToInt8Tensor)
    assert type(experts.router.weight) is nn.Parameter
    weight = experts.gate_up_proj  # dequantized on read
    assert weight.shape == original.shape and weight.dtype == original.dtype
    # Symmetric, one scale per group of 32: each group takes at most `levels` values,
    # within half a step of the original.
    groups = weight.reshape(-1, 32)
    assert max(len(torch.unique(g)) for g in groups) <= levels
    step = original.reshape(-1, 32).abs().amax(-1, keepdim=True) / (levels // 2 - 0.5)
    assert ((groups - original.reshape(-1, 32)).abs() <= step / 2 + 1e-6).all()


def test_a_stack_whose_last_axis_does_not_divide_into_groups_is_left_with_a_warning():
    experts = Experts(inputs=64, hidden=48)
    with pytest.warns(UserWarning, match="down_proj is not quantized: its last axis 48"):
        quantize_experts(experts, "int4", 32)
    assert type(experts._parameters["down_proj"]) is nn.Parameter
    assert type(experts._parameters["gate_up_proj"]) is not nn.Parameter


def test_unknown_schemes_and_group_sizes_are_refused():
    with pytest.raises(ValueError, match="expert stacks quantize to int2, .*, int8, not nvfp4"):
        quantize_experts(Experts(), "nvfp4", 32)
    with pytest.raises(ValueError, match="group size 16"):
        quantize_experts(Experts(), "int4", 16)
    quantize_experts(nn.Linear(64, 8), "nvfp4", 32)  # no stacks: nothing to refuse


def test_layers_share_one_class_and_a_second_call_keeps_the_first_quantization():
    torch.manual_seed(0)
    layers = nn.ModuleList([Experts(), Experts()])
    quantize_experts(layers, "int4", 32)
    assert type(layers[0]) is type(layers[1]) and type(layers[0]).__bases__ == (Experts,)
    first = layers[0].gate_up_proj.clone()
    quantize_experts(layers, "int8", 32)  # already int4: left as it is
    torch.testing.assert_close(layers[0].gate_up_proj, first, rtol=0, atol=0)
