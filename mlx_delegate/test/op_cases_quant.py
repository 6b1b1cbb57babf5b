"""Op tests of torchao's weight-only quantization (IntxWeightOnlyConfig):
linear and embedding layers with int4 and int8 weights in groups of 32, 64
and 128, float32 and bfloat16 activations, compared with torchao's own eager
result of the same quantized model; and dequantize_affine called directly.
Registered by importing this module (the last lines of op_cases.py)."""

from __future__ import annotations

import torch
from torch import nn

from .op_cases import BATCH, M, T, bf16, case, f32, i8, ints

# The weights are torchao's integers whatever the dtype; what differs is
# float32 rounding (the weight MLX rebuilds as scale * u + bias), and in
# bfloat16 the output's one rounding.
QUANT_TOL = {f32: (1e-5, 1e-5), bf16: (8e-3, 8e-3)}
IN, OUT, VOCAB = 256, 48, 100
BATCH0 = {0: {0: BATCH}}


def quantized(module: nn.Module, bits: int, group: int, dtype=f32, **options) -> nn.Module:
    """`module` in `dtype`, its linear and embedding weights quantized by torchao."""
    from torchao.quantization import IntxWeightOnlyConfig, quantize_
    from torchao.quantization.granularity import PerGroup

    module = module.to(dtype).eval()
    weight_dtype = {4: torch.int4, 8: torch.int8}[bits]
    config = IntxWeightOnlyConfig(weight_dtype=weight_dtype, granularity=PerGroup(group), **options)
    quantize_(module, config, filter_fn=lambda m, _: isinstance(m, (nn.Linear, nn.Embedding)))
    return module


def _asymmetric():
    from torchao.quantization.quant_primitives import MappingType

    return {"mapping_type": MappingType.ASYMMETRIC}


def _linear_configs():
    configs = []
    for bits in (4, 8):
        for group in (32, 64, 128):
            for dtype in (f32, bf16):
                configs.append(
                    M(
                        f"int{bits}_g{group}_{dtype}".replace("torch.", ""),
                        lambda b=bits, g=group, d=dtype: quantized(nn.Linear(IN, OUT), b, g, d),
                        T((2, 5, IN), dtype),
                    )
                )
    return configs + [
        M("int4_no_bias", lambda: quantized(nn.Linear(IN, OUT, bias=False), 4, 32), T((3, IN))),
        M(
            "int4_asymmetric",
            lambda: quantized(nn.Linear(IN, OUT), 4, 64, **_asymmetric()),
            T((3, IN)),
        ),
        M(
            "int8_asymmetric_bfloat16",
            lambda: quantized(nn.Linear(IN, OUT), 8, 32, bf16, **_asymmetric()),
            T((3, IN), bf16),
        ),
        M(
            "int4_dynamic_batch",
            lambda: quantized(nn.Linear(IN, OUT), 4, 32),
            T((4, IN)),
            dynamic=BATCH0,
        ),
        M(
            "int8_dynamic_batch_bfloat16",
            lambda: quantized(nn.Linear(IN, OUT), 8, 128, bf16),
            T((4, IN), bf16),
            dynamic=BATCH0,
        ),
    ]


case("quantized_linear", _linear_configs(), tolerances=QUANT_TOL)


class _EmbedThenProject(nn.Module):
    """A language model's ends: token embedding, then a projection to the vocabulary."""

    def __init__(self):
        super().__init__()
        self.embed, self.head = nn.Embedding(VOCAB, IN), nn.Linear(IN, VOCAB, bias=False)

    def forward(self, tokens):
        return self.head(self.embed(tokens))


def _embedding_configs():
    configs = []
    for bits in (4, 8):
        for group in (32, 64, 128):
            for dtype in (f32, bf16):
                configs.append(
                    M(
                        f"int{bits}_g{group}_{dtype}".replace("torch.", ""),
                        lambda b=bits, g=group, d=dtype: quantized(
                            nn.Embedding(VOCAB, IN), b, g, d
                        ),
                        ints((2, 5), 0, VOCAB),
                    )
                )
    return configs + [
        M(
            "int4_asymmetric",
            lambda: quantized(nn.Embedding(VOCAB, IN), 4, 32, **_asymmetric()),
            ints((7,), 0, VOCAB),
        ),
        M(
            "int4_dynamic_batch",
            lambda: quantized(nn.Embedding(VOCAB, IN), 4, 64),
            ints((3, 6), 0, VOCAB),
            dynamic=BATCH0,
        ),
        M(
            "int8_dynamic_batch_bfloat16",
            lambda: quantized(nn.Embedding(VOCAB, IN), 8, 32, bf16),
            ints((3, 6), 0, VOCAB),
            dynamic=BATCH0,
        ),
        M(
            "then_linear_int4_bfloat16",
            lambda: quantized(_EmbedThenProject(), 4, 32, bf16),
            ints((2, 5), 0, VOCAB),
        ),
    ]


case("quantized_embedding", _embedding_configs(), tolerances=QUANT_TOL)


class DequantizedTwice(nn.Module):
    """dequantize_affine of int4 values in groups of 32, the weight used twice."""

    def __init__(self, dtype):
        import torchao.quantization  # noqa: F401  (registers torch.ops.torchao)

        super().__init__()
        gen = torch.Generator().manual_seed(1)
        self.register_buffer("q", torch.randint(-8, 8, (OUT, IN), generator=gen).to(i8))
        self.register_buffer("scale", torch.rand(OUT, IN // 32, generator=gen).to(dtype) / 8)
        self.register_buffer("zero", torch.randint(-2, 3, (OUT, IN // 32), generator=gen).to(i8))
        self.dtype = dtype

    def forward(self, x):
        w = torch.ops.torchao.dequantize_affine(
            self.q, [1, 32], self.scale, self.zero, i8, -8, 7, output_dtype=self.dtype
        )
        return x @ w.t() + w.sum(1)


case(
    "dequantize_affine",
    [
        M("tied_float32", lambda: DequantizedTwice(f32), T((3, IN))),
        M("tied_bfloat16", lambda: DequantizedTwice(bf16), T((3, IN), bf16)),
    ],
    tolerances={f32: (1e-4, 1e-4), bf16: (2e-2, 2e-2)},
)
