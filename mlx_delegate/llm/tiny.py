"""Local checkpoints and tokenizers for tests and benchmarks (no model hub is
reachable): random weights written with `save_pretrained`, a byte-level BPE
tokenizer trained with `tokenizers`.

    python -m mlx_delegate.llm.tiny DIR [--family llama] [--size tiny|100m]
    python -m mlx_delegate.llm.tiny DIR --shape llama-1b|llama-8b|qwen3-4b|qwen3-30b-a3b [--layers N]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Callable, Iterator, Optional

import torch

from .. import _quiet

SMALL = dict(
    vocab_size=512,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    max_position_embeddings=256,
    bos_token_id=1,
    eos_token_id=2,
)

# ~100M parameters, llama-like (the benchmark's model).
LLAMA_100M = dict(
    SMALL,
    vocab_size=8192,
    hidden_size=768,
    intermediate_size=2048,
    num_hidden_layers=12,
    num_attention_heads=12,
    num_key_value_heads=4,
    max_position_embeddings=2048,
)


# The mixture-of-experts families' small configurations, on top of SMALL: few
# experts, 2 of them a token, a dense layer beside a layer of experts.
MOE_SMALL = {
    "qwen3_moe": dict(
        head_dim=16, num_experts=4, num_experts_per_tok=2, moe_intermediate_size=32,
        norm_topk_prob=True, mlp_only_layers=[1],
    ),
    "mixtral": dict(num_local_experts=4, num_experts_per_tok=2),
    "deepseek_v3": dict(
        num_key_value_heads=SMALL["num_attention_heads"], n_routed_experts=8,
        num_experts_per_tok=2, moe_intermediate_size=32, n_shared_experts=1, n_group=4,
        topk_group=2, first_k_dense_replace=1, routed_scaling_factor=2.5, q_lora_rank=32,
        kv_lora_rank=32, qk_nope_head_dim=16, qk_rope_head_dim=8, v_head_dim=16,
    ),
}  # fmt: skip


def _family_config(family: str, base: dict, overrides: dict):
    import transformers as tf

    b = dict(base, **overrides)
    if family == "llama":
        return tf.LlamaConfig(**b)
    if family == "mistral":
        return tf.MistralConfig(**b, sliding_window=8)
    if family == "qwen2":
        return tf.Qwen2Config(**b, tie_word_embeddings=True)
    if family == "qwen3":
        return tf.Qwen3Config(**b, head_dim=32)
    if family == "phi3":
        return tf.Phi3Config(**b, partial_rotary_factor=0.5, pad_token_id=0)
    if family == "gemma2":
        return tf.Gemma2Config(
            **b, head_dim=16, query_pre_attn_scalar=16, sliding_window=8,
            attn_logit_softcapping=50.0, final_logit_softcapping=30.0,
        )  # fmt: skip
    if family == "gpt_neox":
        b.pop("num_key_value_heads")
        return tf.GPTNeoXConfig(**b, rotary_pct=0.25, use_parallel_residual=True)
    if family in MOE_SMALL:
        return tf.AutoConfig.for_model(family, **{**base, **MOE_SMALL[family], **overrides})
    if family == "gpt2":
        return tf.GPT2Config(
            vocab_size=b["vocab_size"], n_positions=b["max_position_embeddings"],
            n_embd=b["hidden_size"], n_layer=b["num_hidden_layers"],
            n_head=b["num_attention_heads"], bos_token_id=1, eos_token_id=2,
        )  # fmt: skip
    raise ValueError(f"unknown family {family!r}")


def write_checkpoint(
    directory: Path, family: str = "llama", size: str = "tiny", seed: int = 0, **overrides
):
    """Writes config.json + model.safetensors and returns the transformers model
    (`overrides` replace config values)."""
    from transformers import AutoModelForCausalLM

    config = _family_config(family, LLAMA_100M if size == "100m" else SMALL, overrides)
    if family == "gemma2":
        config._attn_implementation = "eager"  # the only gemma2 attention that caps logits
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(config).eval()
    if size != "100m":
        with torch.no_grad():  # sharper than the default init, so tokens vary
            for p in model.parameters():
                p.normal_(0.0, 0.3 if p.dim() > 1 else 0.1)
                if p.dim() == 1 and p.numel() == config.hidden_size:
                    p.add_(1.0)
    model.save_pretrained(str(directory))
    return model


CORPUS = [
    "the quick brown fox jumps over the lazy dog",
    "an MLX delegate runs PyTorch programs through ExecuTorch",
    "small models make fast tests, and random weights make odd stories",
    "once upon a time there was a tiny language model that wanted to talk",
] * 20


def write_tokenizer(directory: Path, vocab_size: int = 512) -> None:
    """A byte-level BPE tokenizer saved as tokenizer.json (bos 1, eos 2)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<pad>", "<s>", "</s>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,  # its bars print empty lines on a pipe
    )
    tokenizer.train_from_iterator(CORPUS, trainer)
    Path(directory).mkdir(parents=True, exist_ok=True)
    tokenizer.save(str(Path(directory) / "tokenizer.json"))


# Public configurations (their config.json values), for checkpoints at real size.
SHAPES = {
    # Llama-3.2-1B
    "llama-1b": (
        "llama",
        dict(
            vocab_size=128256, hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
            num_attention_heads=32, num_key_value_heads=8, head_dim=64,
            max_position_embeddings=131072, rms_norm_eps=1e-5, tie_word_embeddings=True,
            bos_token_id=128000, eos_token_id=128001,
            rope_parameters=dict(
                rope_type="llama3", rope_theta=500000.0, factor=32.0, low_freq_factor=1.0,
                high_freq_factor=4.0, original_max_position_embeddings=8192,
            ),
        ),
    ),
    # Llama-3.1-8B
    "llama-8b": (
        "llama",
        dict(
            vocab_size=128256, hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
            num_attention_heads=32, num_key_value_heads=8, head_dim=128,
            max_position_embeddings=131072, rms_norm_eps=1e-5, tie_word_embeddings=False,
            bos_token_id=128000, eos_token_id=128001,
            rope_parameters=dict(
                rope_type="llama3", rope_theta=500000.0, factor=8.0, low_freq_factor=1.0,
                high_freq_factor=4.0, original_max_position_embeddings=8192,
            ),
        ),
    ),
    # Qwen3-4B
    "qwen3-4b": (
        "qwen3",
        dict(
            vocab_size=151936, hidden_size=2560, intermediate_size=9728, num_hidden_layers=36,
            num_attention_heads=32, num_key_value_heads=8, head_dim=128,
            max_position_embeddings=40960, rms_norm_eps=1e-6, tie_word_embeddings=True,
            bos_token_id=151643, eos_token_id=151645,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
        ),
    ),
    # Qwen3-30B-A3B: 128 experts a layer, 8 of them a token
    "qwen3-30b-a3b": (
        "qwen3_moe",
        dict(
            vocab_size=151936, hidden_size=2048, intermediate_size=6144, num_hidden_layers=48,
            num_attention_heads=32, num_key_value_heads=4, head_dim=128,
            num_experts=128, num_experts_per_tok=8, moe_intermediate_size=768,
            norm_topk_prob=True, decoder_sparse_step=1, mlp_only_layers=[],
            max_position_embeddings=40960, rms_norm_eps=1e-6, tie_word_embeddings=False,
            bos_token_id=151643, eos_token_id=151645,
            rope_parameters=dict(rope_type="default", rope_theta=1000000.0),
        ),
    ),
}  # fmt: skip


def write_shaped_checkpoint(
    directory: Path,
    shape: str,
    dtype: torch.dtype = torch.bfloat16,
    shard_bytes: int = 1 << 30,
    seed: int = 0,
    fill: Optional[Callable[[int, torch.Size], torch.Tensor]] = None,
    holes: bool = False,
    **overrides,
) -> int:
    """config.json and random weights of `shape` (SHAPES; `overrides` replace
    config values, e.g. num_hidden_layers), written a tensor at a time into
    shards of about `shard_bytes`, under the names save_pretrained writes (a
    matrix per expert); returns the number of parameters.
    `fill(i, shape)` makes tensor i's float32 values (default: normal, std 0.02;
    norm weights get 1 added either way).
    `holes`: no values at all. Each shard is its safetensors header and a hole
    of its data's size (a sparse file, nothing on disk), for a checkpoint larger
    than the disk whose reader makes the values itself (bench/llm_size.py
    --holes)."""
    import transformers as tf
    from safetensors.torch import save_file

    save = _save_holes if holes else save_file
    family, values = SHAPES[shape]
    values = dict(values, **overrides)
    config = tf.AutoConfig.for_model(family, **values)
    with torch.device("meta"):
        model = tf.AutoModelForCausalLM.from_config(config)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    config.save_pretrained(str(directory))
    generator = torch.Generator().manual_seed(seed)
    shard: dict[str, torch.Tensor] = {}
    saved, weight_map, parameters = 0, {}, 0
    for name, like in _stored(family, model):
        if shard and (sum(t.nbytes for t in shard.values()) + like.numel() * dtype.itemsize
                      > shard_bytes):  # fmt: skip
            saved = _save_shard(directory, shard, saved, save)
        if holes:
            tensor = torch.empty(like.shape, device="meta")
        elif fill is None:
            tensor = torch.randn(like.shape, generator=generator, dtype=torch.float32) * 0.02
        else:
            tensor = fill(len(weight_map), like.shape)
        if like.dim() == 1:  # norm weights
            tensor += 1.0
        shard[name] = tensor.to(dtype)
        weight_map[name] = saved + 1
        parameters += like.numel()
    count = _save_shard(directory, shard, saved, save)
    index = {
        "metadata": {"total_size": parameters * dtype.itemsize},
        "weight_map": {n: _shard_name(i, count) for n, i in weight_map.items()},
    }
    for i in range(1, count + 1):
        (directory / f"part-{i}.safetensors").rename(directory / _shard_name(i, count))
    (directory / "model.safetensors.index.json").write_text(json.dumps(index, indent=2))
    return parameters


def _stored(family: str, model) -> Iterator[tuple[str, torch.Tensor]]:
    """(name, meta tensor) of each tensor a checkpoint of `model` holds: its
    parameters (a tied LM head once), a layer's expert stacks as the matrices
    of each expert (`checkpoint.EXPERT_NAMES`), as save_pretrained writes them."""
    from .checkpoint import EXPERT_NAMES

    for name, like in model.named_parameters():
        module, _, leaf = name.rpartition(".")
        if like.dim() != 3:
            yield name, like
            continue
        names = EXPERT_NAMES[family]
        layer = module.removesuffix(".mlp.experts")
        parts = (names.gate, names.up) if leaf == "gate_up_proj" else (names.down,)
        matrix = torch.empty(like.shape[1] // len(parts), like.shape[2], device="meta")
        for expert in range(like.shape[0]):
            for part in parts:
                yield f"{layer}.{names.of(expert, part)}", matrix


def _save_holes(shard: dict, path: str, metadata: dict) -> None:
    """A safetensors file of `shard`'s (meta) tensors whose data is a hole."""
    from .checkpoint import SAFETENSORS_DTYPES

    names = {dtype: name for name, dtype in SAFETENSORS_DTYPES.items()}
    header, offset = {"__metadata__": metadata}, 0
    for name, like in shard.items():
        end = offset + like.nbytes
        dtype = names[like.dtype]
        header[name] = {"dtype": dtype, "shape": list(like.shape), "data_offsets": [offset, end]}
        offset = end
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the data starts 8-aligned, as safetensors writes it
    with open(path, "wb") as f:
        f.write(len(text).to_bytes(8, "little") + text)
        f.truncate(8 + len(text) + offset)


def _shard_name(i: int, count: int) -> str:
    return f"model-{i:05d}-of-{count:05d}.safetensors"


def _save_shard(directory: Path, shard: dict, saved: int, save_file) -> int:
    """Writes `shard` as shard `saved + 1` (under a provisional name: the count is
    not known yet) and empties it; returns the number of shards saved."""
    save_file(shard, str(directory / f"part-{saved + 1}.safetensors"), {"format": "pt"})
    shard.clear()
    return saved + 1


def main(argv=None) -> int:
    _quiet.install()
    parser = argparse.ArgumentParser(prog="python -m mlx_delegate.llm.tiny")
    parser.add_argument("directory", type=Path)
    parser.add_argument("--family", default="llama")
    parser.add_argument("--size", choices=("tiny", "100m"), default="tiny")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shape", choices=sorted(SHAPES), default=None)
    parser.add_argument("--dtype", choices=("fp32", "bf16"), default="bf16")
    parser.add_argument("--layers", type=int, default=None, help="with --shape: fewer layers")
    args = parser.parse_args(argv)
    if args.shape:
        dtype = torch.bfloat16 if args.dtype == "bf16" else torch.float32
        layers = {} if args.layers is None else {"num_hidden_layers": args.layers}
        params = write_shaped_checkpoint(args.directory, args.shape, dtype, **layers)
        write_tokenizer(args.directory, 512)
        print(f"{args.directory}: {args.shape} checkpoint, {params:,} parameters")
        return 0
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()  # a bar over the one shard save_pretrained writes
    model = write_checkpoint(args.directory, args.family, args.size, args.seed)
    write_tokenizer(args.directory, model.config.vocab_size)
    params = sum(p.numel() for p in model.parameters())
    print(f"{args.directory}: {args.family} checkpoint, {params:,} parameters, tokenizer.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
