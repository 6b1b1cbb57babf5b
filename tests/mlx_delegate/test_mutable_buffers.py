"""Buffers written in place (a running sum, a cache written by slice) live in
the delegate and persist across executions, matching PyTorch call for call."""

import copy
import operator

import torch
from executorch.exir import to_edge_transform_and_lower

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from executorch.runtime import Runtime
from mlx_delegate.compiler.partitioner import MLXPartitioner


class RunningSum(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("total", torch.zeros(2, 3))

    def forward(self, x):
        self.total.add_(x)
        return self.total * 2


class SliceCache(torch.nn.Module):
    """A KV-cache-like buffer written at a position given as a tensor."""

    def __init__(self):
        super().__init__()
        self.register_buffer("cache", torch.zeros(1, 8, 4))

    def forward(self, x, position):
        self.cache.index_copy_(1, position, x)
        return self.cache.sum(dim=1)


def run_three_times(model, make_inputs):
    eager = copy.deepcopy(model)
    exported = torch.export.export(model, make_inputs(0))
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device="cpu")])
    outer = edge.exported_program().graph_module.graph
    calls = [n for n in outer.nodes if n.op == "call_function" and n.target is not operator.getitem]
    assert [str(n.target) for n in calls] == ["executorch_call_delegate"], "work left the delegate"
    assert not [
        s
        for s in edge.exported_program().graph_signature.output_specs
        if s.kind.name == "BUFFER_MUTATION"
    ], "the buffer mutation left the delegate"
    program = Runtime.get().load_program(edge.to_executorch().buffer)
    method = program.load_method("forward")
    for step in range(3):
        inputs = make_inputs(step)
        (got,) = method.execute(list(inputs))
        with torch.no_grad():
            want = eager(*inputs)
        torch.testing.assert_close(got, want)


def test_running_sum_persists():
    run_three_times(RunningSum(), lambda step: (torch.full((2, 3), float(step + 1)),))


def test_cache_written_at_a_position_persists():
    run_three_times(
        SliceCache(),
        lambda step: (
            torch.randn(1, 1, 4, generator=torch.Generator().manual_seed(step)),
            torch.tensor([step * 2]),
        ),
    )
