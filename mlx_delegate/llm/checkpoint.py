"""Load a local Hugging Face checkpoint (config.json + safetensors) into our
`DecoderLM`: each family's tensor names are mapped to ours, fused projections
split, GPT-2's Conv1D weights transposed and gemma's `1 + w` norms folded."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

import torch

from .config import DecoderConfig, UnsupportedCheckpoint, from_hf, load_hf_config, rope_frequencies
from .model import DecoderLM

Tensors = dict[str, torch.Tensor]


def load(directory: Path, max_seq_len: int, dtype: torch.dtype = torch.float32) -> DecoderLM:
    directory = Path(directory)
    hf = load_hf_config(directory)
    config = from_hf(hf)
    inv_freq, scaling = rope_frequencies(hf) if config.uses_rope else (None, 1.0)
    model = DecoderLM(config, max_seq_len, inv_freq, scaling)
    state = dict(_ours(config, _read_safetensors(directory)))
    if config.tie_embeddings or "lm_head.weight" not in state:
        state["lm_head.weight"] = state["embed.weight"]
    missing, unexpected = model.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise UnsupportedCheckpoint(
            f"{directory}: checkpoint does not match a {config.family} model "
            f"(missing {sorted(missing)[:5]}, unexpected {sorted(unexpected)[:5]})"
        )
    return model.to(dtype).eval()


def _read_safetensors(directory: Path) -> Tensors:
    from safetensors.torch import load_file

    files = sorted(directory.glob("*.safetensors"))
    if not files:
        raise UnsupportedCheckpoint(f"{directory}: no *.safetensors file")
    tensors: Tensors = {}
    for file in files:
        tensors.update(load_file(str(file)))
    return tensors


def _ours(c: DecoderConfig, hf: Tensors) -> Iterator[tuple[str, torch.Tensor]]:
    convert: Callable = {"gpt2": _gpt2, "gpt_neox": _gpt_neox, "phi3": _phi3}.get(
        c.family, _llama_like
    )
    for name, tensor in convert(c, hf):
        if c.norm == "rms_plus_one" and name.endswith("norm.weight"):
            tensor = 1.0 + tensor.float()
        yield name, tensor


def _strip(hf: Tensors, prefix: str) -> Tensors:
    return {k[len(prefix) :]: v for k, v in hf.items() if k.startswith(prefix)}


def _llama_like(c: DecoderConfig, hf: Tensors):
    """llama, mistral, qwen2, qwen3, gemma2."""
    yield "embed.weight", hf["model.embed_tokens.weight"]
    yield "norm.weight", hf["model.norm.weight"]
    if "lm_head.weight" in hf:
        yield "lm_head.weight", hf["lm_head.weight"]
    mlp_norm = "pre_feedforward_layernorm" if c.sandwich_norms else "post_attention_layernorm"
    names = {
        "input_layernorm": "attn_norm",
        mlp_norm: "mlp_norm",
        "self_attn.q_proj": "attn.q",
        "self_attn.k_proj": "attn.k",
        "self_attn.v_proj": "attn.v",
        "self_attn.o_proj": "attn.o",
        "self_attn.q_norm": "attn.q_norm",
        "self_attn.k_norm": "attn.k_norm",
        "mlp.gate_proj": "mlp.gate",
        "mlp.up_proj": "mlp.up",
        "mlp.down_proj": "mlp.down",
    }
    if c.sandwich_norms:
        names["post_attention_layernorm"] = "post_attn_norm"
        names["post_feedforward_layernorm"] = "post_mlp_norm"
    for i in range(c.num_layers):
        yield from _renamed(_strip(hf, f"model.layers.{i}."), names, f"layers.{i}.")


def _renamed(tensors: Tensors, names: dict[str, str], prefix: str):
    for name, tensor in tensors.items():
        module, _, leaf = name.rpartition(".")
        if module not in names:
            raise UnsupportedCheckpoint(f"unexpected tensor {prefix}{name}")
        yield f"{prefix}{names[module]}.{leaf}", tensor


def _phi3(c: DecoderConfig, hf: Tensors):
    q_rows, kv_rows = c.num_heads * c.head_dim, c.num_kv_heads * c.head_dim
    fused = {}
    for i in range(c.num_layers):
        layer = _strip(hf, f"model.layers.{i}.")
        q, k, v = layer.pop("self_attn.qkv_proj.weight").split([q_rows, kv_rows, kv_rows])
        gate, up = layer.pop("mlp.gate_up_proj.weight").chunk(2)
        fused.update(
            {
                f"model.layers.{i}.self_attn.q_proj.weight": q,
                f"model.layers.{i}.self_attn.k_proj.weight": k,
                f"model.layers.{i}.self_attn.v_proj.weight": v,
                f"model.layers.{i}.mlp.gate_proj.weight": gate,
                f"model.layers.{i}.mlp.up_proj.weight": up,
            }
        )
        fused.update({f"model.layers.{i}.{k}": t for k, t in layer.items()})
    rest = {k: t for k, t in hf.items() if not k.startswith("model.layers.")}
    yield from _llama_like(c, {**rest, **fused})


def _gpt_neox(c: DecoderConfig, hf: Tensors):
    yield "embed.weight", hf["gpt_neox.embed_in.weight"]
    yield "lm_head.weight", hf["embed_out.weight"]
    for leaf in ("weight", "bias"):
        yield f"norm.{leaf}", hf[f"gpt_neox.final_layer_norm.{leaf}"]
    for i in range(c.num_layers):
        layer = _strip(hf, f"gpt_neox.layers.{i}.")
        for leaf in ("weight", "bias"):
            # (heads * 3 * head_dim, ...): each head's q, k and v rows side by side
            qkv = layer.pop(f"attention.query_key_value.{leaf}")
            q, k, v = qkv.view(c.num_heads, 3, c.head_dim, *qkv.shape[1:]).unbind(1)
            for name, part in (("q", q), ("k", k), ("v", v)):
                yield f"layers.{i}.attn.{name}.{leaf}", part.reshape(-1, *qkv.shape[1:])
        layer = {k: t for k, t in layer.items() if not k.startswith("attention.rotary")}
        names = {
            "input_layernorm": "attn_norm",
            "post_attention_layernorm": "mlp_norm",
            "attention.dense": "attn.o",
            "mlp.dense_h_to_4h": "mlp.up",
            "mlp.dense_4h_to_h": "mlp.down",
        }
        yield from _renamed(layer, names, f"layers.{i}.")


def _gpt2(c: DecoderConfig, hf: Tensors):
    hf = {k.removeprefix("transformer."): t for k, t in hf.items()}
    yield "embed.weight", hf["wte.weight"]
    yield "pos_embed.weight", hf["wpe.weight"]
    for leaf in ("weight", "bias"):
        yield f"norm.{leaf}", hf[f"ln_f.{leaf}"]
    for i in range(c.num_layers):
        layer = _strip(hf, f"h.{i}.")
        # Conv1D stores (in, out): a Linear's weight transposed
        for name, part in zip("qkv", layer.pop("attn.c_attn.weight").t().chunk(3)):
            yield f"layers.{i}.attn.{name}.weight", part
        for name, part in zip("qkv", layer.pop("attn.c_attn.bias").chunk(3)):
            yield f"layers.{i}.attn.{name}.bias", part
        names = {
            "ln_1": "attn_norm",
            "ln_2": "mlp_norm",
            "attn.c_proj": "attn.o",
            "mlp.c_fc": "mlp.up",
            "mlp.c_proj": "mlp.down",
        }
        for name, tensor in _renamed(layer, names, f"layers.{i}."):
            yield name, tensor.t() if name.endswith("weight") and tensor.dim() == 2 else tensor
