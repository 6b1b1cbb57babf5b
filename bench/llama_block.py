"""The llama-like block of bench/models.py, written twice on the same weights:
once in PyTorch (what we export, what XNNPACK, portable and eager run) and once
in MLX Python (mlx.core's fused kernels: rms_norm, rope, scaled_dot_product_attention).

    x -> x + o(sdpa(rope(q(n1(x))), rope(k(n1(x))), v(n1(x)), causal, grouped))
      -> x + down(silu(gate(n2(x))) * up(n2(x)))

RMSNorm, half-split RoPE written as transformers writes it (positions
arange(T), cos/sin of cat(f, f), rotate_half: the form our RoPE pattern fuses
into one node), grouped-query causal SDPA, a SiLU-gated MLP, residuals; fp32.
Head dim 64; kv heads max(2, heads / 4); MLP width 8d/3 rounded up to 256 (llama).

Needs torch only; MLX is imported by the MLX functions (the GPU machine has
torch and MLX, no ExecuTorch)."""

from __future__ import annotations

import dataclasses

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

HEAD_DIM = 64
THETA = 10000.0
EPS = 1e-5
TILE = 4093  # the tiled weights' period: prime, so no row of a power-of-two matrix repeats another


@dataclasses.dataclass(frozen=True)
class BlockConfig:
    dim: int
    seq: int

    @property
    def heads(self) -> int:
        return self.dim // HEAD_DIM

    @property
    def kv_heads(self) -> int:
        return max(2, self.heads // 4)

    @property
    def hidden(self) -> int:
        return -(-(8 * self.dim // 3) // 256) * 256

    @property
    def name(self) -> str:
        return f"d{self.dim}s{self.seq}"

    @property
    def label(self) -> str:
        return f"block d={self.dim} seq {self.seq}"

    @property
    def params(self) -> int:
        d, kv = self.dim, self.kv_heads * HEAD_DIM
        return 2 * d * d + 2 * d * kv + 3 * d * self.hidden + 2 * d

    @staticmethod
    def parse(name: str) -> "BlockConfig":
        """'d512s128' -> BlockConfig(512, 128)."""
        dim, _, seq = name.removeprefix("d").partition("s")
        return BlockConfig(int(dim), int(seq))


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class GatedMLP(nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        return self.down(F.silu(self.gate(h)) * self.up(h))


class LlamaBlock(nn.Module):
    """forward(x (1, T, d)) -> (1, T, d)."""

    def __init__(self, c: BlockConfig):
        super().__init__()
        self.c = c
        d, hd = c.dim, HEAD_DIM
        self.attn_norm = nn.RMSNorm(d, eps=EPS)
        self.q = nn.Linear(d, c.heads * hd, bias=False)
        self.k = nn.Linear(d, c.kv_heads * hd, bias=False)
        self.v = nn.Linear(d, c.kv_heads * hd, bias=False)
        self.o = nn.Linear(c.heads * hd, d, bias=False)
        self.mlp_norm = nn.RMSNorm(d, eps=EPS)
        self.mlp = GatedMLP(d, c.hidden)
        inv_freq = 1.0 / THETA ** (torch.arange(0, hd, 2).float() / hd)
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def _heads(self, t: torch.Tensor, n: int) -> torch.Tensor:
        return t.view(1, t.shape[1], n, HEAD_DIM).transpose(1, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        c, length = self.c, x.shape[1]
        positions = torch.arange(length, device=x.device)
        freqs = positions[None, :, None].float() * self.inv_freq
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos().to(x.dtype).unsqueeze(1), emb.sin().to(x.dtype).unsqueeze(1)
        h = self.attn_norm(x)
        q = self._heads(self.q(h), c.heads)
        k = self._heads(self.k(h), c.kv_heads)
        v = self._heads(self.v(h), c.kv_heads)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        x = x + self.o(out.transpose(1, 2).reshape(1, length, c.heads * HEAD_DIM))
        return x + self.mlp(self.mlp_norm(x))


# ---- weights ---------------------------------------------------------------------------


def seeded_weights(c: BlockConfig, seed: int = 0, tiled: bool = False) -> dict[str, np.ndarray]:
    """float32 weights by state-dict name: linear weights with std fan_in^-1/2,
    norm weights 1 + N(0, 0.1). `tiled`: every tensor a different cyclic shift
    of one random block of TILE values (as costly to read as random weights, but
    gzip shrinks them ~1000x: the GPU machine's transfers are 64 MiB a call)."""
    generator = torch.Generator().manual_seed(seed)
    tile = torch.randn(TILE, generator=generator)
    weights = {}
    with torch.device("meta"):
        shapes = [(name, p.shape) for name, p in LlamaBlock(c).named_parameters()]
    for i, (name, shape) in enumerate(shapes):
        if tiled:
            values = tile[(torch.arange(shape.numel()) + 97 * i) % TILE].view(shape)
        else:
            values = torch.randn(shape, generator=generator)
        if "norm" in name:
            values = 1.0 + 0.1 * values
        else:
            values = values * shape[1] ** -0.5
        weights[name] = values.float().numpy()
    return weights


def torch_block(c: BlockConfig, weights: dict[str, np.ndarray]) -> LlamaBlock:
    model = LlamaBlock(c).eval().requires_grad_(False)
    state = {name: torch.from_numpy(np.ascontiguousarray(w)) for name, w in weights.items()}
    model.load_state_dict(state, strict=True)
    return model


def example_input(c: BlockConfig, seed: int = 1) -> torch.Tensor:
    return torch.randn(1, c.seq, c.dim, generator=torch.Generator().manual_seed(seed))


# ---- the same block in MLX -----------------------------------------------------------


def mlx_weights(weights: dict[str, np.ndarray]) -> dict:
    import mlx.core as mx

    arrays = {name: mx.array(w) for name, w in weights.items()}
    mx.eval(arrays)
    return arrays


def mlx_forward(c: BlockConfig, w: dict, x):
    """The block on MLX arrays: w from mlx_weights, x (1, T, d)."""
    import mlx.core as mx
    import mlx.nn as mnn

    length = x.shape[1]

    def heads(t, n):
        return t.reshape(1, length, n, HEAD_DIM).transpose(0, 2, 1, 3)

    def rope(t):
        return mx.fast.rope(t, HEAD_DIM, traditional=False, base=THETA, scale=1.0, offset=0)

    h = mx.fast.rms_norm(x, w["attn_norm.weight"], EPS)
    q = rope(heads(h @ w["q.weight"].T, c.heads))
    k = rope(heads(h @ w["k.weight"].T, c.kv_heads))
    v = heads(h @ w["v.weight"].T, c.kv_heads)
    out = mx.fast.scaled_dot_product_attention(q, k, v, scale=HEAD_DIM**-0.5, mask="causal")
    x = x + out.transpose(0, 2, 1, 3).reshape(1, length, -1) @ w["o.weight"].T
    h = mx.fast.rms_norm(x, w["mlp_norm.weight"], EPS)
    gated = mnn.silu(h @ w["mlp.gate.weight"].T) * (h @ w["mlp.up.weight"].T)
    return x + gated @ w["mlp.down.weight"].T


def mlx_functions(c: BlockConfig):
    """(uncompiled, compiled) callables f(weights, x) -> output."""
    import mlx.core as mx

    def forward(w, x):
        return mlx_forward(c, w, x)

    return forward, mx.compile(forward)
