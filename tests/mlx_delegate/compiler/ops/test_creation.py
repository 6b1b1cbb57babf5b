"""torch.empty (ExecuTorch's _empty_dim_order) lowers inside the delegate as
zeros: the program fills it before reading it, and the result matches eager."""

from __future__ import annotations

import torch
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime
from torch import nn

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.tools.inspector import main_instructions
from mlx_delegate.compiler.partitioner import MLXPartitioner


class Assembled(nn.Module):
    """Keys assembled into an empty tensor, as DeepSeek-V3's attention does."""

    def forward(self, nope, rot):
        keys = nope.new_empty(*nope.shape[:-1], nope.shape[-1] + rot.shape[-1])
        keys[..., : nope.shape[-1]] = nope
        keys[..., nope.shape[-1] :] = rot
        return keys * 2


def test_empty_is_lowered_into_the_one_delegate():
    generator = torch.Generator().manual_seed(0)
    inputs = (torch.randn(2, 3, 4, generator=generator), torch.randn(2, 3, 2, generator=generator))
    edge = to_edge_transform_and_lower(
        torch.export.export(Assembled(), inputs), partitioner=[MLXPartitioner(device="cpu")]
    )
    targets = [
        str(n.target) for n in edge.exported_program().graph.nodes if n.op == "call_function"
    ]
    assert targets == ["executorch_call_delegate", "<built-in function getitem>"], targets
    pte = edge.to_executorch().buffer
    assert "Full" in [i.op for i in main_instructions(pte)]
    (got,) = Runtime.get().load_program(pte).load_method("forward").execute(list(inputs))
    torch.testing.assert_close(got, Assembled()(*inputs))
