"""Attention masks against MLX's causal mode, which aligns the mask at the lower
right: the mask of T new tokens over S cached keys (keys <= positions, the
positions arange(T) + S - T) becomes lower-right causal with no mask tensor;
PyTorch's is_causal stays aligned at the upper left when T < S."""

import pytest
import torch
import torch.nn.functional as F
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime
from torch.export import Dim

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.tools.inspector import main_instructions
from mlx_delegate.compiler.partitioner import MLXPartitioner


class CachedAttention(torch.nn.Module):
    """T queries at position `pos` over the keys up to pos + T."""

    def forward(self, q, keys, values, input_pos):
        length, pos = q.shape[2], input_pos[0].item()
        torch._check(pos >= 0)
        torch._check(pos + length <= keys.shape[2])
        keys, values = keys[:, :, : pos + length], values[:, :, : pos + length]
        positions = torch.arange(length) + pos
        mask = torch.arange(pos + length)[None, :] <= positions[:, None]
        return F.scaled_dot_product_attention(q, keys, values, attn_mask=mask, enable_gqa=True)


class UpperLeftCausal(torch.nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def _lower(model, inputs, dynamic_shapes=None):
    exported = torch.export.export(model, inputs, dynamic_shapes=dynamic_shapes)
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device="cpu")])
    pte = edge.to_executorch().buffer
    program = Runtime.get().load_program(pte)
    return pte, program, program.load_method("forward")


def test_cached_causal_mask_is_mlx_causal_mode():
    gen = torch.Generator().manual_seed(0)
    keys, values = torch.randn(1, 2, 16, 8, generator=gen), torch.randn(1, 2, 16, 8, generator=gen)
    q = torch.randn(1, 4, 3, 8, generator=gen)
    dynamic = ({2: Dim("t", max=15)}, None, None, None)
    pte, _program, method = _lower(CachedAttention(), (q, keys, values, torch.tensor([2])), dynamic)
    attention = [i for i in main_instructions(pte) if i.op == "ScaledDotProductAttention"]
    assert len(attention) == 1
    literals = attention[0].literals
    assert literals["causal"] and literals["lower_right"] and "mask" not in attention[0].reads
    for length, pos in ((3, 0), (3, 5), (1, 9), (6, 10)):
        q = torch.randn(1, 4, length, 8, generator=gen)
        expected = CachedAttention()(q, keys, values, torch.tensor([pos]))
        (actual,) = method.execute([q, keys, values, torch.tensor([pos])])
        torch.testing.assert_close(actual, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("queries", [3, 5])
def test_is_causal_keeps_pytorch_alignment(queries):
    gen = torch.Generator().manual_seed(1)
    q = torch.randn(1, 2, queries, 8, generator=gen)
    k, v = torch.randn(1, 2, 5, 8, generator=gen), torch.randn(1, 2, 5, 8, generator=gen)
    pte, _program, method = _lower(UpperLeftCausal(), (q, k, v))
    (actual,) = method.execute([q, k, v])
    torch.testing.assert_close(actual, UpperLeftCausal()(q, k, v), rtol=1e-5, atol=1e-5)
    causal = [i.literals.get("causal") for i in main_instructions(pte) if "Attention" in i.op]
    assert causal == [True]  # top-left: the runtime builds the mask MLX lacks
