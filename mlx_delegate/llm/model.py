"""Our decoder-only LLM: one module for every family of `config.FAMILIES`, written
for export. The KV cache is a pair of buffers per layer, written in place at the
cache position and read up to it, so one exported method serves prefill (T
tokens) and decode (1 token) with the cache inside the delegate.

Mixture-of-experts layers (`MoE`) keep each layer's experts as stacks, (experts,
out, in), multiplied in the form the compiler lowers to MLX's gather_mm over the
stack itself (`Experts`); DeepSeek's latent attention is `LatentAttention`.

    forward(tokens (1, T) int64, input_pos (1,) int64) -> logits (1, vocab) float32

`input_pos` is where the first of the T tokens goes in the cache; the logits are
those of the last token."""

from __future__ import annotations

import math
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn

from .config import DecoderConfig

# DeepSeek's latent norms (of the compressed query and key-value) keep their
# module's default epsilon, not the config's rms_norm_eps.
LATENT_NORM_EPS = 1e-6


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
    def __init__(self, c: DecoderConfig, intermediate_size: Optional[int] = None):
        super().__init__()
        self.activation, self.gated = c.activation, c.gated_mlp
        hidden = intermediate_size or c.intermediate_size
        if c.gated_mlp:
            self.gate = nn.Linear(c.hidden_size, hidden, bias=c.mlp_bias)
        self.up = nn.Linear(c.hidden_size, hidden, bias=c.mlp_bias)
        self.down = nn.Linear(hidden, c.hidden_size, bias=c.mlp_bias)

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


KV_CACHE_BITS = {"int8": 8, "int4": 4}
KV_CACHE_GROUP = 64  # values of a head's key or value row sharing a scale and bias


CUDNN_DECODE_ROWS = 256  # MLX's CUDA attention: see cache_rows


def cache_rows(max_seq_len: int) -> int:
    """The rows of a KV cache for `max_seq_len` positions: one more when
    max_seq_len is a multiple of CUDNN_DECODE_ROWS, never written.

    MLX's CUDA attention computes a decode step (one query) with cuDNN when its
    keys are a view of a cache whose rows are a multiple of 256 (mlx-lm's caches
    grow in steps of 256), and with its own vector kernel otherwise. A decode
    step is host-bound, and cuDNN's attention costs the host 25.8 µs to start
    against 4.6 µs for the vector kernel (an H200, bench/gpu_start_cost.py):
    0.34 ms of host time a step at a 1B's 16 layers. Prompts still take cuDNN
    (more than one query)."""
    return max_seq_len + (max_seq_len % CUDNN_DECODE_ROWS == 0)


class CachedAttention(nn.Module):
    """The KV cache of one layer, (1, heads, cache_rows(max_seq_len), key/value
    head dim), and attention over it. `quantize_cache` keeps it as integers
    instead."""

    cache_bits: Optional[int] = None  # None: the cache holds the model's dtype

    def _init_cache(self, heads: int, max_seq_len: int, key_dim: int, value_dim: int) -> None:
        rows = cache_rows(max_seq_len)
        for name, dim in (("k_cache", key_dim), ("v_cache", value_dim)):
            self.register_buffer(name, torch.zeros(1, heads, rows, dim), persistent=False)

    def quantize_cache(self, bits: int) -> None:
        """Keeps the cache as unsigned `bits`-bit integers (8, or 4 two to a
        byte), a scale and a bias in the cache's dtype per KV_CACHE_GROUP values
        of a row, as MLX's affine quantization stores a weight. Each step
        quantizes its new rows into the cache and dequantizes the rows it
        attends to, inside the delegate."""
        for name in ("k_cache", "v_cache"):
            full = getattr(self, name)
            *lead, dim = full.shape
            groups = dim // _cache_group(dim)
            codes = torch.zeros(*lead, dim * bits // 8, dtype=torch.uint8, device=full.device)
            self.register_buffer(name, codes, persistent=False)
            for part in ("scales", "biases"):
                like = full.new_zeros(*lead, groups)
                self.register_buffer(f"{name}_{part}", like, persistent=False)
        self.cache_bits = bits

    def _cached(self, k, v, pos: int) -> tuple[torch.Tensor, torch.Tensor]:
        """The T new keys and values written at `pos`; the cache's keys and
        values up to them."""
        if self.cache_bits is not None:
            return self._quantized_cached("k_cache", k, pos), self._quantized_cached(
                "v_cache", v, pos
            )
        length = k.shape[2]
        self.k_cache[:, :, pos : pos + length] = k
        self.v_cache[:, :, pos : pos + length] = v
        return self.k_cache[:, :, : pos + length], self.v_cache[:, :, : pos + length]

    def _quantized_cached(self, name: str, x: torch.Tensor, pos: int) -> torch.Tensor:
        end = pos + x.shape[2]
        parts = (
            getattr(self, name),
            getattr(self, f"{name}_scales"),
            getattr(self, f"{name}_biases"),
        )
        for part, new in zip(parts, quantize_rows(x, self.cache_bits)):
            part[:, :, pos:end] = new
        return dequantize_rows(*(part[:, :, :end] for part in parts), self.cache_bits, x.dtype)


def _cache_group(dim: int) -> int:
    """KV_CACHE_GROUP, or the largest power of two dividing a row of `dim`."""
    return math.gcd(KV_CACHE_GROUP, dim)


def quantize_rows(x: torch.Tensor, bits: int) -> tuple[torch.Tensor, ...]:
    """(codes uint8, scales, biases) of `x` (..., dim), its last axis in groups
    of `_cache_group(dim)`: u = round((x - low) / scale), scale = (high -
    low) / (2^bits - 1), each rounded to x's dtype first so that scale * u +
    bias gives back x to half a step; 4-bit codes two to a byte, the first in
    the low half. Computed in float32."""
    levels = (1 << bits) - 1
    dim = x.shape[-1]
    grouped = x.float().unflatten(-1, (dim // _cache_group(dim), _cache_group(dim)))
    low, high = grouped.amin(-1, keepdim=True), grouped.amax(-1, keepdim=True)
    spread = high - low
    scale = torch.where(spread > 0, spread / levels, torch.ones_like(spread)).to(x.dtype)
    bias = low.to(x.dtype)
    codes = ((grouped - bias.float()) / scale.float()).round().clamp(0, levels).to(torch.uint8)
    codes = codes.flatten(-2)
    if bits == 4:
        pairs = codes.unflatten(-1, (dim // 2, 2))
        codes = pairs[..., 0] + pairs[..., 1] * 16
    return codes, scale.squeeze(-1), bias.squeeze(-1)


def dequantize_rows(
    codes: torch.Tensor, scales: torch.Tensor, biases: torch.Tensor, bits: int, dtype: torch.dtype
) -> torch.Tensor:
    """The values `quantize_rows` stored, in `dtype`: scale * u + bias."""
    if bits == 4:
        codes = torch.stack((codes & 15, codes // 16), dim=-1).flatten(-2)
    dim = codes.shape[-1]
    grouped = codes.to(dtype).unflatten(-1, (dim // _cache_group(dim), _cache_group(dim)))
    return (grouped * scales[..., None] + biases[..., None]).flatten(-2)


def quantize_kv_cache(model: nn.Module, fmt: str) -> nn.Module:
    """Keeps every layer's KV cache as `fmt` ("int8" or "int4") integers, in
    place; returns `model`."""
    if fmt not in KV_CACHE_BITS:
        raise ValueError(f"KV cache {fmt!r}: expected one of {', '.join(KV_CACHE_BITS)}")
    for module in model.modules():
        if isinstance(module, CachedAttention):
            module.quantize_cache(KV_CACHE_BITS[fmt])
    return model


class Attention(CachedAttention):
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
        self._init_cache(c.num_kv_heads, max_seq_len, c.head_dim, c.head_dim)

    def _heads(self, x: torch.Tensor, heads: int) -> torch.Tensor:
        return x.view(1, x.shape[0], heads, self.c.head_dim).transpose(1, 2)

    def forward(self, x, pos: int, rope, masks) -> torch.Tensor:
        c, length = self.c, x.shape[0]
        q = self._heads(self.q(x), c.num_heads)
        k = self._heads(self.k(x), c.num_kv_heads)
        v = self._heads(self.v(x), c.num_kv_heads)
        if c.qk_norm:
            q, k = self.q_norm(q), self.k_norm(k)
        if rope is not None:
            cos, sin = rope
            q = apply_rope(q, cos, sin, c.rotary_dims)
            k = apply_rope(k, cos, sin, c.rotary_dims)
        keys, values = self._cached(k, v, pos)
        mask = masks[self.window]
        if c.attn_softcap is None:
            out = F.scaled_dot_product_attention(
                q, keys, values, attn_mask=mask, scale=c.attn_scale, enable_gqa=True
            )
        else:
            out = self._capped_attention(q, keys, values, mask)
        return self.o(out.transpose(1, 2).reshape(length, c.num_heads * c.head_dim))

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


class LatentAttention(CachedAttention):
    """DeepSeek's multi-head latent attention. Keys and values are expanded from
    the latent before they are cached: per head, the key's position-free part
    and the value come from the latent, the rotated part of the key is one for
    all heads. The cache holds the expanded keys and values (simplest: the
    attention is the ordinary one), not the latent (smaller by about
    heads x head dims / latent size, but each step would expand or absorb it).

    DeepSeek's checkpoints hold the rotated dims in interleaved pairs; the
    checkpoint reader reorders those rows of the query and key projections to
    the half-split layout (`checkpoint._half_split_rope_rows`), which rotates
    the same pairs, so the rope here is the ordinary one and fuses."""

    def __init__(self, c: DecoderConfig, max_seq_len: int):
        super().__init__()
        a = c.latent_attention
        self.c, self.a = c, a
        if a.q_lora_rank is None:
            self.q = nn.Linear(c.hidden_size, c.num_heads * c.head_dim, bias=False)
        else:
            self.q_a = nn.Linear(c.hidden_size, a.q_lora_rank, bias=c.qkv_bias)
            self.q_a_norm = Norm("rms", a.q_lora_rank, LATENT_NORM_EPS)
            self.q_b = nn.Linear(a.q_lora_rank, c.num_heads * c.head_dim, bias=False)
        self.kv_a = nn.Linear(c.hidden_size, a.kv_lora_rank + a.qk_rope_head_dim, bias=c.qkv_bias)
        self.kv_a_norm = Norm("rms", a.kv_lora_rank, LATENT_NORM_EPS)
        self.kv_b = nn.Linear(
            a.kv_lora_rank, c.num_heads * (a.qk_nope_head_dim + a.v_head_dim), bias=False
        )
        self.o = nn.Linear(c.num_heads * a.v_head_dim, c.hidden_size, bias=c.o_bias)
        self._init_cache(c.num_heads, max_seq_len, c.head_dim, a.v_head_dim)

    def _query(self, x: torch.Tensor) -> torch.Tensor:
        if self.a.q_lora_rank is None:
            return self.q(x)
        return self.q_b(self.q_a_norm(self.q_a(x)))

    def forward(self, x, pos: int, rope, masks) -> torch.Tensor:
        c, a, length = self.c, self.a, x.shape[0]
        nope, rotated = a.qk_nope_head_dim, a.qk_rope_head_dim
        q = self._query(x).view(1, length, c.num_heads, c.head_dim).transpose(1, 2)
        q_nope, q_rot = q.split([nope, rotated], dim=-1)
        latent, k_rot = self.kv_a(x).split([a.kv_lora_rank, rotated], dim=-1)
        kv = self.kv_b(self.kv_a_norm(latent))
        kv = kv.view(1, length, c.num_heads, nope + a.v_head_dim).transpose(1, 2)
        k_nope, v = kv.split([nope, a.v_head_dim], dim=-1)
        cos, sin = rope
        q_rot = apply_rope(q_rot, cos, sin, rotated)
        k_rot = apply_rope(k_rot.view(1, 1, length, rotated), cos, sin, rotated)
        q = torch.cat((q_nope, q_rot), dim=-1)
        k = torch.cat((k_nope, k_rot.expand(1, c.num_heads, length, rotated)), dim=-1)
        keys, values = self._cached(k, v, pos)
        out = F.scaled_dot_product_attention(
            q, keys, values, attn_mask=masks[None], scale=c.attn_scale
        )
        return self.o(out.transpose(1, 2).reshape(length, c.num_heads * a.v_head_dim))


class Router(nn.Module):
    """Each token's top-k experts and their weights. The scores are computed in
    float32 whatever the model's dtype (a choice between experts should not turn
    on a bfloat16 rounding). With `float32_routing` (DeepSeek's router) the
    weight is kept in float32 and the product made in it, and the weights stay
    float32; otherwise (qwen3_moe, mixtral) the product is in the model's dtype
    and the weights return to it, as their transformers modules compute them
    (each cast is a kernel of every decode step). Left out of weight
    quantization (not an nn.Linear): it is experts x hidden values a layer."""

    def __init__(self, c: DecoderConfig):
        super().__init__()
        self.m = m = c.moe
        self.weight = nn.Parameter(torch.zeros(m.num_experts, c.hidden_size))
        if m.score_correction:
            self.correction_bias = nn.Parameter(torch.zeros(m.num_experts))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """x (T, hidden) -> expert ids (T, top_k) int64, weights (T, top_k) float32
        (`float32_routing`) or in x's dtype."""
        m = self.m
        logits = F.linear(x.float() if m.float32_routing else x, self.weight).float()
        scores = logits.softmax(dim=-1) if m.scoring == "softmax" else logits.sigmoid()
        choice = scores + self.correction_bias if m.score_correction else scores
        if m.top_groups < m.groups:
            choice = self._within_best_groups(choice)
        ids = choice.topk(m.top_k, dim=-1).indices
        weights = scores.gather(-1, ids)
        if m.normalize_top_k:
            # DeepSeek's guard against a zero sum; no other sum is small enough to feel it
            weights = weights / (weights.sum(dim=-1, keepdim=True) + 1e-20)
        if m.routed_scaling != 1.0:
            weights = weights * m.routed_scaling
        return ids, weights if m.float32_routing else weights.to(x.dtype)

    def _within_best_groups(self, choice: torch.Tensor) -> torch.Tensor:
        """`choice` with the experts outside each token's `top_groups` best
        groups (a group scored by the sum of its best two) at -inf."""
        m, tokens = self.m, choice.shape[0]
        grouped = choice.view(tokens, m.groups, m.num_experts // m.groups)
        group_scores = grouped.topk(2, dim=-1).values.sum(dim=-1)
        best = group_scores.topk(m.top_groups, dim=-1).indices
        kept = torch.zeros_like(group_scores).scatter(1, best, 1.0).bool()
        return grouped.masked_fill(~kept[..., None], float("-inf")).view(tokens, m.num_experts)

    def _apply(self, fn, recurse=True):
        """`.to(dtype)` leaves a `float32_routing` router in float32."""
        super()._apply(fn, recurse)
        if not self.m.float32_routing:
            return self
        for param in self._parameters.values():
            if param.dtype != torch.float32:
                param.data = param.data.float()
        return self


class Experts(nn.Module):
    """A layer's experts as two stacks, gate and up projections side by side
    (experts, 2 x expert hidden, hidden) and down projections (experts, hidden,
    expert hidden): the names and layout `quantize_experts` quantizes.

    Written as transformers' `batched_mm` experts are: for each of the T x
    top_k (token, expert) pairs, bmm(stack[ids], x). Eager, the gather copies a
    matrix per pair; lowered, `mlx_delegate/compiler/ops/experts.py` makes the gather
    and the product one GatherMM (GatherQMM when quantized) that reads the
    stack in place."""

    def __init__(self, c: DecoderConfig):
        super().__init__()
        m = c.moe
        self.activation = c.activation
        self.gate_up_proj = nn.Parameter(
            torch.zeros(m.num_experts, 2 * m.expert_intermediate_size, c.hidden_size)
        )
        self.down_proj = nn.Parameter(
            torch.zeros(m.num_experts, c.hidden_size, m.expert_intermediate_size)
        )

    def forward(self, x, ids, weights) -> torch.Tensor:
        """x (T, hidden), ids and weights (T, top_k) -> (T, hidden)."""
        tokens, top_k = ids.shape
        pairs = ids.reshape(-1)
        rows = (
            x[:, None].expand(tokens, top_k, x.shape[-1]).reshape(-1, x.shape[-1])
        )  # a row per pair
        gate_up = torch.bmm(self.gate_up_proj[pairs], rows[..., None])[..., 0]
        # sliced, not chunked: ExecuTorch's verifier takes len() of a split's first
        # part, which fixes the token count of the program (its size here)
        half = gate_up.shape[-1] // 2
        hidden = _activate(self.activation, gate_up[:, :half]) * gate_up[:, half:]
        out = torch.bmm(self.down_proj[pairs], hidden[..., None])[..., 0]
        weighted = out.view(tokens, top_k, -1) * weights[..., None]  # in the weights' dtype
        return weighted.sum(dim=1).to(x.dtype)


class MoE(nn.Module):
    def __init__(self, c: DecoderConfig):
        super().__init__()
        self.router = Router(c)
        self.experts = Experts(c)
        if c.moe.shared_intermediate_size:
            self.shared = MLP(c, c.moe.shared_intermediate_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        tokens = x.view(-1, x.shape[-1])
        ids, weights = self.router(tokens)
        out = self.experts(tokens, ids, weights).view(x.shape)
        if hasattr(self, "shared"):
            out = out + self.shared(x)
        return out


class Block(nn.Module):
    def __init__(self, c: DecoderConfig, max_seq_len: int, window: Optional[int], sparse: bool):
        super().__init__()
        self.c = c
        self.attn_norm = Norm(c.norm, c.hidden_size, c.norm_eps)
        if c.latent_attention is None:
            self.attn = Attention(c, max_seq_len, window)
        else:
            self.attn = LatentAttention(c, max_seq_len)
        self.mlp_norm = Norm(c.norm, c.hidden_size, c.norm_eps)
        self.mlp = MoE(c) if sparse else MLP(c)
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
        sparse = c.moe.sparse_layers if c.moe else (False,) * c.num_layers
        self.layers = nn.ModuleList(
            Block(c, max_seq_len, window, experts)
            for window, experts in zip(c.sliding_windows, sparse)
        )
        self.norm = Norm(c.norm, c.hidden_size, c.norm_eps)
        self.lm_head = nn.Linear(c.hidden_size, c.vocab_size, bias=False)

    def forward(self, tokens: torch.Tensor, input_pos: torch.Tensor) -> torch.Tensor:
        c, length = self.c, tokens.shape[1]
        pos = input_pos[0].item()
        torch._check(pos >= 0)
        torch._check(pos + length <= self.max_seq_len)
        # the cache's slices end within its rows: the export cannot infer it
        torch._check(pos + length <= cache_rows(self.max_seq_len))
        positions = torch.arange(length, device=tokens.device) + pos
        # The hidden states are (T, hidden): MLX's matmul folds a 3-D input's
        # leading axes into one and unfolds its output, two more primitives a
        # product (128 of a 1B decode step's 556, each ~0.7 µs of host time on
        # an H200, where the step is host-bound).
        x = self.embed(tokens[0])
        if c.embed_scale != 1.0:
            x = x * torch.tensor(c.embed_scale, dtype=x.dtype)
        rope = None
        if c.uses_rope:
            rope = self._rope(positions, x.dtype)
        else:
            x = x + self.pos_embed(positions)
        masks = self._masks(positions, pos + length)
        for layer in self.layers:
            x = layer(x, pos, rope, masks)
        logits = self.lm_head(self.norm(x[-1:]))
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
        for name, buffer in self.named_buffers():
            if "_cache" in name:
                buffer.zero_()
