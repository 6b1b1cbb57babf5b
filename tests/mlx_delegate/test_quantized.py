"""Quantized weights exported from torchao lowered to MLX's packed weights:
what the delegate runs (quantized matmul, rows gathered then dequantized) for
each form (affine integers of 1 to 8 bits, Int4Tensor, NVFP4, MXFP8), how
small the .pte gets, which results equal eager's bit for bit, what is refused,
and `quantize_weights`. The accuracy matrix (bit widths, groups, granularities,
float32/bfloat16, dynamic batch) is the op cases in
testbench/op_cases_quant.py."""

from __future__ import annotations

import pytest
import torch
from executorch.exir import EdgeCompileConfig, to_edge, to_edge_transform_and_lower
from executorch.runtime import Runtime
from torch import nn

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.compiler.builder import ProgramBuilder
from mlx_delegate.tools.inspector import delegates, describe
from mlx_delegate.llm.quantize import quantize_weights
from mlx_delegate.compiler.ops import default_registry
from mlx_delegate.compiler.ops.quantized import pack
from mlx_delegate.compiler.partitioner import MLXPartitioner
from testbench.op_cases_quant import (
    asymmetric,
    float_quantized,
    quantized,
    with_int4_tensor,
)


class LanguageModelEnds(nn.Module):
    def __init__(self, vocab: int = 512, dim: int = 256):
        super().__init__()
        self.embed, self.head = nn.Embedding(vocab, dim), nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.head(self.embed(tokens))


TOKENS = torch.tensor([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3]])


def _pte(model: nn.Module, *inputs) -> bytes:
    exported = torch.export.export(model, inputs)
    # ExecuTorch's edge checks refuse its own NVFP4 and MX ops (mixed dtypes)
    edge = to_edge_transform_and_lower(
        exported,
        partitioner=[MLXPartitioner(device="cpu")],
        compile_config=EdgeCompileConfig(_check_ir_validity=False),
    )
    return edge.to_executorch().buffer


def _run(pte: bytes, *inputs):
    program = Runtime.get().load_program(pte)
    return program.load_method("forward").execute(list(inputs))


def _instructions(pte: bytes) -> list[str]:
    ((_, payload, specs, _),) = list(delegates(pte))
    lines = [line.split() for line in describe(payload, specs)]
    return [words[1].split("(")[0] for words in lines if words and words[0].isdigit()]


def test_pack_puts_value_k_of_a_word_at_bits_k_times_bits():
    q = torch.tensor([[-8, -7, 0, 7, -8, -8, -8, 1]], dtype=torch.int8)
    (word,) = pack(q, -8, 4).reshape(-1).tolist()
    assert word == 0 | 1 << 4 | 8 << 8 | 15 << 12 | 9 << 28
    q8 = torch.tensor([[-128, 127, 0, -1]], dtype=torch.int8)
    assert pack(q8, -128, 8).reshape(-1).tolist() == [0 | 255 << 8 | 128 << 16 | 127 << 24]


@pytest.mark.parametrize("bits", [2, 3, 4, 5, 6, 8])
def test_pack_makes_each_row_one_little_endian_bit_stream(bits):
    """MLX's packing, for 3, 5 and 6 bits too, where a value may span two words."""
    low = -(1 << (bits - 1))
    q = torch.randint(low, low + (1 << bits), (3, 64), generator=torch.Generator().manual_seed(0))
    words = pack(q.to(torch.int8), low, bits)
    assert words.shape == (3, 64 * bits // 32) and words.dtype == torch.uint32
    stream = words.view(torch.uint8).numpy()
    bits_of_rows = [[(int(byte) >> k) & 1 for byte in row for k in range(8)] for row in stream]
    values = [
        [sum(row[i * bits + k] << k for k in range(bits)) for i in range(64)]
        for row in bits_of_rows
    ]
    assert values == (q - low).tolist()


def test_pack_puts_a_3_bit_value_across_two_words():
    q = torch.zeros(1, 32, dtype=torch.int8)
    q[0, 10] = 7  # bits 30, 31 of word 0 and bit 0 of word 1
    assert pack(q, 0, 3).tolist() == [[3 << 30, 1, 0]]


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_the_delegate_multiplies_by_the_packed_weight_and_gathers_packed_rows(dtype):
    model = quantized(LanguageModelEnds(), 4, 32, dtype)
    pte = _pte(model, TOKENS)
    # bfloat16 too: the rows dequantize, and the product runs, in the model's own dtype
    assert _instructions(pte) == ["Take", "Take", "Take", "Dequantize", "QuantizedLinear"]
    (got,) = _run(pte, TOKENS)
    want = model(TOKENS)
    assert got.dtype == dtype
    # bfloat16 scales and biases (mlx-lm's format); the CPU plugin multiplies in float32
    tolerance = 1e-5 if dtype == torch.float32 else 8e-3
    torch.testing.assert_close(got, want, rtol=tolerance, atol=tolerance)


def test_a_row_of_one_group_is_split_in_two():
    """torchao's groups of 128 on rows of 128 values run as MLX groups of 64,
    each scale twice: MLX 0.32.4's CUDA quantized_matmul returned wrong
    products for rows of one group of 128 (on an H100)."""
    model, x = quantized(nn.Linear(128, 48), 4, 128), torch.randn(3, 128)
    pte = _pte(model, x)
    ((_, payload, specs, _),) = list(delegates(pte))
    (line,) = [line for line in describe(payload, specs) if "QuantizedLinear(" in line]
    assert "group_size=64," in line
    (got,) = _run(pte, x)
    torch.testing.assert_close(got, model(x), rtol=1e-5, atol=1e-5)


def test_an_int4_pte_holds_an_eighth_of_the_float32_weights_plus_scales_and_biases():
    """float32 weights take 4 bytes each; int4 ones half a byte, plus a float32
    scale and bias per group of 32: the rest of the .pte is the same size."""
    torch.manual_seed(0)
    weights = sum(p.numel() for n, p in LanguageModelEnds().named_parameters() if "weight" in n)
    float32_size = len(_pte(LanguageModelEnds().eval(), TOKENS))
    for bits, group in ((4, 32), (8, 32), (4, 128)):
        size = len(_pte(quantized(LanguageModelEnds(), bits, group), TOKENS))
        packed = weights * bits // 8 + 2 * 4 * weights // group
        expected = float32_size - 4 * weights + packed
        assert abs(size - expected) < 0.01 * float32_size, (bits, group, size, expected)


def _each_layer(model: nn.Module, quantize) -> nn.Module:
    for layer in (model.embed, model.head):
        quantize(layer)
    return model.eval()


FORMATS = {
    "int6": lambda module: quantized(module, 6, 32),
    "int4_tensor": lambda module: _each_layer(module, lambda layer: with_int4_tensor(layer, 32)),
    "nvfp4": lambda module: float_quantized(module, "nvfp4"),
    "mxfp8": lambda module: float_quantized(module, "mxfp8"),
}


@pytest.mark.parametrize("name", FORMATS)
def test_each_format_runs_one_packed_product_and_packed_rows(name):
    model = FORMATS[name](LanguageModelEnds(vocab=64, dim=128))
    tokens = TOKENS % 64
    pte = _pte(model, tokens)
    ops = _instructions(pte)
    products = ["QuantizedLinear"]
    rows = ["Take"] * (3 if name in ("int6", "int4_tensor") else 2) + ["Dequantize"]
    assert ops == rows + products, ops  # the fp modes have no biases to take
    (got,) = _run(pte, tokens)
    torch.testing.assert_close(got, model(tokens), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", ["nvfp4", "mxfp8"])
def test_fp_rows_equal_eager_bit_for_bit_in_float32(mode):
    """Each value is an fp4/fp8 number times a power of two or an E4M3 scale:
    exact in float32, as torchao computes it (no per-tensor scale here)."""
    model = float_quantized(nn.Embedding(96, 64), mode, tensor_scale=False)
    tokens = torch.arange(96).reshape(8, 12)
    (got,) = _run(_pte(model, tokens), tokens)
    assert torch.equal(got, model(tokens))


@pytest.mark.parametrize("mode, bits", [("nvfp4", 4 + 8 / 16), ("mxfp8", 8 + 8 / 32)])
def test_an_fp_pte_holds_the_values_and_one_scale_byte_a_group(mode, bits):
    torch.manual_seed(0)
    weights = sum(p.numel() for n, p in LanguageModelEnds().named_parameters() if "weight" in n)
    float32_size = len(_pte(LanguageModelEnds().eval(), TOKENS))
    size = len(_pte(float_quantized(LanguageModelEnds(), mode), TOKENS))
    expected = float32_size - 4 * weights + weights * bits / 8
    assert abs(size - expected) < 0.01 * float32_size, (size, expected)


def _support(model: nn.Module, *inputs) -> dict:
    config = EdgeCompileConfig(_check_ir_validity=False)
    program = to_edge(torch.export.export(model, inputs), compile_config=config)
    program = program.exported_program()
    return ProgramBuilder(program, default_registry(), dry_run=True).build().support


def test_groups_mlx_lacks_are_refused_with_the_reason():
    support = _support(quantized(nn.Linear(64, 8), 8, 16), torch.randn(2, 64))
    reasons = [r for name, r in support.items() if "dequantize_affine" in name]
    assert reasons and all("block size [1, 16]" in r for r in reasons)


def _e5m2(module):
    from executorch.extension.llm.export.mx import ExportableMXConfig
    from torchao.quantization import quantize_

    quantize_(module, ExportableMXConfig(elem_dtype=torch.float8_e5m2))
    return module


@pytest.mark.parametrize(
    "make, op, reason",
    [
        (
            lambda: quantized(nn.Linear(64, 8), 1, 32, **asymmetric()),
            "dequantize_affine",
            "takes 1 bits",
        ),
        (lambda: with_int4_tensor(nn.Linear(64, 8), 16), "dequantize_int4", "groups of 16"),
        (lambda: _e5m2(nn.Linear(64, 8)), "dequantize_mx", "float8_e5m2"),
    ],
)
def test_what_mlx_cannot_hold_stays_outside_with_the_reason(make, op, reason):
    model, x = make().eval(), torch.randn(2, 64)
    support = _support(model, x)
    reasons = [r for name, r in support.items() if op in name]
    assert reasons and all(r and reason in r for r in reasons), support
    # the partitioner leaves it outside (ExecuTorch has no kernel for it: that is its error)
    edge = to_edge_transform_and_lower(
        torch.export.export(model, (x,)),
        partitioner=[MLXPartitioner(device="cpu")],
        compile_config=EdgeCompileConfig(_check_ir_validity=False),
    )
    outside = [
        str(n.target)
        for n in edge.exported_program().graph.nodes
        if n.op == "call_function" and "delegate" not in str(n.target)
    ]
    assert any(op in target for target in outside), outside


def test_quantize_weights_quantizes_every_linear_and_embedding_it_can():
    torch.manual_seed(0)
    model = nn.ModuleDict(
        {"ends": LanguageModelEnds(vocab=64, dim=128), "odd": nn.Linear(96, 8)}
    ).eval()
    with pytest.warns(
        UserWarning,
        match=r"odd is not quantized: its sizes \(96,\) are not multiples of int4's group size 64",
    ):
        quantize_weights(model, "int4", 64)
    assert type(model["ends"].embed.weight).__name__ == "IntxUnpackedToInt8Tensor"
    assert type(model["ends"].head.weight).__name__ == "IntxUnpackedToInt8Tensor"
    assert type(model["odd"].weight) is nn.Parameter
    ends = model["ends"]
    pte = _pte(ends, TOKENS)
    assert "QuantizedLinear" in _instructions(pte)
    (got,) = _run(pte, TOKENS)
    torch.testing.assert_close(got, ends(TOKENS), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("scheme, group", [("int1", 32), ("int9", 32), ("int8", 16)])
def test_quantize_weights_refuses_what_mlx_cannot_run(scheme, group):
    with pytest.raises(ValueError):
        quantize_weights(nn.Linear(64, 8), scheme, group)


def test_a_dequantized_weight_read_twice_is_dequantized_whole_once():
    from testbench.op_cases_quant import DequantizedTwice

    model, x = DequantizedTwice(torch.float32).eval(), torch.randn(3, 256)
    pte = _pte(model, x)
    assert _instructions(pte).count("Dequantize") == 1
    (got,) = _run(pte, x)
    torch.testing.assert_close(got, model(x), rtol=1e-4, atol=1e-4)


@pytest.mark.slow  # exports two language models
@pytest.mark.parametrize(
    "name, scheme, dtype",
    [("llama", "int4", torch.float32), ("qwen2", "int8", torch.bfloat16)],  # qwen2: tied embeddings
)
def test_a_quantized_language_model_runs_every_projection_packed(name, scheme, dtype):
    from testbench.models import all_models

    case = all_models()[name]
    model, inputs = case.build(dtype)
    linears = sum(isinstance(m, nn.Linear) for m in model.modules())
    quantize_weights(model, scheme, 32)
    pte = _pte(model, *inputs)
    ops = _instructions(pte)
    assert ops.count("QuantizedLinear") == linears and "Linear" not in ops
    assert ops[:4] == ["Take", "Take", "Take", "Dequantize"]
    (got,) = _run(pte, *inputs)
    with torch.no_grad():
        want = model(*inputs)
    rtol, atol = case.tolerance(dtype)
    torch.testing.assert_close(got, want, rtol=rtol, atol=atol)
