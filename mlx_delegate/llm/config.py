"""What our decoder needs to know about a checkpoint, read from its Hugging Face
config: one `DecoderConfig` for every family the zoo covers (llama, mistral,
qwen2, qwen3, phi3, gemma2, gpt_neox, gpt2) and the mixture-of-experts ones
(qwen3_moe, mixtral, deepseek_v3: `MoEConfig`, and DeepSeek's multi-head
latent attention: `LatentAttentionConfig`)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Optional

import torch

DENSE_FAMILIES = ("llama", "mistral", "qwen2", "qwen3", "phi3", "gemma2", "gpt_neox", "gpt2")
MOE_FAMILIES = ("qwen3_moe", "mixtral", "deepseek_v3")
FAMILIES = DENSE_FAMILIES + MOE_FAMILIES


class UnsupportedCheckpoint(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class MoEConfig:
    """The mixture of experts that replaces the MLP of the layers `sparse_layers`
    marks: a router scores the experts, each token goes to its `top_k` best,
    and their outputs are summed, weighted by the scores."""

    num_experts: int
    top_k: int
    expert_intermediate_size: int
    scoring: str  # "softmax" (qwen3_moe, mixtral) or "sigmoid" (deepseek_v3)
    normalize_top_k: bool  # the chosen scores divided by their sum
    routed_scaling: float  # the chosen scores' factor after that
    # Group-limited routing (deepseek_v3): the experts form `groups` groups, each
    # scored by the sum of its best two; the token chooses among the experts of
    # its `top_groups` best groups only. groups == top_groups: no limit.
    groups: int
    top_groups: int
    score_correction: bool  # a learned bias added to the scores for the choice alone
    # The router's product and the weighted sum of the experts' outputs in float32
    # (deepseek_v3), or in the model's dtype with only the scores in float32
    # (qwen3_moe, mixtral: their transformers modules make the router's product
    # and sum the experts' outputs in the model's dtype).
    float32_routing: bool
    shared_intermediate_size: int  # an MLP every token goes through too; 0: none
    sparse_layers: tuple[bool, ...]  # per layer: experts (True) or the dense MLP


@dataclasses.dataclass(frozen=True)
class LatentAttentionConfig:
    """DeepSeek's multi-head latent attention: keys and values are expanded from
    a compressed latent (`kv_lora_rank`) per token, queries optionally too
    (`q_lora_rank`, None: a plain projection). A query or key head is
    `qk_nope_head_dim` values without position then `qk_rope_head_dim` rotated
    ones (the rotated key is shared by all heads); a value head has
    `v_head_dim`."""

    q_lora_rank: Optional[int]
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int
    interleaved_rope: bool  # the rotated pairs are (x0, x1), (x2, x3)... in the checkpoint


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
    moe: Optional[MoEConfig] = None
    latent_attention: Optional[LatentAttentionConfig] = None

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
    config = DecoderConfig(
        **common,
        norm="rms_plus_one" if gemma else "rms",
        norm_eps=hf.rms_norm_eps,
        activation=_activation(getattr(hf, "hidden_activation", None) or hf.hidden_act),
        gated_mlp=True,
        qkv_bias=qkv_bias,
        o_bias=bool(getattr(hf, "attention_bias", False)) and family != "qwen2",
        mlp_bias=bool(getattr(hf, "mlp_bias", False)),
        qk_norm=family in ("qwen3", "qwen3_moe"),
        parallel_residual=False,
        sandwich_norms=gemma,
        embed_scale=math.sqrt(hf.hidden_size) if gemma else 1.0,
        attn_scale=(hf.query_pre_attn_scalar if gemma else head_dim) ** -0.5,
        attn_softcap=getattr(hf, "attn_logit_softcapping", None) if gemma else None,
        final_softcap=getattr(hf, "final_logit_softcapping", None) if gemma else None,
        moe=_moe(hf) if family in MOE_FAMILIES else None,
    )
    return _with_latent_attention(config, hf) if family == "deepseek_v3" else config


def _moe(hf) -> MoEConfig:
    family, layers = hf.model_type, range(hf.num_hidden_layers)
    common = dict(num_experts=hf.num_local_experts, top_k=hf.num_experts_per_tok)
    if family == "mixtral":
        return MoEConfig(
            **common, expert_intermediate_size=hf.intermediate_size, scoring="softmax",
            normalize_top_k=True, routed_scaling=1.0, groups=1, top_groups=1,
            score_correction=False, float32_routing=False, shared_intermediate_size=0,
            sparse_layers=(True,) * hf.num_hidden_layers,
        )  # fmt: skip
    if family == "qwen3_moe":
        dense = set(hf.mlp_only_layers or ())
        step = hf.decoder_sparse_step
        return MoEConfig(
            **common, expert_intermediate_size=hf.moe_intermediate_size, scoring="softmax",
            normalize_top_k=bool(hf.norm_topk_prob), routed_scaling=1.0, groups=1,
            top_groups=1, score_correction=False, float32_routing=False,
            shared_intermediate_size=0,
            sparse_layers=tuple(i not in dense and (i + 1) % step == 0 for i in layers),
        )  # fmt: skip
    _check_deepseek_routing(hf)
    return MoEConfig(
        **common, expert_intermediate_size=hf.moe_intermediate_size, scoring="sigmoid",
        normalize_top_k=bool(hf.norm_topk_prob), routed_scaling=float(hf.routed_scaling_factor),
        groups=hf.n_group or 1, top_groups=hf.topk_group or hf.n_group or 1,
        score_correction=True, float32_routing=True,
        shared_intermediate_size=hf.moe_intermediate_size * (hf.n_shared_experts or 0),
        sparse_layers=tuple(i >= (hf.first_k_dense_replace or 0) for i in layers),
    )  # fmt: skip


# DeepSeek-V3's routing, as its config.json names it (transformers implements only
# this one, and keeps the fields only when a config.json has them).
DEEPSEEK_ROUTING = {"scoring_func": "sigmoid", "topk_method": "noaux_tc"}


def _check_deepseek_routing(hf) -> None:
    for field, known in DEEPSEEK_ROUTING.items():
        value = getattr(hf, field, known)
        if value != known:
            raise UnsupportedCheckpoint(
                f"deepseek_v3 routing with {field} {value!r} is not supported "
                f"(supported: {field} {known!r})"
            )
    groups, top_groups = hf.n_group or 1, hf.topk_group or hf.n_group or 1
    experts = hf.num_local_experts
    if experts % groups or experts // groups < 2 or not 1 <= top_groups <= groups:
        raise UnsupportedCheckpoint(
            f"deepseek_v3 routing: {experts} experts in n_group {groups} groups of at least "
            f"2 with topk_group {top_groups} of them is not a valid group-limited routing"
        )


def _with_latent_attention(config: DecoderConfig, hf) -> DecoderConfig:
    """deepseek_v3: attention heads of the latent's sizes, every head its own
    keys and values (num_key_value_heads does not apply)."""
    latent = LatentAttentionConfig(
        q_lora_rank=hf.q_lora_rank,
        kv_lora_rank=hf.kv_lora_rank,
        qk_nope_head_dim=hf.qk_nope_head_dim,
        qk_rope_head_dim=hf.qk_rope_head_dim,
        v_head_dim=hf.v_head_dim,
        interleaved_rope=bool(getattr(hf, "rope_interleave", True)),
    )
    head_dim = hf.qk_nope_head_dim + hf.qk_rope_head_dim
    return dataclasses.replace(
        config,
        num_kv_heads=config.num_heads,
        head_dim=head_dim,
        rotary_dims=hf.qk_rope_head_dim,
        attn_scale=head_dim**-0.5 * _yarn_attention_factor(hf) ** 2,
        latent_attention=latent,
    )


def _yarn_attention_factor(hf) -> float:
    """DeepSeek's YaRN scales the attention logits by mscale(factor,
    mscale_all_dim) squared (on top of the rotary embedding's own scaling)."""
    rope = getattr(hf, "rope_parameters", None) or {}
    factor, mscale_all_dim = rope.get("factor", 1.0), rope.get("mscale_all_dim", 0)
    if rope.get("rope_type", "default") == "default" or not mscale_all_dim or factor <= 1:
        return 1.0
    return 0.1 * mscale_all_dim * math.log(factor) + 1.0


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
