"""A small decoder-only transformer with seeded random weights: token
embedding, RMSNorm, rotary position embeddings, causal attention through
scaled_dot_product_attention, a SiLU-gated MLP, and tied output projection."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F


@dataclass(frozen=True)
class TransformerConfig:
    vocab_size: int = 512
    dim: int = 128
    layers: int = 2
    heads: int = 4
    kv_heads: int = 2  # grouped-query attention
    hidden: int = 344
    max_seq_len: int = 128
    rope_theta: float = 10000.0
    norm_eps: float = 1e-5


def rotary_tables(config: TransformerConfig) -> tuple[torch.Tensor, torch.Tensor]:
    head_dim = config.dim // config.heads
    inv_freq = 1.0 / (config.rope_theta ** (torch.arange(0, head_dim, 2).float() / head_dim))
    angles = torch.outer(torch.arange(config.max_seq_len).float(), inv_freq)
    return angles.cos(), angles.sin()


def apply_rotary(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotates (even, odd) halves of the head dimension by position-dependent angles."""
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


class Attention(nn.Module):
    def __init__(self, config: TransformerConfig):
        super().__init__()
        self.heads, self.kv_heads = config.heads, config.kv_heads
        self.head_dim = config.dim // config.heads
        self.q = nn.Linear(config.dim, config.heads * self.head_dim, bias=False)
        self.k = nn.Linear(config.dim, config.kv_heads * self.head_dim, bias=False)
        self.v = nn.Linear(config.dim, config.kv_heads * self.head_dim, bias=False)
        self.o = nn.Linear(config.heads * self.head_dim, config.dim, bias=False)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        batch, seq, _ = x.shape
        q = self.q(x).view(batch, seq, self.heads, self.head_dim).transpose(1, 2)
        k = self.k(x).view(batch, seq, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v(x).view(batch, seq, self.kv_heads, self.head_dim).transpose(1, 2)
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        return self.o(out.transpose(1, 2).reshape(batch, seq, -1))


class FeedForward(nn.Module):
    def __init__(self, config: TransformerConfig):
        super().__init__()
        self.gate = nn.Linear(config.dim, config.hidden, bias=False)
        self.up = nn.Linear(config.dim, config.hidden, bias=False)
        self.down = nn.Linear(config.hidden, config.dim, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(F.silu(self.gate(x)) * self.up(x))


class Block(nn.Module):
    def __init__(self, config: TransformerConfig):
        super().__init__()
        self.attention_norm = nn.RMSNorm(config.dim, eps=config.norm_eps)
        self.attention = Attention(config)
        self.mlp_norm = nn.RMSNorm(config.dim, eps=config.norm_eps)
        self.mlp = FeedForward(config)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        x = x + self.attention(self.attention_norm(x), cos, sin)
        return x + self.mlp(self.mlp_norm(x))


class Transformer(nn.Module):
    def __init__(self, config: TransformerConfig = TransformerConfig()):
        super().__init__()
        self.config = config
        self.embedding = nn.Embedding(config.vocab_size, config.dim)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.layers))
        self.norm = nn.RMSNorm(config.dim, eps=config.norm_eps)
        cos, sin = rotary_tables(config)
        self.register_buffer("rope_cos", cos, persistent=False)
        self.register_buffer("rope_sin", sin, persistent=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        seq = tokens.shape[1]
        cos, sin = self.rope_cos[:seq], self.rope_sin[:seq]
        x = self.embedding(tokens)
        for block in self.blocks:
            x = block(x, cos, sin)
        return F.linear(self.norm(x), self.embedding.weight)


def seeded_transformer(
    seed: int = 0, config: TransformerConfig = TransformerConfig()
) -> Transformer:
    torch.manual_seed(seed)
    model = Transformer(config).eval()
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.normal_(0.0, 0.05)  # random weights, small enough for stable activations
        for module in model.modules():
            if isinstance(module, nn.RMSNorm):
                module.weight.fill_(1.0)
    return model
