"""Sampling inside the exported graph, so only the token id crosses back.

The random number is an input (`uniform`, drawn by the caller from its seeded
generator), which keeps the program deterministic and the same on every
device: top-p keeps the smallest set of most likely tokens whose probability
reaches `top_p`, and `uniform` picks one of them by inverse CDF. A temperature
of 0 (or less) is greedy."""

from __future__ import annotations

import torch
from torch import nn


def sample(
    logits: torch.Tensor, temperature: torch.Tensor, top_p: torch.Tensor, uniform: torch.Tensor
) -> torch.Tensor:
    """logits (1, V) float32; temperature, top_p, uniform (1,) float32 -> (1,) int64."""
    greedy = logits.argmax(dim=-1)
    probs = torch.softmax(logits / temperature.clamp(min=1e-5), dim=-1)
    sorted_probs, order = probs.sort(dim=-1, descending=True)
    before = sorted_probs.cumsum(dim=-1) - sorted_probs
    kept = torch.where(before < top_p, sorted_probs, torch.zeros_like(sorted_probs))
    cumulative = kept.cumsum(dim=-1)
    threshold = uniform * cumulative[:, -1]
    rank = (cumulative <= threshold[:, None]).sum(dim=-1).clamp(max=logits.shape[-1] - 1)
    sampled = order.gather(-1, rank[:, None])[:, 0]
    return torch.where(temperature <= 0, greedy, sampled)


class Generator(nn.Module):
    """The exported program: the model's last logits, sampled.

    forward(tokens (1, T) int64, input_pos (1,) int64, temperature (1,),
            top_p (1,), uniform (1,) float32) -> next token (1,) int64"""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, tokens, input_pos, temperature, top_p, uniform):
        return sample(self.model(tokens, input_pos), temperature, top_p, uniform)
