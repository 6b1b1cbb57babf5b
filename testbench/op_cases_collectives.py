"""Op tests of AllSum and AllGather (AllSumNode, AllGatherNode) in one
process, a group of one: both return their input, alone and inside a chain
of other ops. Their sums across processes are tested by two ring-backend
processes (tests/mlx_delegate/llm/test_tensor_parallel.py)."""

from __future__ import annotations

import torch

from .op_spec import C, T, Cases, bf16, f32

CASES = Cases()  # this module's op tests


def _all_sum(x: torch.Tensor) -> torch.Tensor:
    from mlx_delegate.compiler import collectives

    return collectives.all_sum(x, 1)


def _all_gather(x: torch.Tensor) -> torch.Tensor:
    from mlx_delegate.compiler import collectives

    return collectives.all_gather(x, 1)


def _in_chain(x: torch.Tensor) -> torch.Tensor:
    from mlx_delegate.compiler import collectives

    return collectives.all_gather(collectives.all_sum(x * 2.0, 1) + 1.0, 1).tanh()


CASES.add(
    "all_sum",
    [
        C("f32", _all_sum, T((3, 5))),
        C("bfloat16", _all_sum, T((2, 4, 8), bf16)),
        C("scalar", _all_sum, T((), f32)),
    ],
)
CASES.add(
    "all_gather",
    [
        C("f32", _all_gather, T((3, 5))),
        C("bfloat16", _all_gather, T((1, 8), bf16)),
        C("in_chain", _in_chain, T((4, 6))),
    ],
)
