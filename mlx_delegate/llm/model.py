"""Our decoder-only LLM: one module for every family of `config.FAMILIES`, written
for export. The KV cache is a pair of buffers per layer, written in place at the
cache position and read up to it, so one exported method serves prefill (T
tokens) and decode (1 token) with the cache inside the delegate.

    forward(tokens (1, T) int64, input_pos (1,) int64) -> logits (1, vocab) float32

`input_pos` is where the first of the T tokens goes in the cache; the logits are
those of the last token."""

from __future__ import annotations

from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn

from .config import DecoderConfig


class Norm(nn.Module):
    """RMSNorm or LayerNorm over the last axis (gemma's `1 + w` is folded into
    the weight when the checkpoint is loaded)."""

    def __init__(self, kind: str, dim: int, eps: float):
        super().__init__()
        self.kind, self.dim, self.eps = kind, dim, eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim)) if kind == "layer" else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.kind == "layer":
            return F.layer_norm(x, (self.dim,), self.weight, self.bias, self.eps)
        return F.rms_norm(x, (self.dim,), self.weight, self.eps)


def _activate(kind: str, x: torch.Tensor) -> torch.Tensor:
    if kind == "silu":
        return F.silu(x)
    return F.gelu(x, approximate="tanh" if kind == "gelu_tanh" else "none")


class MLP(nn.Module):
    def __init__(self, c: DecoderConfig):
        super().__init__()
        self.activation, self.gated = c.activation, c.gated_mlp
        if c.gated_mlp:
            self.gate = nn.Linear(c.hidden_size, c.intermediate_size, bias=c.mlp_bias)
        self.up = nn.Linear(c.hidden_size, c.intermediate_size, bias=c.mlp_bias)
        self.down = nn.Linear(c.intermediate_size, c.hidden_size, bias=c.mlp_bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.gated:
            return self.down(_activate(self.activation, self.gate(x)) * self.up(x))
        return self.down(_activate(self.activation, self.up(x)))


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, dims: int) -> torch.Tensor:
    """Half-split RoPE on the first `dims` of the head dim (partial rotary keeps
    the rest as it is)."""
    if dims == x.shape[-1]:
        return x * cos + rotate_half(x) * sin
    rotated, kept = x[..., :dims], x[..., dims:]
    return torch.cat((rotated * cos + rotate_half(rotated) * sin, kept), dim=-1)


class Attention(nn.Module):
    def __init__(self, c: DecoderConfig, max_seq_len: int, window: Optional[int]):
        super().__init__()
        self.c, self.window = c, window
        self.q = nn.Linear(c.hidden_size, c.num_heads * c.head_dim, bias=c.qkv_bias)
        self.k = nn.Linear(c.hidden_size, c.num_kv_heads * c.head_dim, bias=c.qkv_bias)
        self.v = nn.Linear(c.hidden_size, c.num_kv_heads * c.head_dim, bias=c.qkv_bias)
        self.o = nn.Linear(c.num_heads * c.head_dim, c.hidden_size, bias=c.o_bias)
        if c.qk_norm:
            self.q_norm = Norm("rms", c.head_dim, c.norm_eps)
            self.k_norm = Norm("rms", c.head_dim, c.norm_eps)
        cache = torch.zeros(1, c.num_kv_heads, max_seq_len, c.head_dim)
        self.register_buffer("k_cache", cache, persistent=False)
        self.register_buffer("v_cache", cache.clone(), persistent=False)

    def _heads(self, x: torch.Tensor, heads: int) -> torch.Tensor:
        return x.view(1, x.shape[1], heads, self.c.head_dim).transpose(1, 2)

    def forward(self, x, pos: int, rope, masks) -> torch.Tensor:
        c, length = self.c, x.shape[1]
        q = self._heads(self.q(x), c.num_heads)
        k = self._heads(self.k(x), c.num_kv_heads)
        v = self._heads(self.v(x), c.num_kv_heads)
        if c.qk_norm:
            q, k = self.q_norm(q), self.k_norm(k)
        if rope is not None:
            cos, sin = rope
            q = apply_rope(q, cos, sin, c.rotary_dims)
            k = apply_rope(k, cos, sin, c.rotary_dims)
        self.k_cache[:, :, pos : pos + length] = k
        self.v_cache[:, :, pos : pos + length] = v
        keys = self.k_cache[:, :, : pos + length]
        values = self.v_cache[:, :, : pos + length]
        mask = masks[self.window]
        if c.attn_softcap is None:
            out = F.scaled_dot_product_attention(
                q, keys, values, attn_mask=mask, scale=c.attn_scale, enable_gqa=True
            )
        else:
            out = self._capped_attention(q, keys, values, mask)
        return self.o(out.transpose(1, 2).reshape(1, length, c.num_heads * c.head_dim))

    def _capped_attention(self, q, keys, values, mask) -> torch.Tensor:
        """Gemma2's tanh-capped attention logits: not expressible as SDPA."""
        c = self.c
        groups = c.num_heads // c.num_kv_heads
        keys = keys.repeat_interleave(groups, dim=1)
        values = values.repeat_interleave(groups, dim=1)
        scores = (q @ keys.transpose(2, 3)) * c.attn_scale
        scores = torch.tanh(scores / c.attn_softcap) * c.attn_softcap
        scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores.float(), dim=-1).to(q.dtype)
        return weights @ values


class Block(nn.Module):
    def __init__(self, c: DecoderConfig, max_seq_len: int, window: Optional[int]):
        super().__init__()
        self.c = c
        self.attn_norm = Norm(c.norm, c.hidden_size, c.norm_eps)
        self.attn = Attention(c, max_seq_len, window)
        self.mlp_norm = Norm(c.norm, c.hidden_size, c.norm_eps)
        self.mlp = MLP(c)
        if c.sandwich_norms:
            self.post_attn_norm = Norm(c.norm, c.hidden_size, c.norm_eps)
            self.post_mlp_norm = Norm(c.norm, c.hidden_size, c.norm_eps)

    def forward(self, x, pos, rope, masks) -> torch.Tensor:
        attended = self.attn(self.attn_norm(x), pos, rope, masks)
        if self.c.parallel_residual:
            return x + attended + self.mlp(self.mlp_norm(x))
        if self.c.sandwich_norms:
            x = x + self.post_attn_norm(attended)
            return x + self.post_mlp_norm(self.mlp(self.mlp_norm(x)))
        x = x + attended
        return x + self.mlp(self.mlp_norm(x))


class DecoderLM(nn.Module):
    def __init__(
        self,
        c: DecoderConfig,
        max_seq_len: int,
        inv_freq: Optional[torch.Tensor] = None,
        rope_scaling: float = 1.0,
    ):
        super().__init__()
        if c.uses_rope and inv_freq is None:
            raise ValueError(f"{c.family} uses rotary positions: inv_freq is required")
        self.c, self.max_seq_len, self.rope_scaling = c, max_seq_len, rope_scaling
        self.embed = nn.Embedding(c.vocab_size, c.hidden_size)
        if not c.uses_rope:
            self.pos_embed = nn.Embedding(c.max_positions, c.hidden_size)
        else:
            self.register_buffer("inv_freq", inv_freq.float(), persistent=False)
        self.layers = nn.ModuleList(Block(c, max_seq_len, w) for w in c.sliding_windows)
        self.norm = Norm(c.norm, c.hidden_size, c.norm_eps)
        self.lm_head = nn.Linear(c.hidden_size, c.vocab_size, bias=False)

    def forward(self, tokens: torch.Tensor, input_pos: torch.Tensor) -> torch.Tensor:
        c, length = self.c, tokens.shape[1]
        pos = input_pos[0].item()
        torch._check(pos >= 0)
        torch._check(pos + length <= self.max_seq_len)
        positions = torch.arange(length, device=tokens.device) + pos
        x = self.embed(tokens)
        if c.embed_scale != 1.0:
            x = x * torch.tensor(c.embed_scale, dtype=x.dtype)
        rope = None
        if c.uses_rope:
            rope = self._rope(positions, x.dtype)
        else:
            x = x + self.pos_embed(positions)[None]
        masks = self._masks(positions, pos + length)
        for layer in self.layers:
            x = layer(x, pos, rope, masks)
        logits = self.lm_head(self.norm(x[:, -1]))
        if c.final_softcap is not None:
            logits = torch.tanh(logits / c.final_softcap) * c.final_softcap
        return logits.float()

    def _rope(self, positions: torch.Tensor, dtype: torch.dtype):
        """cos and sin (1, 1, T, rotary dims) as transformers computes them, the
        form the compiler fuses into MLX's rope."""
        freqs = positions[None, :, None].float() * self.inv_freq  # (1, T, rotary dims / 2)
        angles = torch.cat((freqs, freqs), dim=-1)
        cos, sin = angles.cos(), angles.sin()
        if self.rope_scaling != 1.0:
            cos, sin = cos * self.rope_scaling, sin * self.rope_scaling
        return cos.to(dtype)[:, None], sin.to(dtype)[:, None]

    def _masks(self, positions: torch.Tensor, keys: int) -> dict:
        """A (T, keys) boolean mask per distinct window: causal, and within the
        window (`key > query - window`) for sliding layers."""
        key_positions = torch.arange(keys, device=positions.device)[None, :]
        causal = key_positions <= positions[:, None]
        masks = {None: causal}
        for window in set(self.c.sliding_windows) - {None}:
            masks[window] = causal & (key_positions > positions[:, None] - window)
        return masks

    def _apply(self, fn, recurse=True):
        """`.to(dtype)` leaves the rope frequencies in float32: the angles are
        computed in float32 (as transformers computes them), and a float32
        constant is what the compiler fuses into MLX's rope."""
        super()._apply(fn, recurse)
        if self.c.uses_rope and self.inv_freq.dtype != torch.float32:
            self.inv_freq = self.inv_freq.float()
        return self

    def reset_cache(self) -> None:
        for layer in self.layers:
            layer.attn.k_cache.zero_()
            layer.attn.v_cache.zero_()
