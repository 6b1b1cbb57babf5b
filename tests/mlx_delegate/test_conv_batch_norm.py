"""A batch norm in inference mode that follows a convolution is folded into
the convolution's weights and bias at compile time: one Conv instruction."""

import pytest
import torch
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime
from torch import nn

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.tools.inspector import delegates, describe
from mlx_delegate.compiler.partitioner import MLXPartitioner
from testbench.op_cases_nn import with_stats


def lowered_ops(pte: bytes) -> list[str]:
    """Op names of the instructions of the one delegate, as the inspector prints them."""
    ((_, payload, specs, _),) = list(delegates(pte))
    instructions = [line.split() for line in describe(payload, specs)]
    return [words[1].split("(")[0] for words in instructions if words and words[0].isdigit()]


def _lower_and_run(model, *inputs):
    edge = to_edge_transform_and_lower(
        torch.export.export(model, inputs), partitioner=[MLXPartitioner(device="cpu")]
    )
    pte = edge.to_executorch().buffer
    program = Runtime.get().load_program(pte)
    got = program.load_method("forward").execute(list(inputs))
    return lowered_ops(pte), got


@pytest.mark.parametrize(
    "conv, bn, shape",
    [
        (nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), (2, 3, 6, 6)),
        (nn.Conv1d(2, 4, 3, bias=False), nn.BatchNorm1d(4, affine=False), (2, 2, 7)),
        (nn.Conv3d(2, 3, 2), nn.BatchNorm3d(3), (1, 2, 3, 4, 4)),
        (nn.ConvTranspose2d(4, 6, 3, stride=2, groups=2), nn.BatchNorm2d(6), (1, 4, 3, 3)),
    ],
)
def test_batch_norm_after_a_convolution_is_folded(conv, bn, shape):
    torch.manual_seed(0)
    model = with_stats(nn.Sequential(conv, bn))
    x = torch.randn(shape)
    ops, (got,) = _lower_and_run(model, x)
    assert ops == ["Conv"]
    torch.testing.assert_close(got, model(x).detach(), rtol=1e-4, atol=1e-4)


def test_batch_norm_alone_uses_precomputed_scale_and_shift():
    torch.manual_seed(0)
    model = with_stats(nn.BatchNorm2d(3))
    x = torch.randn(2, 3, 4, 4)
    ops, (got,) = _lower_and_run(model, x)
    assert ops == ["Multiply", "Add"]
    torch.testing.assert_close(got, model(x).detach(), rtol=1e-5, atol=1e-5)


def test_no_fold_when_the_convolution_output_is_used_elsewhere():
    class Both(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv, self.bn = nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3)

        def forward(self, x):
            y = self.conv(x)
            return self.bn(y) + y

    torch.manual_seed(0)
    model = with_stats(Both())
    x = torch.randn(1, 2, 5, 5)
    ops, (got,) = _lower_and_run(model, x)
    assert ops.count("Conv") == 1 and "Multiply" in ops
    torch.testing.assert_close(got, model(x).detach(), rtol=1e-4, atol=1e-4)
