"""torch.scatter (a tensor of updates, or one value) lowers to ScatterNode,
the index smaller than x on the other axes too, and matches eager."""

from __future__ import annotations

import pytest
import torch
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime
from torch import nn

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.tools.inspector import main_instructions
from mlx_delegate.compiler.partitioner import MLXPartitioner


class ScatterValue(nn.Module):
    """DeepSeek-V3's group mask: zeros with ones at the chosen groups."""

    def forward(self, scores):
        chosen = torch.topk(scores, k=2, dim=-1, sorted=False)[1]
        return torch.zeros_like(scores).scatter(1, chosen, 1.0) * scores


class ScatterSource(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x, index, src):
        return x.scatter(self.dim, index, src)


def lower_and_run(model, inputs):
    exported = torch.export.export(model, inputs)
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device="cpu")])
    outer = [n for n in edge.exported_program().graph.nodes if n.op == "call_function"]
    assert [str(n.target) for n in outer] == ["executorch_call_delegate"] + [
        "<built-in function getitem>"
    ] * (len(outer) - 1)
    pte = edge.to_executorch().buffer
    (got,) = Runtime.get().load_program(pte).load_method("forward").execute(list(inputs))
    return got, [i.op for i in main_instructions(pte)]


def test_scatter_of_a_value_marks_the_chosen_positions():
    scores = torch.randn(5, 8, generator=torch.Generator().manual_seed(0))
    got, ops = lower_and_run(ScatterValue(), (scores,))
    assert "Scatter" in ops, ops
    torch.testing.assert_close(got, ScatterValue()(scores))


@pytest.mark.parametrize("dim", [0, 1])
def test_scatter_of_a_source_with_an_index_smaller_than_x(dim):
    generator = torch.Generator().manual_seed(1)
    x = torch.randn(6, 7, generator=generator)
    # Distinct positions along `dim` (a repeated index leaves which write wins unspecified).
    index = torch.stack([torch.randperm(x.shape[dim], generator=generator)[:4] for _ in range(3)])
    index = index if dim == 1 else index.T.contiguous()
    src = torch.randn(5, 5, generator=generator)
    model = ScatterSource(dim)
    got, ops = lower_and_run(model, (x, index, src))
    assert "Scatter" in ops, ops
    torch.testing.assert_close(got, model(x, index, src))
