"""Op tests of quantized weights exported from torchao, each compared with
torchao's own eager result of the same quantized model:

- `IntxWeightOnlyConfig` (torchao.dequantize_affine): linear and embedding
  layers with 2- to 8-bit weights (7-bit ones stored in 8 bits) in groups of 32,
  64 and 128 and per channel, float32 and bfloat16 activations; a weight
  dequantized on its own (tied, a convolution's, per tensor) and multiplied by
  matmul/mm in every orientation;
- `Int4Tensor` in ExecuTorch's export form (torchao.dequantize_int4_tensor),
  fractional zero points too;
- NVFP4 and MXFP8 in ExecuTorch's export forms (torchao.dequantize_nvfp4,
  torchao.dequantize_mx), and MXFP4 in ours (mlx_delegate.dequantize_mxfp4),
  linear and embedding, with and without NVFP4's
  per-tensor scale.

"""

from __future__ import annotations

import torch
from torch import nn

from .op_spec import BATCH, M, T, Cases, bf16, f32, i8, ints

CASES = Cases()  # this module's op tests

# The weights are torchao's integers whatever the dtype; what differs is
# float32 rounding (the weight MLX rebuilds as scale * u + bias), and in
# bfloat16 the output's one rounding.
QUANT_TOL = {f32: (1e-5, 1e-5), bf16: (8e-3, 8e-3)}
IN, OUT, VOCAB = 256, 48, 100
BATCH0 = {0: {0: BATCH}}


def quantized(module: nn.Module, bits: int, group: int, dtype=f32, **options) -> nn.Module:
    """`module` in `dtype`, its linear, embedding and convolution weights
    quantized by torchao to `bits`-bit integers in groups of `group` values
    (0: one scale per output channel)."""
    from torchao.quantization import IntxWeightOnlyConfig, quantize_
    from torchao.quantization.granularity import PerAxis, PerGroup

    module = module.to(dtype).eval()
    granularity = PerGroup(group) if group else PerAxis(0)
    weight_dtype = getattr(torch, f"int{bits}")
    config = IntxWeightOnlyConfig(weight_dtype=weight_dtype, granularity=granularity, **options)
    layers = (nn.Linear, nn.Embedding, nn.Conv2d)
    quantize_(module, config, filter_fn=lambda m, _: isinstance(m, layers))
    return module


def asymmetric():
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
    # MLX's other bit widths, and 7 bits (stored in 8)
    for bits, group in ((2, 32), (3, 64), (5, 128), (6, 32), (7, 64)):
        configs.append(
            M(
                f"int{bits}_g{group}",
                lambda b=bits, g=group: quantized(nn.Linear(IN, OUT), b, g),
                T((2, 5, IN)),
            )
        )
    return configs + [
        M(
            "int3_g32_bfloat16",
            lambda: quantized(nn.Linear(IN, OUT), 3, 32, bf16),
            T((3, IN), bf16),
        ),
        M(
            "int6_g128_bfloat16",
            lambda: quantized(nn.Linear(IN, OUT), 6, 128, bf16),
            T((3, IN), bf16),
        ),
        M(
            "int5_asymmetric",
            lambda: quantized(nn.Linear(IN, OUT), 5, 32, **asymmetric()),
            T((3, IN)),
        ),
        M("int4_per_channel", lambda: quantized(nn.Linear(IN, OUT), 4, 0), T((3, IN))),
        M(
            "int8_per_channel_bfloat16",
            lambda: quantized(nn.Linear(IN, OUT), 8, 0, bf16),
            T((3, IN), bf16),
        ),
        M("int4_no_bias", lambda: quantized(nn.Linear(IN, OUT, bias=False), 4, 32), T((3, IN))),
        M(
            "int4_asymmetric",
            lambda: quantized(nn.Linear(IN, OUT), 4, 64, **asymmetric()),
            T((3, IN)),
        ),
        M(
            "int8_asymmetric_bfloat16",
            lambda: quantized(nn.Linear(IN, OUT), 8, 32, bf16, **asymmetric()),
            T((3, IN), bf16),
        ),
        # A prompt's rows: the CUDA plugin dequantizes first from 64 rows of half
        # precision (linalg.cpp); float32 stays packed
        M(
            "int4_g64_prompt_rows_bfloat16",
            lambda: quantized(nn.Linear(IN, OUT), 4, 64, bf16),
            T((2, 64, IN), bf16),
        ),
        M("int8_g32_prompt_rows", lambda: quantized(nn.Linear(IN, OUT), 8, 32), T((96, IN))),
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


CASES.add("quantized_linear", _linear_configs(), tolerances=QUANT_TOL)


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
        M("int2_g64", lambda: quantized(nn.Embedding(VOCAB, IN), 2, 64), ints((7,), 0, VOCAB)),
        M("int3_g32", lambda: quantized(nn.Embedding(VOCAB, IN), 3, 32), ints((7,), 0, VOCAB)),
        M(
            "int6_g128_bfloat16",
            lambda: quantized(nn.Embedding(VOCAB, IN), 6, 128, bf16),
            ints((7,), 0, VOCAB),
        ),
        M(
            "int4_per_channel",
            lambda: quantized(nn.Embedding(VOCAB, IN), 4, 0),
            ints((7,), 0, VOCAB),
        ),
        M(
            "int4_asymmetric",
            lambda: quantized(nn.Embedding(VOCAB, IN), 4, 32, **asymmetric()),
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


CASES.add("quantized_embedding", _embedding_configs(), tolerances=QUANT_TOL)


def _torchao_ops():
    import torchao.quantization  # noqa: F401  (registers torch.ops.torchao)

    return torch.ops.torchao


class DequantizedTwice(nn.Module):
    """dequantize_affine of int4 values in groups of 32, the weight used twice."""

    def __init__(self, dtype):
        super().__init__()
        _torchao_ops()
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


class DequantizedMatmul(nn.Module):
    """x times a (rows, cols) weight of int4 values dequantized by
    dequantize_affine in blocks of `block`, as `how` says: "linear" x @ W^T by
    matmul, "mm" the same by mm, "plain" x @ W."""

    def __init__(self, rows: int, cols: int, block: list, how: str, dtype=f32):
        super().__init__()
        _torchao_ops()
        gen = torch.Generator().manual_seed(2)
        blocks = (rows // block[0], cols // block[1])
        self.register_buffer("q", torch.randint(-8, 8, (rows, cols), generator=gen).to(i8))
        self.register_buffer("scale", (torch.rand(blocks, generator=gen) / 8 + 0.01).to(dtype))
        self.register_buffer("zero", torch.randint(-2, 3, blocks, generator=gen).to(i8))
        self.block, self.how, self.dtype = block, how, dtype

    def forward(self, x):
        w = torch.ops.torchao.dequantize_affine(
            self.q, self.block, self.scale, self.zero, i8, -8, 7, output_dtype=self.dtype
        )
        if self.how == "mm":
            return torch.mm(x, w.t())
        return x @ (w.t() if self.how == "linear" else w)


CASES.add(
    "dequantize_affine",
    [
        M("tied_float32", lambda: DequantizedTwice(f32), T((3, IN))),
        M("tied_bfloat16", lambda: DequantizedTwice(bf16), T((3, IN), bf16)),
        # a convolution's weight (64, 32, 3, 3), grouped along its input channels
        M(
            "conv2d_int4_g32",
            lambda: quantized(nn.Conv2d(32, 16, 3, padding=1, bias=False), 4, 32),
            T((1, 32, 5, 5)),
        ),
        M(
            "conv2d_int8_g32_bfloat16",
            lambda: quantized(nn.Conv2d(32, 16, 3, bias=False), 8, 32, bf16),
            T((1, 32, 5, 5), bf16),
        ),
    ],
    tolerances={f32: (1e-4, 1e-4), bf16: (2e-2, 2e-2)},
)

MATMUL_IN, MATMUL_OUT = 128, 64
CASES.add(
    "quantized_matmul",
    [
        # groups along the inputs (the contraction): x @ P^T
        M(
            "linear_g32",
            lambda: DequantizedMatmul(MATMUL_OUT, MATMUL_IN, [1, 32], "linear"),
            T((2, 3, MATMUL_IN)),
        ),
        M(
            "mm_g64",
            lambda: DequantizedMatmul(MATMUL_OUT, MATMUL_IN, [1, 64], "mm"),
            T((3, MATMUL_IN)),
        ),
        M(
            "plain_groups_along_rows",
            lambda: DequantizedMatmul(MATMUL_IN, MATMUL_OUT, [32, 1], "plain"),
            T((3, MATMUL_IN)),
        ),
        # groups along the outputs: x @ P
        M(
            "plain_g32",
            lambda: DequantizedMatmul(MATMUL_IN, MATMUL_OUT, [1, 32], "plain"),
            T((2, 3, MATMUL_IN)),
        ),
        M(
            "plain_g64_bfloat16",
            lambda: DequantizedMatmul(MATMUL_IN, MATMUL_OUT, [1, 64], "plain", bf16),
            T((3, MATMUL_IN), bf16),
        ),
        # one scale and zero point for the whole weight
        M(
            "linear_per_tensor",
            lambda: DequantizedMatmul(MATMUL_OUT, MATMUL_IN, [MATMUL_OUT, MATMUL_IN], "linear"),
            T((3, MATMUL_IN)),
        ),
    ],
    # bfloat16: with asymmetric zero points, the biases (scale * (quant_min -
    # zero_point), mlx-lm's format) round to bfloat16 where torchao rounds each
    # dequantized weight; one bias error multiplies a whole group of inputs, so
    # it does not average out: 0.0625 on outputs of about 1 here, on the CPU
    # plugin and on an H200 (symmetric weights have exact biases, -8 * scale)
    tolerances={f32: QUANT_TOL[f32], bf16: (5e-2, 5e-2)},
)


# ---- Int4Tensor (ExecuTorch's export form) ---------------------------------------


def int4_tensor(weight: torch.Tensor, group: int, fractional_zeros: bool = True):
    """`weight` (rows, cols) as ExecuTorch's ExportableInt4Tensor: unsigned
    4-bit values, asymmetric in groups of `group`, with zero points that are
    fractional (rounded to none, as HQQ leaves them) or integers."""
    from executorch.extension.llm.export.int4 import ExportableInt4Tensor

    rows, cols = weight.shape
    groups = weight.detach().float().reshape(rows, cols // group, group)
    low, high = groups.amin(-1), groups.amax(-1)
    scale = ((high - low) / 15).clamp(min=1e-6)
    zero = -low / scale
    if not fractional_zeros:
        zero = zero.round()
    q = (groups / scale[..., None] + zero[..., None]).round().clamp(0, 15).to(torch.uint8)
    q = q.reshape(rows, cols)
    packed = q[:, 0::2] | (q[:, 1::2] << 4)  # the first of two values in the low half
    dtype = weight.dtype
    return ExportableInt4Tensor(
        packed, scale.t().contiguous().to(dtype), zero.t().contiguous().to(dtype), group, dtype
    )


def with_int4_tensor(module: nn.Module, group: int, dtype=f32, **options) -> nn.Module:
    module = module.to(dtype).eval()
    weight = int4_tensor(module.weight.data, group, **options)
    module.weight = nn.Parameter(weight, requires_grad=False)
    return module


CASES.add(
    "int4_tensor",
    [
        M("linear_g32", lambda: with_int4_tensor(nn.Linear(IN, OUT), 32), T((2, 5, IN))),
        M(
            "linear_g64_integer_zeros",
            lambda: with_int4_tensor(nn.Linear(IN, OUT), 64, fractional_zeros=False),
            T((3, IN)),
        ),
        M(
            "linear_g128_no_bias_bfloat16",
            lambda: with_int4_tensor(nn.Linear(IN, OUT, bias=False), 128, bf16),
            T((3, IN), bf16),
        ),
        M(
            "embedding_g32_bfloat16",
            lambda: with_int4_tensor(nn.Embedding(VOCAB, IN), 32, bf16),
            ints((2, 5), 0, VOCAB),
        ),
        M(
            "embedding_g128",
            lambda: with_int4_tensor(nn.Embedding(VOCAB, IN), 128),
            ints((7,), 0, VOCAB),
        ),
    ],
    tolerances=QUANT_TOL,
)


# ---- NVFP4 and MXFP8 (ExecuTorch's export forms) ----------------------------------

FP_VOCAB = 96  # NVFP4 wants both sizes of a weight a multiple of 16


def float_quantized(module: nn.Module, mode: str, dtype=f32, tensor_scale: bool = True):
    """`module` in `dtype`, its weight quantized by ExecuTorch's NVFP4
    (`tensor_scale`: with a per-tensor scale) or MXFP8 config."""
    from torchao.quantization import quantize_

    module = module.to(dtype).eval()
    if (
        mode == "mxfp4"
    ):  # ours: no torchao config makes it (mlx_delegate/compiler/quantize_mxfp4.py)
        from mlx_delegate.compiler.quantize_mxfp4 import Mxfp4Tensor

        weight = Mxfp4Tensor.from_float(module.weight.detach())
        module.weight = nn.Parameter(weight, requires_grad=False)
        return module
    if mode == "nvfp4":
        from executorch.extension.llm.export.nvfp4 import ExportableNVFP4Config

        config = ExportableNVFP4Config(use_per_tensor_scale=tensor_scale)
    else:
        from executorch.extension.llm.export.mx import ExportableMXConfig

        config = ExportableMXConfig()
    quantize_(module, config, filter_fn=lambda m, _: isinstance(m, (nn.Linear, nn.Embedding)))
    return module


class FloatDequantizedTwice(nn.Module):
    """A linear layer's NVFP4 or MXFP8 weight dequantized by the op itself and
    used twice: dequantized whole, once."""

    def __init__(self, mode: str):
        super().__init__()
        weight = float_quantized(nn.Linear(IN, OUT, bias=False), mode).weight
        self.mode = mode
        self.register_buffer("qdata", weight.qdata.detach())
        self.register_buffer("scale", weight.scale.detach())
        if mode == "nvfp4":
            self.register_buffer("tensor_scale", weight.per_tensor_scale.detach())

    def forward(self, x):
        if self.mode == "nvfp4":
            w = torch.ops.torchao.dequantize_nvfp4(self.qdata, self.scale, self.tensor_scale, 16)
        elif self.mode == "mxfp4":
            w = torch.ops.mlx_delegate.dequantize_mxfp4(self.qdata, self.scale, 32)
        else:
            w = torch.ops.torchao.dequantize_mx(self.qdata, self.scale, torch.float8_e4m3fn, 32)
        return x @ w.t() + w.sum(1)


def _float_configs(mode: str) -> list:
    options = {"edge_checks": False}  # ExecuTorch's edge checks refuse these ops' mixed dtypes
    configs = []
    for dtype in (f32, bf16):
        name = str(dtype).removeprefix("torch.")
        scales = (True, False) if mode == "nvfp4" else (True,)
        for tensor_scale in scales:
            suffix = f"{name}" + ("" if tensor_scale or mode != "nvfp4" else "_no_tensor_scale")
            configs.append(
                M(
                    f"linear_{suffix}",
                    lambda d=dtype, t=tensor_scale: float_quantized(nn.Linear(IN, OUT), mode, d, t),
                    T((2, 5, IN), dtype),
                    **options,
                )
            )
        configs.append(
            M(
                f"embedding_{name}",
                lambda d=dtype: float_quantized(nn.Embedding(FP_VOCAB, IN), mode, d, d == f32),
                ints((2, 5), 0, FP_VOCAB),
                **options,
            )
        )
    return configs + [
        M(
            "linear_no_bias",
            lambda: float_quantized(nn.Linear(IN, OUT, bias=False), mode),
            T((3, IN)),
            **options,
        ),
        M("tied", lambda: FloatDequantizedTwice(mode), T((3, IN)), **options),
    ]


# float32: the weight's values are exact in float32; what differs from eager is
# the order of the float32 sums (and NVFP4's per-tensor scale, multiplied into
# the product, not into each scale). bfloat16: the output's rounding.
CASES.add("nvfp4", _float_configs("nvfp4"), tolerances=QUANT_TOL)
CASES.add("mxfp8", _float_configs("mxfp8"), tolerances=QUANT_TOL)
CASES.add("mxfp4", _float_configs("mxfp4"), tolerances=QUANT_TOL)
