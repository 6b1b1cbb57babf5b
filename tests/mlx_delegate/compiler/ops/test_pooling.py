"""The window-count rule that the pooling handlers check exported shapes
against, and that exec_pool applies at run time. Its agreement with the
runtime, against eager, is the op tests' pooling sweep
(testbench/op_cases_pool_sweep.py)."""

import itertools

import pytest
import torch
import torch.nn.functional as F
from executorch.exir import to_edge_transform_and_lower

from mlx_delegate.compiler.ops import pooling
from mlx_delegate.compiler.partitioner import MLXPartitioner


def _eager_length(length, kernel, stride, padding, dilation, ceil_mode) -> int:
    """Eager's output length, 0 where it refuses the geometry."""
    x = torch.zeros(1, 1, length)
    try:
        return F.max_pool1d(x, kernel, stride, padding, dilation, ceil_mode).shape[-1]
    except RuntimeError:
        return 0


@pytest.mark.parametrize("ceil_mode", [False, True])
def test_output_length_is_pytorchs(ceil_mode):
    """Wherever eager pools (padding at most half the kernel, as it requires),
    the rule counts its windows, and where eager finds none the rule does too."""
    for length, kernel, stride, dilation in itertools.product(
        range(1, 7), range(1, 6), range(1, 5), range(1, 4)
    ):
        for padding in range(kernel // 2 + 1):
            want = _eager_length(length, kernel, stride, padding, dilation, ceil_mode)
            got = pooling.pool_output_length(length, kernel, stride, padding, dilation, ceil_mode)
            geometry = (length, kernel, stride, padding, dilation, ceil_mode)
            assert max(got, 0) == want, geometry


def test_kernel_longer_than_the_input_counts_one_window():
    """EfficientNet's head: a 7x7 average pool in ceil mode over a 2x2 map."""
    assert pooling.pool_output_length(2, 7, 7, 0, 1, ceil_mode=True) == 1
    assert pooling.pool_output_length(2, 7, 7, 0, 1, ceil_mode=False) == 0


def _delegated_targets(model, x) -> list[str]:
    exported = torch.export.export(model, (x,))
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner()])
    return [
        str(n.target)
        for n in edge.exported_program().graph_module.graph.nodes
        if n.op == "call_function"
    ]


def test_the_partitioner_refuses_what_the_runtime_rule_would_not_run(monkeypatch):
    """The dry run checks every pool against the runtime's rule: a pool whose
    windows the rule does not count as PyTorch does stays outside the delegate
    (run by ExecuTorch's kernels) instead of failing at execution."""
    model = torch.nn.AvgPool2d(7, ceil_mode=True)
    x = torch.randn(1, 3, 2, 2)
    assert not any("avg_pool2d" in t for t in _delegated_targets(model, x))  # delegated
    monkeypatch.setattr(pooling, "pool_output_length", lambda *geometry: 0)
    assert any("avg_pool2d" in t for t in _delegated_targets(model, x))  # left outside
