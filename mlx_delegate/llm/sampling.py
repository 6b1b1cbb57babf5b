"""Sampling inside the exported graph, so only the token id crosses back.

The random number is an input (`uniform`, drawn by the caller from its seeded
generator), which keeps the program deterministic and the same on every
device: top-p keeps the smallest set of most likely tokens whose probability
reaches `top_p`, and `uniform` picks one of them by inverse CDF. A temperature
of 0 (or less) is greedy.

The sampler is one custom op, `mlx_delegate::sample`, lowered to one node
(mlx_delegate/compiler/ops/sample.py) that runs only the sampler asked for: in plain
tensor ops, the argmax and the top-p sampler both ran at every step and one
was picked, and the top-p sampler's sort of a 128,256-token vocabulary took
1.1 to 2.3 ms of a 1B model's 3 to 4 ms decode step on an H100."""

from __future__ import annotations

import torch
from torch import nn

from ..compiler.run_ahead import RunAhead


def _top_p(logits, temperature, top_p, uniform) -> torch.Tensor:
    probs = torch.softmax(logits / temperature.clamp(min=1e-5), dim=-1)
    sorted_probs, order = probs.sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs
    kept = torch.where(before < top_p, sorted_probs, torch.zeros_like(sorted_probs))
    cumulative = kept.cumsum(dim=-1)
    threshold = uniform * cumulative[:, -1]
    rank = (cumulative <= threshold[:, None]).sum(dim=-1).clamp(max=logits.shape[-1] - 1)
    return order.gather(-1, rank[:, None])[:, 0]


@torch.library.custom_op("mlx_delegate::sample", mutates_args=())
def sample(
    logits: torch.Tensor, temperature: torch.Tensor, top_p: torch.Tensor, uniform: torch.Tensor
) -> torch.Tensor:
    """logits (1, V) float; temperature, top_p, uniform (1,) float32 -> (1,) int64."""
    if float(temperature[0]) <= 0:
        return logits.argmax(dim=-1)
    return _top_p(logits.float(), temperature, top_p, uniform)


@sample.register_fake
def _(logits, temperature, top_p, uniform) -> torch.Tensor:
    return logits.new_empty((logits.shape[0],), dtype=torch.int64)


class Generator(nn.Module):
    """The exported program: the model's last logits, sampled.

    forward(tokens (1, T) int64, input_pos (1,) int64, temperature (1,),
            top_p (1,), uniform (1,) float32) -> next token (1,) int64"""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, tokens, input_pos, temperature, top_p, uniform):
        return sample(self.model(tokens, input_pos), temperature, top_p, uniform)


# The call after one of Generator's, as a decode loop makes it: the token it
# returned, at the position moved on by the tokens it took, the sampling
# inputs unchanged (a greedy loop passes a constant `uniform`). The runtime
# starts that call before returning this one; the model writes its cache at
# the positions given and attends to none it has not written, so a call that
# was predicted wrongly (a new prompt) leaves nothing behind that is read.
NEXT_CALL = RunAhead(fed=(("tokens", 0),), advanced=("input_pos",))
