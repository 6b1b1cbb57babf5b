"""Op tests of rotary position embeddings written out by hand, the forms the
rope pattern lowers as one RopeNode (tests/mlx_delegate/test_rope.py checks
that they do): rotate_half and interleaved pairs, partial rotary, a first
position given as a number, a tensor or a symbolic size, dynamic lengths and
three float dtypes."""

from __future__ import annotations

import torch
from torch import nn
from torch.export import Dim

from .op_spec import M, T, Cases, bf16, f16, f32, ints

CASES = Cases()  # this module's op tests

ROPE_TOL = {f32: (1e-4, 1e-4), f16: (2e-2, 2e-2), bf16: (8e-2, 8e-2)}
TOKENS = Dim("tokens", min=2, max=64)


class Rope(nn.Module):
    """x (B, H, T, D) rotated at positions arange(T) + offset, the first `dims`
    features of D. `offset`: "none", "int" (a number), "tensor" (the second
    input, a 0-d tensor) or "cache" (arange over a cache length taken from the
    second input's size: a symbolic first position). `scaling` multiplies cos
    and sin, as transformers' attention_scaling does."""

    def __init__(self, head_dim, dims=None, traditional=False, offset="none", scaling=1.0):
        super().__init__()
        self.dims = dims or head_dim
        self.traditional = traditional
        self.offset = offset
        self.scaling = scaling
        base = 500.0 if traditional else 10000.0
        inv_freq = 1.0 / base ** (torch.arange(0, self.dims, 2).float() / self.dims)
        self.register_buffer("inv_freq", inv_freq * 0.75, persistent=False)  # a scaled rope

    def positions(self, length, extra):
        if self.offset == "int":
            return torch.arange(length) + 5
        if self.offset == "tensor":
            return torch.arange(length) + extra
        if self.offset == "cache":
            start = extra.shape[0]
            return torch.arange(start, start + length)
        return torch.arange(length)

    def forward(self, x, extra=None):
        positions = self.positions(x.shape[-2], extra)
        freqs = positions[None, :, None].float() * self.inv_freq
        if self.traditional:
            cos = torch.repeat_interleave(freqs.cos() * self.scaling, 2, dim=-1)
            sin = torch.repeat_interleave(freqs.sin() * self.scaling, 2, dim=-1)
        else:
            emb = torch.cat((freqs, freqs), dim=-1)
            cos, sin = emb.cos() * self.scaling, emb.sin() * self.scaling
        cos, sin = cos.to(x.dtype).unsqueeze(1), sin.to(x.dtype).unsqueeze(1)
        rot, rest = x[..., : self.dims], x[..., self.dims :]
        if self.traditional:
            x1, x2 = rot[..., 0::2], rot[..., 1::2]
            turned = torch.stack((-x2, x1), dim=-1).flatten(-2)
        else:
            half = self.dims // 2
            turned = torch.cat((-rot[..., half:], rot[..., :half]), dim=-1)
        out = rot * cos + turned * sin
        return torch.cat((out, rest), dim=-1) if rest.shape[-1] else out


def R(label, *inputs, dynamic=None, **options):
    return M(label, lambda: Rope(**options), *inputs, dynamic=dynamic)


X = T((1, 4, 6, 16))
CASES.add(
    "rope",
    [
        R("half", X, head_dim=16),
        R("interleaved", X, head_dim=16, traditional=True),
        R("partial_half", X, head_dim=16, dims=8),
        R("partial_interleaved", X, head_dim=16, dims=4, traditional=True),
        R("offset_int", X, head_dim=16, offset="int"),
        R("offset_tensor", X, ints((), 0, 40), head_dim=16, offset="tensor"),
        R("offset_tensor_1", X, ints((1,), 0, 40), head_dim=16, offset="tensor"),
        R("offset_symbolic", X, T((9,)), head_dim=16, offset="cache", dynamic={1: {0: TOKENS}}),
        R("scaled", X, head_dim=16, scaling=0.8),
        R("dynamic_len", X, head_dim=16, dynamic={0: {2: TOKENS}}),
        R(
            "dynamic_len_offset",
            X,
            ints((), 0, 40),
            head_dim=16,
            offset="tensor",
            dynamic={0: {2: TOKENS}},
        ),
        R("batch_decode", T((3, 2, 1, 8)), ints((), 0, 40), head_dim=8, offset="tensor"),
        R("float16", T((1, 4, 6, 16), f16), head_dim=16),
        R("bfloat16", T((1, 4, 6, 16), bf16), head_dim=16, traditional=True),
        R(
            "bfloat16_partial",
            T((1, 2, 5, 32), bf16),
            ints((), 0, 40),
            head_dim=32,
            dims=16,
            offset="tensor",
        ),
    ],
    tolerances=ROPE_TOL,
)
