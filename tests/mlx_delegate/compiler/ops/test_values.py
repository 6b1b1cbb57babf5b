"""Runtime values (mlx_delegate/compiler/ops/values.py): item() of a one-element input
reads the input itself, not a selection the device would compute first."""

from __future__ import annotations

import torch
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime
from torch import nn

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.tools.inspector import delegates, describe, main_instructions
from mlx_delegate.compiler.partitioner import MLXPartitioner


class CachePosition(nn.Module):
    """An LLM's step: the position read on the host, rows of a buffer from it."""

    def __init__(self):
        super().__init__()
        self.register_buffer("rows", torch.arange(40.0).reshape(10, 4))

    def forward(self, x, input_pos):
        pos = input_pos[0].item()
        torch._check(pos >= 0)
        torch._check(pos + x.shape[0] <= 10)
        return self.rows[pos : pos + x.shape[0]] + x


def test_item_of_a_one_element_input_reads_the_input():
    x, pos = torch.ones(3, 4), torch.tensor([2])
    exported = torch.export.export(CachePosition(), (x, pos))
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device="cpu")])
    pte = edge.to_executorch().buffer
    instructions = main_instructions(pte)
    (item,) = [i for i in instructions if i.op == "Item"]
    assert not [i for i in instructions if i.op == "Select"], [str(i) for i in instructions]
    ((_, payload, specs, _),) = list(delegates(pte))
    (inputs,) = [line for line in describe(payload, specs) if line.strip().startswith("inputs:")]
    assert item.reads["x"] in inputs.split(":")[1].replace(",", " ").split(), (str(item), inputs)
    method = Runtime.get().load_program(pte).load_method("forward")
    for start in (0, 2, 7):
        (got,) = method.execute([x, torch.tensor([start])])
        torch.testing.assert_close(got, CachePosition()(x, torch.tensor([start])))
