"""Our Whisper, written for export: an encoder method and a decoder method that
share the cross-attention keys and values inside the delegate.

Module and parameter names are those of transformers' checkpoints
(`model.encoder.layers.0.self_attn.q_proj.weight`...), so a weight's name in
the exported program is its name in the safetensors.

    encode(features (1, mels, 3000)) -> (1,)  # writes every layer's cross K/V
    decode(tokens (1, T) int64, input_pos (1,) int64, first (1,) int64)
        -> next token (1,) int64, greedy

`decode` writes its T tokens' self-attention keys and values in place at
`input_pos` (as the LLM's cache is written) and reads the cross K/V the last
`encode` wrote. `first` = 1 on the first generated token: transformers' Whisper
suppresses `begin_suppress_tokens` there, `suppress_tokens` everywhere."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn

FRAMES = 3000  # log-mel frames of a 30 s window
SOURCE_POSITIONS = FRAMES // 2  # after the stride-2 convolution


class UnsupportedCheckpoint(ValueError):
    """A checkpoint that is not one of Whisper."""


@dataclasses.dataclass(frozen=True)
class WhisperConfig:
    num_mel_bins: int
    d_model: int
    encoder_layers: int
    encoder_heads: int
    encoder_ffn_dim: int
    decoder_layers: int
    decoder_heads: int
    decoder_ffn_dim: int
    vocab_size: int
    max_source_positions: int
    max_target_positions: int

    @classmethod
    def from_dir(cls, directory: Path) -> "WhisperConfig":
        path = Path(directory) / "config.json"
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no config.json in the model directory")
        raw = json.loads(path.read_text())
        if raw.get("model_type") != "whisper":
            raise UnsupportedCheckpoint(
                f"{path}: model_type {raw.get('model_type')!r} is not a Whisper checkpoint "
                "(expected 'whisper'; decoder-only LLMs go through `python -m mlx_delegate.llm`)"
            )
        if raw.get("activation_function", "gelu") != "gelu" or raw.get("scale_embedding"):
            raise UnsupportedCheckpoint(f"{path}: only gelu and unscaled embeddings are supported")
        config = cls(
            num_mel_bins=raw["num_mel_bins"],
            d_model=raw["d_model"],
            encoder_layers=raw["encoder_layers"],
            encoder_heads=raw["encoder_attention_heads"],
            encoder_ffn_dim=raw["encoder_ffn_dim"],
            decoder_layers=raw["decoder_layers"],
            decoder_heads=raw["decoder_attention_heads"],
            decoder_ffn_dim=raw["decoder_ffn_dim"],
            vocab_size=raw["vocab_size"],
            max_source_positions=raw["max_source_positions"],
            max_target_positions=raw["max_target_positions"],
        )
        if config.max_source_positions != SOURCE_POSITIONS:
            raise UnsupportedCheckpoint(
                f"{path}: max_source_positions {config.max_source_positions}, expected "
                f"{SOURCE_POSITIONS} (30 s windows)"
            )
        return config


class Attention(nn.Module):
    """Whisper's attention projections (the key has no bias)."""

    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim, bias=False)
        self.v_proj = nn.Linear(dim, dim)
        self.out_proj = nn.Linear(dim, dim)

    def split(self, x: torch.Tensor) -> torch.Tensor:
        """(1, T, dim) -> (1, heads, T, head dim)."""
        return x.view(1, x.shape[1], self.heads, self.head_dim).transpose(1, 2)

    def merge(self, x: torch.Tensor) -> torch.Tensor:
        return self.out_proj(x.transpose(1, 2).reshape(1, x.shape[2], -1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Unmasked self-attention (the encoder's)."""
        q, k, v = self.split(self.q_proj(x)), self.split(self.k_proj(x)), self.split(self.v_proj(x))
        return self.merge(F.scaled_dot_product_attention(q, k, v))


class Positions(nn.Module):
    """Learned or stored position embeddings, `weight` (positions, dim): not an
    nn.Embedding, which the quantizer would take for a token embedding."""

    def __init__(self, positions: int, dim: int):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(positions, dim))


def _mlp(block: nn.Module, x: torch.Tensor) -> torch.Tensor:
    return block.fc2(F.gelu(block.fc1(block.final_layer_norm(x))))


class EncoderLayer(nn.Module):
    def __init__(self, c: WhisperConfig):
        super().__init__()
        self.self_attn_layer_norm = nn.LayerNorm(c.d_model)
        self.self_attn = Attention(c.d_model, c.encoder_heads)
        self.final_layer_norm = nn.LayerNorm(c.d_model)
        self.fc1 = nn.Linear(c.d_model, c.encoder_ffn_dim)
        self.fc2 = nn.Linear(c.encoder_ffn_dim, c.d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.self_attn(self.self_attn_layer_norm(x))
        return x + _mlp(self, x)


class Encoder(nn.Module):
    def __init__(self, c: WhisperConfig):
        super().__init__()
        self.conv1 = nn.Conv1d(c.num_mel_bins, c.d_model, 3, padding=1)
        self.conv2 = nn.Conv1d(c.d_model, c.d_model, 3, stride=2, padding=1)
        self.embed_positions = Positions(c.max_source_positions, c.d_model)
        self.layers = nn.ModuleList(EncoderLayer(c) for _ in range(c.encoder_layers))
        self.layer_norm = nn.LayerNorm(c.d_model)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        x = F.gelu(self.conv2(F.gelu(self.conv1(features))))
        x = x.transpose(1, 2) + self.embed_positions.weight
        for layer in self.layers:
            x = layer(x)
        return self.layer_norm(x)


class DecoderLayer(nn.Module):
    """Self-attention over its cache, cross-attention over the encoder's keys
    and values (`cross_k_cache`, `cross_v_cache`: state shared with `encode`)."""

    def __init__(self, c: WhisperConfig):
        super().__init__()
        self.self_attn_layer_norm = nn.LayerNorm(c.d_model)
        self.self_attn = Attention(c.d_model, c.decoder_heads)
        self.encoder_attn_layer_norm = nn.LayerNorm(c.d_model)
        self.encoder_attn = Attention(c.d_model, c.decoder_heads)
        self.final_layer_norm = nn.LayerNorm(c.d_model)
        self.fc1 = nn.Linear(c.d_model, c.decoder_ffn_dim)
        self.fc2 = nn.Linear(c.decoder_ffn_dim, c.d_model)
        heads, head_dim = c.decoder_heads, c.d_model // c.decoder_heads
        for name, length in (("k_cache", c.max_target_positions), ("v_cache", c.max_target_positions),
                             ("cross_k_cache", SOURCE_POSITIONS),
                             ("cross_v_cache", SOURCE_POSITIONS)):  # fmt: skip
            self.register_buffer(name, torch.zeros(1, heads, length, head_dim), persistent=False)

    def write_cross(self, encoded: torch.Tensor) -> None:
        """The cross-attention keys and values of this window, kept for `decode`."""
        attn = self.encoder_attn
        self.cross_k_cache.copy_(attn.split(attn.k_proj(encoded)))
        self.cross_v_cache.copy_(attn.split(attn.v_proj(encoded)))

    def forward(self, x: torch.Tensor, pos: int, mask: torch.Tensor) -> torch.Tensor:
        attn, length = self.self_attn, x.shape[1]
        h = self.self_attn_layer_norm(x)
        q, k, v = attn.split(attn.q_proj(h)), attn.split(attn.k_proj(h)), attn.split(attn.v_proj(h))
        self.k_cache[:, :, pos : pos + length] = k
        self.v_cache[:, :, pos : pos + length] = v
        keys, values = self.k_cache[:, :, : pos + length], self.v_cache[:, :, : pos + length]
        x = x + attn.merge(F.scaled_dot_product_attention(q, keys, values, attn_mask=mask))
        cross = self.encoder_attn
        q = cross.split(cross.q_proj(self.encoder_attn_layer_norm(x)))
        attended = F.scaled_dot_product_attention(q, self.cross_k_cache, self.cross_v_cache)
        x = x + cross.merge(attended)
        return x + _mlp(self, x)


class Decoder(nn.Module):
    def __init__(self, c: WhisperConfig):
        super().__init__()
        self.embed_tokens = nn.Embedding(c.vocab_size, c.d_model)
        self.embed_positions = Positions(c.max_target_positions, c.d_model)
        self.layers = nn.ModuleList(DecoderLayer(c) for _ in range(c.decoder_layers))
        self.layer_norm = nn.LayerNorm(c.d_model)


class Whisper(nn.Module):
    """`encoder` and `decoder` as transformers names them under `model.`; the
    output projection is the token embedding (tied, as in every Whisper).
    `suppressed` and `suppressed_first` are transformers' `suppress_tokens`
    and `begin_suppress_tokens` as vocabulary masks."""

    def __init__(self, c: WhisperConfig):
        super().__init__()
        self.c = c
        self.encoder = Encoder(c)
        self.decoder = Decoder(c)
        for name in ("suppressed", "suppressed_first"):
            self.register_buffer(name, torch.zeros(c.vocab_size, dtype=torch.bool))

    def shared_buffers(self, prefix: str) -> list[str]:
        """The names (under `prefix`) of the state `encode` writes and `decode` reads."""
        return [
            f"{prefix}decoder.layers.{i}.{name}"
            for i in range(self.c.decoder_layers)
            for name in ("cross_k_cache", "cross_v_cache")
        ]

    def encode(self, features: torch.Tensor) -> torch.Tensor:
        """features: float32, whatever the model's dtype (the caller's log-mel)."""
        encoded = self.encoder(features.to(self.encoder.conv1.weight.dtype))
        for layer in self.decoder.layers:
            layer.write_cross(encoded)
        # ExecuTorch methods need an output: one value, not the window's states.
        return encoded[:, 0, 0].float()

    def decode(self, tokens, input_pos, first) -> torch.Tensor:
        d, length = self.decoder, tokens.shape[1]
        pos = input_pos[0].item()
        torch._check(pos >= 0)
        torch._check(pos + length <= self.c.max_target_positions)
        positions = torch.arange(length, device=tokens.device) + pos
        x = d.embed_tokens(tokens) + F.embedding(positions, d.embed_positions.weight)[None]
        keys = torch.arange(pos + length, device=tokens.device)[None, :]
        mask = keys <= positions[:, None]
        for layer in d.layers:
            x = layer(x, pos, mask)
        logits = F.linear(d.layer_norm(x[:, -1]), d.embed_tokens.weight).float()
        suppressed = self.suppressed | ((first > 0) & self.suppressed_first)
        return logits.masked_fill(suppressed, float("-inf")).argmax(dim=-1)


class EncodeMethod(nn.Module):
    def __init__(self, model: Whisper):
        super().__init__()
        self.model = model

    def forward(self, features):
        return self.model.encode(features)


class DecodeMethod(nn.Module):
    def __init__(self, model: Whisper):
        super().__init__()
        self.model = model

    def forward(self, tokens, input_pos, first):
        return self.model.decode(tokens, input_pos, first)


def set_suppressed(model: Whisper, suppress: list[int], suppress_first: list[int]) -> None:
    """transformers' suppress_tokens and begin_suppress_tokens, as masks."""
    for mask, ids in ((model.suppressed, suppress), (model.suppressed_first, suppress_first)):
        mask.zero_()
        if ids:
            mask[torch.tensor(ids)] = True


def example_features(c: WhisperConfig, device="cpu") -> torch.Tensor:
    return torch.zeros(1, c.num_mel_bins, FRAMES, device=device)


def example_decode_inputs(length: int = 2, device="cpu") -> tuple:
    return (
        torch.ones(1, length, dtype=torch.long, device=device),
        torch.tensor([0], device=device),
        torch.tensor([1], device=device),
    )


def load_eager(directory: Path, dtype: torch.dtype = torch.float32) -> Whisper:
    """Our module with the checkpoint's weights (for tests and comparisons)."""
    from ..llm.checkpoint import Checkpoint

    c = WhisperConfig.from_dir(directory)
    model = Whisper(c)
    hf = Checkpoint(directory)
    state = {n: hf[f"model.{n}"] for n, _ in model.named_parameters()}
    model.load_state_dict(state, strict=False)
    return model.to(dtype).eval()
