"""Tensor-parallel MLPs (mlx_delegate/parallel.py): the zoo's Llama split over
a device group, exported, and run through executorch.runtime. On the CPU the
group names cpu:0 twice, so each half of every MLP runs on a stream (a thread)
of its own; on two GPUs, "gpu:0,gpu:1" (bench/tensor_parallel.py)."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from mlx_delegate import parallel
from mlx_delegate.inspect import main_instructions
from mlx_delegate.test.models import all_models


def llama(ways: int = 0):
    model, inputs = all_models()["llama"].build()
    if ways:
        assert parallel.split_mlps(model, ways) == 1  # the one layer's MLP
    return model, inputs


def lower(model, inputs, device: str) -> bytes:
    from executorch.exir import to_edge_transform_and_lower

    from mlx_delegate.partitioner import MLXPartitioner

    exported = torch.export.export(model, inputs, strict=False)
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device=device)])
    return edge.to_executorch().buffer


def run(pte: bytes, inputs) -> torch.Tensor:
    import mlx_delegate.runtime  # noqa: F401  (registers the delegate backend)
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte)
    (out,) = program.load_method("forward").execute(list(inputs))
    return out


@pytest.fixture(scope="module")
def split_llama():
    model, inputs = llama(ways=2)
    return model, inputs, lower(model, inputs, "cpu:0,cpu:0")


def test_a_split_mlp_computes_what_the_whole_one_does():
    whole, inputs = llama()
    split, _ = llama(ways=2)
    with torch.no_grad():
        torch.testing.assert_close(split(*inputs), whole(*inputs), rtol=1e-5, atol=1e-5)
    mlp = split.model.model.layers[0].mlp  # the zoo's wrapper, then LlamaForCausalLM
    halves = getattr(mlp, parallel.SHARDS)
    assert [h.gate_proj.out_features for h in halves] == [64, 64]
    assert [h.down_proj.in_features for h in halves] == [64, 64]


def test_the_split_llama_runs_on_two_streams_and_matches_the_whole_model(split_llama):
    _, inputs, pte = split_llama
    whole, _ = llama()
    with torch.no_grad():
        expected = whole(*inputs)
    torch.testing.assert_close(run(pte, inputs), expected, rtol=1e-4, atol=1e-4)


def test_a_gpu_group_falls_back_to_as_many_cpu_streams_without_a_gpu():
    model, inputs = llama(ways=2)
    pte = lower(model, inputs, "gpu:0,gpu:1")  # this machine has no GPU backend
    with torch.no_grad():
        torch.testing.assert_close(run(pte, inputs), model(*inputs), rtol=1e-4, atol=1e-4)


def test_each_half_of_the_mlp_is_placed_on_its_device(split_llama):
    _, _, pte = split_llama
    instructions = main_instructions(pte)
    second = [i for i in instructions if i.device == 1]
    # The second half: its gate, up and down products and what lies between.
    assert sum(i.op in ("Linear", "Matmul", "Addmm") for i in second) == 3, second
    assert {i.device for i in instructions} == {0, 1}


def test_a_device_group_of_the_wrong_size_is_refused_at_export():
    model, inputs = llama(ways=2)
    with pytest.raises(ValueError, match="names 3 devices, but the program is split over 2"):
        lower(model, inputs, "cpu:0,cpu:0,cpu:0")


@pytest.mark.parametrize("device", ["gpu:0,", ",gpu:0", "gpu:0;gpu:1", "gpu:0,npu:1"])
def test_a_malformed_device_group_is_refused_by_the_partitioner(device):
    from mlx_delegate.partitioner import MLXPartitioner

    with pytest.raises(ValueError, match="group of devices separated by commas"):
        MLXPartitioner(device=device)


def test_split_mlps_finds_llama_and_our_own_projection_names():
    class Gated(nn.Module):
        def __init__(self):
            super().__init__()
            self.w1, self.w3, self.w2 = nn.Linear(8, 12), nn.Linear(8, 12), nn.Linear(12, 8)

        def forward(self, x):
            return self.w2(torch.relu(self.w1(x)) * self.w3(x))

    model = nn.Sequential(Gated(), nn.Linear(8, 8), Gated())
    x = torch.randn(4, 8)
    with torch.no_grad():
        expected = model(x)
        assert parallel.split_mlps(model, 3) == 2
        torch.testing.assert_close(model(x), expected, rtol=1e-5, atol=1e-5)
    # The output projection's bias is added once, by the first part.
    assert [h.w2.bias is not None for h in getattr(model[0], parallel.SHARDS)] == [
        True,
        False,
        False,
    ]
    assert parallel.split_mlps(model, 2) == 0  # nothing left to split


def test_a_block_holding_its_projections_directly_is_not_taken_for_an_mlp():
    class Block(nn.Module):  # each part would run the attention too
        def __init__(self):
            super().__init__()
            self.q = nn.Linear(8, 8)
            self.gate, self.up, self.down = nn.Linear(8, 12), nn.Linear(8, 12), nn.Linear(12, 8)

    assert parallel.split_mlps(nn.Sequential(Block()), 2) == 0


def test_split_mlps_refuses_what_it_cannot_split():
    with pytest.raises(ValueError, match="2 to 256 devices"):
        parallel.split_mlps(nn.Sequential(), 1)
    mlp = nn.Module()
    mlp.up, mlp.down = nn.Linear(4, 2), nn.Linear(2, 4)
    with pytest.raises(ValueError, match="cannot split 2 hidden units 3 ways"):
        parallel.split_mlps(nn.Sequential(mlp), 3)
    with pytest.raises(ValueError, match="the model is an MLP itself"):
        parallel.split_mlps(mlp, 2)


def test_device_of_reads_the_innermost_part_of_the_module_path():
    graph = torch.fx.Graph()
    node = graph.placeholder("x")
    assert parallel.device_of(node) == 0
    node.meta["nn_module_stack"] = {
        "a": ("model.layers.0.mlp", "SplitMLP"),
        "b": ("model.layers.0.mlp.device_shards.1", "LlamaMLP"),
        "c": ("model.layers.0.mlp.device_shards.1.down_proj", "Linear"),
    }
    assert parallel.device_of(node) == 1
    node.meta["nn_module_stack"] = {
        "a": ("device_shards_x.2", "M"),
        "b": ("my_device_shards.3", "M"),
    }
    assert parallel.device_of(node) == 0
