"""Op tests of Sample (SampleNode): the LLM sampler's custom op, greedy and
top-p, against its eager meaning (mlx_delegate/llm/sampling.py)."""

from __future__ import annotations

import torch

from .op_spec import C, T, Cases, bf16, f32

CASES = Cases()  # this module's op tests


def _sample(logits, temperature, top_p, uniform) -> torch.Tensor:
    from mlx_delegate.llm import sampling  # noqa: F401  (defines torch.ops.mlx_delegate.sample)

    return torch.ops.mlx_delegate.sample(logits, temperature, top_p, uniform)


def _scalar(value: float) -> T:
    return T((1,), f32, values=(value,))


VOCAB = 300
CASES.add(
    "sample",
    [
        C("greedy", _sample, T((1, VOCAB)), _scalar(0.0), _scalar(0.9), _scalar(0.5)),
        C("greedy_negative_temperature", _sample, T((1, VOCAB)), _scalar(-1.0), _scalar(1.0), _scalar(0.3)),  # fmt: skip
        C("top_p", _sample, T((1, VOCAB)), _scalar(0.8), _scalar(0.9), _scalar(0.37)),
        C("top_p_all", _sample, T((1, VOCAB)), _scalar(1.5), _scalar(1.0), _scalar(0.999)),
        C("top_p_first", _sample, T((1, VOCAB)), _scalar(0.7), _scalar(0.5), _scalar(0.0)),
        C("bfloat16_logits", _sample, T((1, VOCAB), bf16), _scalar(0.0), _scalar(1.0), _scalar(0.5)),  # fmt: skip
    ],
)
