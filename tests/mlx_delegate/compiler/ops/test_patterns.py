"""Multi-node patterns: hand-written RMSNorm is lowered as one RmsNorm node."""

import torch
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.tools.inspector import delegates, describe
from mlx_delegate.compiler.partitioner import MLXPartitioner


class HandWrittenRMSNorm(torch.nn.Module):
    def __init__(self, dim: int, weighted: bool, square_by_pow: bool):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.rand(dim) + 0.5) if weighted else None
        self.square_by_pow = square_by_pow

    def forward(self, x):
        square = x.pow(2) if self.square_by_pow else x * x
        normed = x * torch.rsqrt(square.mean(-1, keepdim=True) + 1e-6)
        return normed * self.weight if self.weight is not None else normed


def lowered_ops(pte: bytes) -> list[str]:
    """Op names of the instructions of the one delegate, as the inspector prints them."""
    ((_, payload, specs, _),) = list(delegates(pte))
    instructions = [line.split() for line in describe(payload, specs)]
    return [words[1].split("(")[0] for words in instructions if words and words[0].isdigit()]


def run(model, x):
    edge = to_edge_transform_and_lower(
        torch.export.export(model, (x,)), partitioner=[MLXPartitioner(device="cpu")]
    )
    pte = edge.to_executorch().buffer
    program = Runtime.get().load_program(pte)
    (got,) = program.load_method("forward").execute([x])
    return pte, got


def test_hand_written_rms_norm_becomes_one_node():
    for weighted in (True, False):
        for square_by_pow in (True, False):
            model = HandWrittenRMSNorm(16, weighted, square_by_pow).eval()
            x = torch.randn(2, 5, 16)
            pte, got = run(model, x)
            assert lowered_ops(pte) == ["RmsNorm"], (weighted, square_by_pow)
            torch.testing.assert_close(got, model(x).detach())


def test_a_partial_pattern_is_lowered_op_by_op():
    class SquaresUsedTwice(HandWrittenRMSNorm):
        def forward(self, x):
            square = x * x
            normed = x * torch.rsqrt(square.mean(-1, keepdim=True) + 1e-6)
            return normed + square  # `square` escapes the pattern: no fusion

    model = SquaresUsedTwice(8, False, False).eval()
    x = torch.randn(3, 8)
    pte, got = run(model, x)
    assert "RmsNorm" not in lowered_ops(pte)
    torch.testing.assert_close(got, model(x))
