"""torchao weight-only quantization lowered to MLX's packed affine weights:
what the delegate runs (quantized matmul, rows gathered then dequantized),
how small the .pte gets, what is refused, and `quantize_weights`. The accuracy
matrix (int4/int8, groups of 32/64/128, float32/bfloat16, dynamic batch) is
the op cases in mlx_delegate/test/op_cases_quant.py."""

from __future__ import annotations

import pytest
import torch
from executorch.exir import to_edge, to_edge_transform_and_lower
from executorch.runtime import Runtime
from torch import nn

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.builder import ProgramBuilder
from mlx_delegate.inspect import delegates, describe
from mlx_delegate.llm.quantize import quantize_weights
from mlx_delegate.ops import default_registry
from mlx_delegate.ops.quantized import pack
from mlx_delegate.partitioner import MLXPartitioner
from mlx_delegate.test.op_cases_quant import quantized


class LanguageModelEnds(nn.Module):
    def __init__(self, vocab: int = 512, dim: int = 256):
        super().__init__()
        self.embed, self.head = nn.Embedding(vocab, dim), nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.head(self.embed(tokens))


TOKENS = torch.tensor([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3]])


def _pte(model: nn.Module, *inputs) -> bytes:
    exported = torch.export.export(model, inputs)
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device="cpu")])
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


def _support(model: nn.Module, *inputs) -> dict:
    program = to_edge(torch.export.export(model, inputs)).exported_program()
    return ProgramBuilder(program, default_registry(), dry_run=True).build().support


def test_groups_mlx_lacks_are_refused_with_the_reason():
    support = _support(quantized(nn.Linear(64, 8), 8, 16), torch.randn(2, 64))
    reasons = [r for name, r in support.items() if "dequantize_affine" in name]
    assert reasons and all("block size [1, 16]" in r for r in reasons)


def test_quantize_weights_quantizes_every_linear_and_embedding_it_can():
    torch.manual_seed(0)
    model = nn.ModuleDict(
        {"ends": LanguageModelEnds(vocab=64, dim=128), "odd": nn.Linear(96, 8)}
    ).eval()
    with pytest.warns(UserWarning, match=r"odd is not quantized: its input size 96"):
        quantize_weights(model, "int4", 64)
    assert type(model["ends"].embed.weight).__name__ == "IntxUnpackedToInt8Tensor"
    assert type(model["ends"].head.weight).__name__ == "IntxUnpackedToInt8Tensor"
    assert type(model["odd"].weight) is nn.Parameter
    ends = model["ends"]
    pte = _pte(ends, TOKENS)
    assert "QuantizedLinear" in _instructions(pte)
    (got,) = _run(pte, TOKENS)
    torch.testing.assert_close(got, ends(TOKENS), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("scheme, group", [("int2", 32), ("int8", 16)])
def test_quantize_weights_refuses_what_mlx_cannot_run(scheme, group):
    with pytest.raises(ValueError):
        quantize_weights(nn.Linear(64, 8), scheme, group)


def test_a_dequantized_weight_read_twice_is_dequantized_whole_once():
    from mlx_delegate.test.op_cases_quant import DequantizedTwice

    model, x = DequantizedTwice(torch.float32).eval(), torch.randn(3, 256)
    pte = _pte(model, x)
    assert _instructions(pte).count("Dequantize") == 1
    (got,) = _run(pte, x)
    torch.testing.assert_close(got, model(x), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "name, scheme, dtype",
    [("llama", "int4", torch.float32), ("qwen2", "int8", torch.bfloat16)],  # qwen2: tied embeddings
)
def test_a_quantized_language_model_runs_every_projection_packed(name, scheme, dtype):
    from mlx_delegate.test.models import all_models

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
