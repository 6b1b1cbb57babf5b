"""The model zoo: small `transformers` architectures with seeded random weights.

Each `ModelCase` builds its model from a small config (nothing from a hub, no
network), wrapped in a module whose `forward` takes tensors and returns one
tensor, in eval mode, with the attention implementation it names. The factory
also checks that the features the case claims (a rope scaling, a sliding
window, tied embeddings...) really are in the built model, so a config option
that the library ignores fails loudly instead of testing less than it says.

Weights: the library's own seeded initialization, then biases and norm
parameters (zero and one by default) and batch-norm statistics are drawn at
random, so that every op changes the result and a wrong one shows.

`outside` maps an op name (a substring of the edge op's name, e.g.
"max_pool2d_with_indices") to the reason it may run outside the delegate;
it is empty for nearly every model: the goal is one delegate, nothing outside.

    python -m testbench.run_models [-j N] [--list] [NAMES...]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

import torch

f32, bf16, f16 = torch.float32, torch.bfloat16, torch.float16

# (rtol, atol) per dtype, against PyTorch eager in the same dtype. float16's is
# bfloat16's: its rounding is finer, but the LLMs' logits reach ~10, where one
# float16 step is 8e-3.
FP32 = (1e-4, 1e-4)
BF16 = (5e-2, 5e-2)
FP16 = (5e-2, 5e-2)


@dataclass(frozen=True)
class ModelCase:
    name: str
    description: str  # the architecture and what it covers
    factory: Callable[[], torch.nn.Module]  # fp32, eval, seeded by the caller
    inputs: Callable[[torch.Generator], tuple]
    # The dtypes make test and run_models check here (the CUDA suite,
    # testbench/cuda_suite, runs every model in fp32, bf16 and fp16).
    dtypes: tuple = (f32,)
    tolerances: dict = field(default_factory=lambda: {f32: FP32, bf16: BF16, f16: FP16})
    outside: dict = field(default_factory=dict)  # op name -> why it may run outside

    def tolerance(self, dtype: torch.dtype) -> tuple[float, float]:
        return self.tolerances[dtype]

    def build(self, dtype: torch.dtype = f32) -> tuple[torch.nn.Module, tuple]:
        """The model and its example inputs in `dtype` (floating inputs cast, integer ones kept)."""
        torch.manual_seed(0)
        model = self.factory().eval()
        inputs = self.inputs(torch.Generator().manual_seed(1))
        if dtype != f32:
            model = model.to(dtype)
            inputs = tuple(t.to(dtype) if t.is_floating_point() else t for t in inputs)
        return model, inputs


ZOO: dict[str, ModelCase] = {}


def register(case: ModelCase) -> ModelCase:
    if case.name in ZOO:
        raise ValueError(f"model {case.name!r} registered twice")
    ZOO[case.name] = case
    return case


def all_models() -> dict[str, ModelCase]:
    return ZOO


def dtype_label(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


# ---- wrapping and weights ----------------------------------------------------------


class Wrapped(torch.nn.Module):
    """Calls `model(**dict(zip(names, args)), **kwargs)` and returns `output`
    (an attribute of the returned ModelOutput, or an index)."""

    def __init__(self, model: torch.nn.Module, names: tuple[str, ...], output="logits", **kwargs):
        super().__init__()
        self.model = model
        self.names = names
        self.output = output
        self.kwargs = kwargs

    def forward(self, *args):
        result = self.model(**dict(zip(self.names, args)), **self.kwargs)
        if isinstance(self.output, int):
            return result[self.output]
        return getattr(result, self.output)


def randomize(model: torch.nn.Module, scale: float = 0.1) -> torch.nn.Module:
    """Draws biases, norm affine parameters and batch-norm statistics at random
    (the default zeros and ones would let a wrong bias or norm op pass)."""
    with torch.no_grad():
        for module in model.modules():
            norm = "norm" in type(module).__name__.lower()
            for name, param in module.named_parameters(recurse=False):
                if name == "bias":
                    param.normal_(0.0, scale)
                elif norm and name == "weight":
                    param.add_(torch.randn_like(param) * scale)
            if (
                isinstance(module, torch.nn.modules.batchnorm._BatchNorm)
                and module.track_running_stats
            ):
                module.running_mean.normal_(0.0, scale)
                module.running_var.uniform_(0.5, 1.5)
    return model


def _hf(model_cls, config_cls, attn: Optional[str] = "sdpa", **config) -> torch.nn.Module:
    if attn is not None:
        config["attn_implementation"] = attn
    model = model_cls(config_cls(**config))
    if attn is not None:
        assert model.config._attn_implementation == attn, model.config._attn_implementation
    return randomize(model)


def tokens(vocab: int, shape=(1, 16)) -> Callable[[torch.Generator], tuple]:
    return lambda gen: (torch.randint(0, vocab, shape, generator=gen),)


def images(shape) -> Callable[[torch.Generator], tuple]:
    return lambda gen: (torch.randn(shape, generator=gen),)


def padding_mask(lengths, length: int) -> torch.Tensor:
    """1 for real tokens, 0 for padding at the end of each sequence."""
    return (torch.arange(length)[None, :] < torch.tensor(lengths)[:, None]).long()


def _causal_lm(model) -> torch.nn.Module:
    return Wrapped(model, ("input_ids",), use_cache=False)


# One layer: lowering time grows with the node count and a second layer adds no op;
# gemma2 (alternating layer types), the encoders and the vision models keep two or more.
LLM = dict(
    vocab_size=256,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=1,
    num_attention_heads=4,
    max_position_embeddings=64,
    initializer_range=0.1,
)
LLM_DTYPES = (f32, bf16, f16)
SEQ = 16


# ---- decoder LLMs ------------------------------------------------------------------


def llama():
    from transformers import LlamaConfig, LlamaForCausalLM

    model = _hf(
        LlamaForCausalLM,
        LlamaConfig,
        **LLM,
        num_key_value_heads=2,
        rope_parameters=dict(
            rope_type="llama3",
            rope_theta=10000.0,
            factor=8.0,
            low_freq_factor=1.0,
            high_freq_factor=4.0,
            original_max_position_embeddings=16,
        ),
    )
    attn = model.model.layers[0].self_attn
    assert attn.k_proj.out_features == attn.q_proj.out_features // 2  # grouped-query
    assert model.model.rotary_emb.rope_type == "llama3"
    return _causal_lm(model)


register(
    ModelCase(
        "llama",
        "Llama: grouped-query attention (4 q / 2 kv heads), llama3-scaled RoPE, "
        "RMSNorm, SiLU-gated MLP",
        llama,
        tokens(256),
        LLM_DTYPES,
    )
)


def mistral():
    from transformers import MistralConfig, MistralForCausalLM

    model = _hf(
        MistralForCausalLM,
        MistralConfig,
        **LLM,
        num_key_value_heads=1,
        sliding_window=6,
        rope_parameters=dict(rope_type="linear", rope_theta=10000.0, factor=4.0),
    )
    assert model.config.sliding_window == 6 < SEQ
    assert model.model.rotary_emb.rope_type == "linear"
    return _causal_lm(model)


register(
    ModelCase(
        "mistral",
        "Mistral: sliding-window attention (window 6 of 16 tokens), "
        "multi-query attention (1 kv head), linear-scaled RoPE",
        mistral,
        tokens(256),
        LLM_DTYPES,
    )
)


def qwen2():
    from transformers import Qwen2Config, Qwen2ForCausalLM

    model = _hf(
        Qwen2ForCausalLM, Qwen2Config, **LLM, num_key_value_heads=2, tie_word_embeddings=True
    )
    attn = model.model.layers[0].self_attn
    assert attn.q_proj.bias is not None and attn.o_proj.bias is None  # qkv bias
    assert model.lm_head.weight is model.model.embed_tokens.weight  # tied
    return Wrapped(model, ("input_ids", "attention_mask"), use_cache=False)


def left_padded_tokens(gen):
    """A batch of 2 as batched generation pads it: the second sequence left-padded
    by 5 (whose query rows see no key: scaled_dot_product_attention gives zeros)."""
    mask = torch.ones(2, SEQ, dtype=torch.long)
    mask[1, :5] = 0
    return torch.randint(0, 256, (2, SEQ), generator=gen), mask


register(
    ModelCase(
        "qwen2",
        "Qwen2: q/k/v projection biases, tied input and output embeddings, "
        "grouped-query attention, a left-padded batch of 2 (padding and causal mask "
        "combined)",
        qwen2,
        left_padded_tokens,
        LLM_DTYPES,
    )
)


def qwen3():
    from transformers import Qwen3Config, Qwen3ForCausalLM

    model = _hf(Qwen3ForCausalLM, Qwen3Config, **LLM, num_key_value_heads=2, head_dim=32)
    attn = model.model.layers[0].self_attn
    assert attn.q_norm.weight.shape == (32,) and attn.k_norm.weight.shape == (32,)
    assert attn.q_proj.out_features == 4 * 32 != model.config.hidden_size  # head_dim decoupled
    return _causal_lm(model)


register(
    ModelCase(
        "qwen3",
        "Qwen3: per-head RMSNorm on queries and keys (qk-norm), head dim (32) "
        "decoupled from hidden size / heads (16), grouped-query attention",
        qwen3,
        tokens(256),
        LLM_DTYPES,
    )
)


def gemma2():
    from transformers import Gemma2Config, Gemma2ForCausalLM

    # Softcapping needs the eager attention (the library's sdpa path cannot cap).
    model = _hf(
        Gemma2ForCausalLM,
        Gemma2Config,
        attn="eager",
        **{**LLM, "num_hidden_layers": 2},
        num_key_value_heads=2,
        head_dim=16,
        query_pre_attn_scalar=16,
        sliding_window=6,
        attn_logit_softcapping=2.0,
        final_logit_softcapping=3.0,
    )
    layers = model.model.layers
    assert [layer.self_attn.sliding_window for layer in layers] == [6, None]
    assert layers[0].self_attn.attn_logit_softcapping == 2.0
    assert model.lm_head.weight is model.model.embed_tokens.weight
    return _causal_lm(model)


register(
    ModelCase(
        "gemma2",
        "Gemma2: attention and final logit soft-capping (tanh), alternating "
        "sliding-window / global layers, GeGLU (tanh GELU), embedding scaling, "
        "pre- and post-norms, tied embeddings",
        gemma2,
        tokens(256),
        LLM_DTYPES,
    )
)


def phi3():
    from transformers import Phi3Config, Phi3ForCausalLM

    model = _hf(
        Phi3ForCausalLM,
        Phi3Config,
        **LLM,
        num_key_value_heads=2,
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
        partial_rotary_factor=0.5,
    )
    layer = model.model.layers[0]
    assert hasattr(layer.self_attn, "qkv_proj") and hasattr(layer.mlp, "gate_up_proj")
    assert model.model.rotary_emb.inv_freq.numel() == 4  # half of the head dim (16) rotated
    return _causal_lm(model)


register(
    ModelCase(
        "phi3",
        "Phi3: fused qkv projection split by slicing, fused gate/up projection "
        "split by chunk, partial rotary (half the head dim), grouped-query attention",
        phi3,
        tokens(256),
        LLM_DTYPES,
    )
)


def gpt_neox():
    from transformers import GPTNeoXConfig, GPTNeoXForCausalLM

    model = _hf(
        GPTNeoXForCausalLM,
        GPTNeoXConfig,
        vocab_size=256,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=1,
        num_attention_heads=4,
        max_position_embeddings=64,
        initializer_range=0.1,
        use_parallel_residual=True,
        rotary_pct=0.25,
    )
    assert model.gpt_neox.layers[0].attention.rotary_ndims == 4
    assert model.gpt_neox.layers[0].use_parallel_residual
    return _causal_lm(model)


register(
    ModelCase(
        "gpt_neox",
        "GPT-NeoX (Pythia): parallel attention + MLP residual, partial rotary "
        "(a quarter of the head dim), fused interleaved qkv, LayerNorm, exact GELU",
        gpt_neox,
        tokens(256),
        LLM_DTYPES,
    )
)


def gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel

    model = _hf(
        GPT2LMHeadModel,
        GPT2Config,
        vocab_size=256,
        n_positions=64,
        n_embd=64,
        n_layer=1,
        n_head=4,
        initializer_range=0.1,
        bos_token_id=0,
        eos_token_id=0,
    )
    assert type(model.transformer.h[0].attn.c_attn).__name__ == "Conv1D"
    assert model.lm_head.weight is model.transformer.wte.weight
    return _causal_lm(model)


register(
    ModelCase(
        "gpt2",
        "GPT-2: fused qkv through Conv1D (addmm), learned positions, tanh GELU, "
        "LayerNorm, tied embeddings",
        gpt2,
        tokens(256),
        LLM_DTYPES,
    )
)


# ---- mixture of experts ------------------------------------------------------------
# transformers' `batched_mm` experts (the form that exports: the default,
# `grouped_mm`, stops on histc, and the eager loop over experts is
# data-dependent); mlx_delegate/compiler/ops/experts.py lowers them to GatherMM.
MOE = dict(LLM, intermediate_size=64, experts_implementation="batched_mm")


def _moe(model_cls, config_cls, **config) -> torch.nn.Module:
    model = _hf(model_cls, config_cls, **MOE, **config)
    assert model.config._experts_implementation == "batched_mm"
    for module in model.modules():
        for name, param in module.named_parameters(recurse=False):
            if name in ("gate_up_proj", "down_proj"):  # initialized, not left empty
                assert param.dim() == 3 and 0 < param.std() < 1, (name, param.std())
    return model


def qwen3_moe():
    from transformers import Qwen3MoeConfig, Qwen3MoeForCausalLM

    model = _moe(
        Qwen3MoeForCausalLM,
        Qwen3MoeConfig,
        num_key_value_heads=2,
        head_dim=16,
        num_experts=8,
        num_experts_per_tok=2,
        moe_intermediate_size=32,
        norm_topk_prob=True,
        decoder_sparse_step=1,
    )
    assert model.model.layers[0].mlp.experts.gate_up_proj.shape == (8, 64, 64)
    return _causal_lm(model)


def mixtral():
    from transformers import MixtralConfig, MixtralForCausalLM

    model = _moe(
        MixtralForCausalLM,
        MixtralConfig,
        num_key_value_heads=2,
        num_local_experts=4,
        num_experts_per_tok=2,
        sliding_window=None,
    )
    assert model.model.layers[0].mlp.experts.down_proj.shape == (4, 64, 64)
    return _causal_lm(model)


def deepseek_v3():
    from transformers import DeepseekV3Config, DeepseekV3ForCausalLM

    model = _moe(
        DeepseekV3ForCausalLM,
        DeepseekV3Config,
        num_key_value_heads=4,  # multi-head latent attention: one latent, every head
        n_routed_experts=8,
        num_experts_per_tok=2,
        moe_intermediate_size=32,
        n_shared_experts=1,
        n_group=4,
        topk_group=2,
        first_k_dense_replace=0,
        kv_lora_rank=16,
        q_lora_rank=32,
        qk_rope_head_dim=8,
        qk_nope_head_dim=16,
        v_head_dim=16,
    )
    mlp = model.model.layers[0].mlp
    assert type(mlp).__name__ == "DeepseekV3MoE" and mlp.shared_experts is not None
    with torch.no_grad():  # a correction bias that changes which experts are chosen
        mlp.gate.e_score_correction_bias.normal_(0.0, 0.1)
    return _causal_lm(model)


MOE_CASES = (
    (
        "qwen3_moe",
        "Qwen3-MoE: softmax router, normalised top-2 of 8 experts, qk-norm, "
        "grouped-query attention",
        qwen3_moe,
    ),
    (
        "mixtral",
        "Mixtral: softmax over the top-2 of 4 experts, grouped-query attention",
        mixtral,
    ),
    (
        "deepseek_v3",
        "DeepSeek-V3: sigmoid router with a score-correction bias, group-limited "
        "top-2 (2 of 4 groups: scatter of the chosen groups), routed scaling, a "
        "shared expert, multi-head latent attention with interleaved RoPE",
        deepseek_v3,
    ),
)
for _name, _description, _factory in MOE_CASES:
    register(ModelCase(_name, _description, _factory, tokens(256)))


# ---- encoders and encoder-decoders -----------------------------------------------------


def bert():
    from transformers import BertConfig, BertModel

    model = _hf(
        BertModel,
        BertConfig,
        vocab_size=256,
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=128,
        max_position_embeddings=64,
        initializer_range=0.1,
        add_pooling_layer=False,
    )
    return Wrapped(model, ("input_ids", "attention_mask", "token_type_ids"), "last_hidden_state")


def bert_inputs(gen):
    mask = padding_mask([SEQ, 11], SEQ)
    ids = torch.randint(1, 256, (2, SEQ), generator=gen) * mask  # pad id 0
    types = (torch.arange(SEQ) >= 6).long().expand(2, SEQ) * mask
    return ids, mask, types


register(
    ModelCase(
        "bert",
        "BERT encoder: bidirectional attention with a padding mask (batch of 2, "
        "one padded), token types, absolute positions, exact GELU, LayerNorm",
        bert,
        bert_inputs,
    )
)


def t5():
    from transformers import T5Config, T5ForConditionalGeneration

    model = _hf(
        T5ForConditionalGeneration,
        T5Config,
        vocab_size=256,
        d_model=64,
        d_kv=16,
        d_ff=128,
        num_layers=1,
        num_decoder_layers=1,
        num_heads=4,
        relative_attention_num_buckets=16,
        relative_attention_max_distance=32,
        feed_forward_proj="gated-gelu",
        decoder_start_token_id=0,
        pad_token_id=0,
    )
    assert model.config.scale_decoder_outputs and model.lm_head.weight is model.shared.weight
    return Wrapped(model, ("input_ids", "attention_mask", "decoder_input_ids"), use_cache=False)


def t5_inputs(gen):
    mask = padding_mask([SEQ, 12], SEQ)
    ids = torch.randint(1, 256, (2, SEQ), generator=gen) * mask
    return ids, mask, torch.randint(1, 256, (2, 8), generator=gen)


register(
    ModelCase(
        "t5",
        "T5 encoder-decoder: relative position buckets (log, clamp, where), "
        "encoder padding mask, causal self- and cross-attention, gated GELU, T5 "
        "RMSNorm, tied embeddings with output scaling",
        t5,
        t5_inputs,
    )
)


def whisper_encoder():
    from transformers import WhisperConfig, WhisperModel

    model = _hf(
        WhisperModel,
        WhisperConfig,
        vocab_size=256,
        num_mel_bins=80,
        encoder_layers=2,
        encoder_attention_heads=4,
        encoder_ffn_dim=128,
        decoder_layers=1,
        decoder_attention_heads=4,
        decoder_ffn_dim=128,
        d_model=64,
        max_source_positions=32,
        max_target_positions=32,
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
        decoder_start_token_id=3,
        initializer_range=0.1,
    )
    return Wrapped(model.get_encoder(), ("input_features",), "last_hidden_state")


register(
    ModelCase(
        "whisper_encoder",
        "Whisper encoder on log-mel features (80 mels, 64 frames): "
        "conv1d stem with stride 2, GELU, sinusoidal positions, pre-norm attention",
        whisper_encoder,
        images((1, 80, 64)),
    )
)


# ---- vision ------------------------------------------------------------------------


def vit():
    from transformers import ViTConfig, ViTForImageClassification

    model = _hf(
        ViTForImageClassification,
        ViTConfig,
        image_size=32,
        patch_size=8,
        num_channels=3,
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=128,
        num_labels=10,
        initializer_range=0.1,
    )
    return Wrapped(model, ("pixel_values",))


register(
    ModelCase(
        "vit",
        "ViT: patch embedding (strided conv), class token, learned positions, "
        "pre-norm attention, classification head",
        vit,
        images((1, 3, 32, 32)),
    )
)


def swin():
    from transformers import SwinConfig, SwinForImageClassification

    model = _hf(
        SwinForImageClassification,
        SwinConfig,
        image_size=32,
        patch_size=2,
        num_channels=3,
        embed_dim=32,
        depths=[2, 1],
        num_heads=[2, 4],
        window_size=4,
        num_labels=10,
        initializer_range=0.1,
    )
    blocks = model.swin.encoder.layers[0].blocks
    assert blocks[1].shift_size > 0  # the second block shifts its windows with roll
    return Wrapped(model, ("pixel_values",))


register(
    ModelCase(
        "swin",
        "Swin: windowed attention with relative position bias, shifted windows "
        "(roll) with their attention mask, patch merging, adaptive average pooling",
        swin,
        images((1, 3, 32, 32)),
    )
)


def resnet():
    from transformers import ResNetConfig, ResNetForImageClassification

    model = _hf(
        ResNetForImageClassification,
        ResNetConfig,
        attn=None,
        num_channels=3,
        embedding_size=16,
        hidden_sizes=[16, 32, 64],
        depths=[1, 1, 1],
        layer_type="bottleneck",
        num_labels=10,
    )
    return Wrapped(model, ("pixel_values",))


register(
    ModelCase(
        "resnet",
        "ResNet: 7x7 stem, batch norm, max pooling, bottleneck blocks with "
        "strided projection shortcuts, ReLU, global average pooling",
        resnet,
        images((1, 3, 64, 64)),
    )
)


def mobilenet_v2():
    from transformers import MobileNetV2Config, MobileNetV2ForImageClassification

    model = _hf(
        MobileNetV2ForImageClassification,
        MobileNetV2Config,
        attn=None,
        num_channels=3,
        image_size=32,
        depth_multiplier=0.25,
        num_labels=10,
    )
    return Wrapped(model, ("pixel_values",))


register(
    ModelCase(
        "mobilenet_v2",
        "MobileNetV2: depthwise and pointwise convs, inverted residuals, "
        "ReLU6, TensorFlow 'same' padding (constant pad), batch norm",
        mobilenet_v2,
        images((1, 3, 32, 32)),
    )
)


def convnext():
    from transformers import ConvNextConfig, ConvNextForImageClassification

    model = _hf(
        ConvNextForImageClassification,
        ConvNextConfig,
        attn=None,
        num_channels=3,
        num_stages=2,
        hidden_sizes=[16, 32],
        depths=[1, 1],
        num_labels=10,
        layer_scale_init_value=0.5,
    )
    return Wrapped(model, ("pixel_values",))


register(
    ModelCase(
        "convnext",
        "ConvNeXt: 4x4 patchify stem, 7x7 depthwise convs, channels-last "
        "LayerNorm (permutes), layer scale, GELU, strided downsampling",
        convnext,
        images((1, 3, 32, 32)),
    )
)


def segformer():
    from transformers import SegformerConfig, SegformerForSemanticSegmentation

    model = _hf(
        SegformerForSemanticSegmentation,
        SegformerConfig,
        num_channels=3,
        num_encoder_blocks=2,
        depths=[1, 1],
        sr_ratios=[2, 1],
        hidden_sizes=[16, 32],
        patch_sizes=[7, 3],
        strides=[4, 2],
        num_attention_heads=[1, 2],
        mlp_ratios=[2, 2],
        decoder_hidden_size=32,
        num_labels=5,
    )
    return Wrapped(model, ("pixel_values",))


register(
    ModelCase(
        "segformer",
        "SegFormer: overlapping patch embeddings, efficient attention with "
        "spatial reduction (strided conv), Mix-FFN depthwise conv, all-MLP decoder with "
        "bilinear upsampling and concatenation, batch norm",
        segformer,
        images((1, 3, 32, 32)),
    )
)
