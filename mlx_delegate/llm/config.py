"""What our decoder needs to know about a checkpoint, read from its Hugging Face
config: one `DecoderConfig` for every family the zoo covers (llama, mistral,
qwen2, qwen3, phi3, gemma2, gpt_neox, gpt2)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Optional

import torch

FAMILIES = ("llama", "mistral", "qwen2", "qwen3", "phi3", "gemma2", "gpt_neox", "gpt2")


class UnsupportedCheckpoint(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class DecoderConfig:
    family: str
    vocab_size: int
    hidden_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    intermediate_size: int
    norm: str  # "rms", "rms_plus_one" (gemma: x * (1 + w)) or "layer"
    norm_eps: float
    activation: str  # "silu", "gelu" or "gelu_tanh"
    gated_mlp: bool
    qkv_bias: bool
    o_bias: bool
    mlp_bias: bool
    qk_norm: bool
    parallel_residual: bool
    sandwich_norms: bool  # gemma2: norms after attention and MLP too
    embed_scale: float
    attn_scale: float
    attn_softcap: Optional[float]
    final_softcap: Optional[float]
    sliding_windows: tuple[Optional[int], ...]  # one per layer; None: global
    rotary_dims: int  # 0: learned positions (gpt2)
    max_positions: int
    tie_embeddings: bool
    bos_token_id: Optional[int]
    eos_token_ids: tuple[int, ...]

    @property
    def uses_rope(self) -> bool:
        return self.rotary_dims > 0


def load_hf_config(directory: Path):
    from transformers import AutoConfig

    if not (Path(directory) / "config.json").is_file():
        raise UnsupportedCheckpoint(f"{directory}: no config.json")
    try:
        return AutoConfig.from_pretrained(str(directory), local_files_only=True)
    except (ValueError, KeyError) as e:  # transformers' words for an unknown model_type
        raise UnsupportedCheckpoint(f"{directory}/config.json: {e}") from None


def from_hf(hf) -> DecoderConfig:
    family = hf.model_type
    if family not in FAMILIES:
        raise UnsupportedCheckpoint(
            f"model_type {family!r} is not supported (supported: {', '.join(FAMILIES)})"
        )
    if family == "gpt2":
        return _gpt2(hf)
    heads = hf.num_attention_heads
    head_dim = getattr(hf, "head_dim", None) or hf.hidden_size // heads
    rope = getattr(hf, "rope_parameters", None) or {}
    partial = rope.get("partial_rotary_factor", getattr(hf, "partial_rotary_factor", 1.0))
    common = dict(
        family=family,
        vocab_size=hf.vocab_size,
        hidden_size=hf.hidden_size,
        num_layers=hf.num_hidden_layers,
        num_heads=heads,
        num_kv_heads=getattr(hf, "num_key_value_heads", None) or heads,
        head_dim=head_dim,
        intermediate_size=hf.intermediate_size,
        max_positions=hf.max_position_embeddings,
        tie_embeddings=bool(getattr(hf, "tie_word_embeddings", False)),
        bos_token_id=getattr(hf, "bos_token_id", None),
        eos_token_ids=_eos_ids(hf),
        rotary_dims=int(head_dim * partial),
        sliding_windows=_sliding_windows(hf),
    )
    if family == "gpt_neox":
        return DecoderConfig(
            **common,
            norm="layer",
            norm_eps=hf.layer_norm_eps,
            activation=_activation(hf.hidden_act),
            gated_mlp=False,
            qkv_bias=bool(getattr(hf, "attention_bias", True)),
            o_bias=bool(getattr(hf, "attention_bias", True)),
            mlp_bias=True,
            qk_norm=False,
            parallel_residual=hf.use_parallel_residual,
            sandwich_norms=False,
            embed_scale=1.0,
            attn_scale=head_dim**-0.5,
            attn_softcap=None,
            final_softcap=None,
        )
    gemma = family == "gemma2"
    qkv_bias = family == "qwen2" or bool(getattr(hf, "attention_bias", False))
    return DecoderConfig(
        **common,
        norm="rms_plus_one" if gemma else "rms",
        norm_eps=hf.rms_norm_eps,
        activation=_activation(getattr(hf, "hidden_activation", None) or hf.hidden_act),
        gated_mlp=True,
        qkv_bias=qkv_bias,
        o_bias=bool(getattr(hf, "attention_bias", False)) and family != "qwen2",
        mlp_bias=bool(getattr(hf, "mlp_bias", False)),
        qk_norm=family == "qwen3",
        parallel_residual=False,
        sandwich_norms=gemma,
        embed_scale=math.sqrt(hf.hidden_size) if gemma else 1.0,
        attn_scale=(hf.query_pre_attn_scalar if gemma else head_dim) ** -0.5,
        attn_softcap=getattr(hf, "attn_logit_softcapping", None) if gemma else None,
        final_softcap=getattr(hf, "final_logit_softcapping", None) if gemma else None,
    )


def _gpt2(hf) -> DecoderConfig:
    return DecoderConfig(
        family="gpt2",
        vocab_size=hf.vocab_size,
        hidden_size=hf.n_embd,
        num_layers=hf.n_layer,
        num_heads=hf.n_head,
        num_kv_heads=hf.n_head,
        head_dim=hf.n_embd // hf.n_head,
        intermediate_size=hf.n_inner or 4 * hf.n_embd,
        norm="layer",
        norm_eps=hf.layer_norm_epsilon,
        activation=_activation(hf.activation_function),
        gated_mlp=False,
        qkv_bias=True,
        o_bias=True,
        mlp_bias=True,
        qk_norm=False,
        parallel_residual=False,
        sandwich_norms=False,
        embed_scale=1.0,
        attn_scale=(hf.n_embd // hf.n_head) ** -0.5 if hf.scale_attn_weights else 1.0,
        attn_softcap=None,
        final_softcap=None,
        sliding_windows=(None,) * hf.n_layer,
        rotary_dims=0,
        max_positions=hf.n_positions,
        tie_embeddings=True,
        bos_token_id=hf.bos_token_id,
        eos_token_ids=_eos_ids(hf),
    )


def _activation(name: str) -> str:
    names = {
        "silu": "silu",
        "swish": "silu",
        "gelu": "gelu",
        "gelu_new": "gelu_tanh",
        "gelu_pytorch_tanh": "gelu_tanh",
    }
    if name not in names:
        raise UnsupportedCheckpoint(f"activation {name!r} is not supported")
    return names[name]


def _eos_ids(hf) -> tuple[int, ...]:
    eos = getattr(hf, "eos_token_id", None)
    if eos is None:
        return ()
    return tuple(eos) if isinstance(eos, (list, tuple)) else (int(eos),)


def _sliding_windows(hf) -> tuple[Optional[int], ...]:
    window = getattr(hf, "sliding_window", None)
    layer_types = getattr(hf, "layer_types", None)
    if layer_types is not None:
        return tuple(window if kind == "sliding_attention" else None for kind in layer_types)
    use = getattr(hf, "use_sliding_window", True)  # qwen2 keeps a window it does not use
    return (window if use else None,) * hf.num_hidden_layers


def rope_frequencies(hf) -> tuple[torch.Tensor, float]:
    """(inv_freq, attention scaling) exactly as the family's own rotary embedding
    computes them (llama3, linear, yarn... scaling included)."""
    import importlib

    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    rope_type = (getattr(hf, "rope_parameters", None) or {}).get("rope_type", "default")
    if rope_type in ("dynamic", "longrope"):
        raise UnsupportedCheckpoint(f"rope type {rope_type!r} changes with the sequence length")
    if rope_type != "default" and rope_type not in ROPE_INIT_FUNCTIONS:
        known = ", ".join(sorted({"default", *ROPE_INIT_FUNCTIONS} - {"dynamic", "longrope"}))
        raise UnsupportedCheckpoint(f"rope type {rope_type!r} is not known (known: {known})")
    module = importlib.import_module(
        f"transformers.models.{hf.model_type}.modeling_{hf.model_type}"
    )
    rotary = next(
        getattr(module, name)
        for name in dir(module)
        if name.endswith("RotaryEmbedding") and not name.startswith("_")
    )
    embedding = rotary(config=hf)
    return embedding.inv_freq.detach().float().clone(), float(embedding.attention_scaling)
