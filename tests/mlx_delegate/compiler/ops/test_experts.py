"""Expert layers: a gather of expert weight matrices by expert ids followed by
a batched matmul (transformers' `batched_mm` experts) lowers to GatherMM, or
GatherQMM over torchao int4/int8 expert weights, with no copy of the weights,
and computes what PyTorch eager does."""

from __future__ import annotations

import pytest
import torch
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime
from torch import nn
from torch.export import Dim

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.tools.inspector import main_instructions
from mlx_delegate.compiler.partitioner import MLXPartitioner
from mlx_delegate.compiler.quantize_experts import quantize_experts

EXPERTS, TOKENS = 6, 10
GATHERS = {"Take", "Index", "TakeAlongAxis"}


class ExpertMatmul(nn.Module):
    """One projection of `batched_mm` experts: weights (E, out, in) multiplied
    as bmm(W[ids], x[..., None]), or (E, in, out) as bmm(x[:, None], W[ids])."""

    def __init__(self, inputs: int, outputs: int, transposed: bool, columns: int = 1):
        super().__init__()
        shape = (EXPERTS, inputs, outputs) if transposed else (EXPERTS, outputs, inputs)
        self.gate_up_proj = nn.Parameter(torch.randn(shape) / inputs**0.5)
        self.transposed, self.columns = transposed, columns

    def forward(self, x, ids):
        if self.transposed:
            return torch.bmm(x.reshape(x.shape[0], self.columns, -1), self.gate_up_proj[ids])
        return torch.bmm(self.gate_up_proj[ids], x.reshape(x.shape[0], -1, self.columns))


def lower(model, inputs, dynamic_shapes=None):
    exported = torch.export.export(model, inputs, dynamic_shapes=dynamic_shapes)
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device="cpu")])
    pte = edge.to_executorch().buffer
    return pte, [i.op for i in main_instructions(pte)]


def run(pte, inputs):
    (got,) = Runtime.get().load_program(pte).load_method("forward").execute(list(inputs))
    return got


def routed(inputs: int, columns: int = 1, dtype=torch.float32, tokens: int = TOKENS):
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(tokens, inputs * columns, generator=generator).to(dtype)
    # Every expert chosen, some twice in a row, as a top-k routing would.
    ids = torch.randint(0, EXPERTS, (tokens,), generator=generator)
    return x, ids


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("columns", [1, 3])
def test_gathered_expert_weights_become_gather_mm(transposed, columns):
    torch.manual_seed(0)
    model = ExpertMatmul(24, 40, transposed, columns).eval()
    inputs = routed(24, columns)
    pte, ops = lower(model, inputs)
    assert ops.count("GatherMM") == 1 and not GATHERS & set(ops), ops
    assert "Matmul" not in ops, ops
    torch.testing.assert_close(run(pte, inputs), model(*inputs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_gather_mm_in_half_precision(dtype):
    torch.manual_seed(0)
    model = ExpertMatmul(64, 32, transposed=False).eval().to(dtype)
    inputs = routed(64, dtype=dtype)
    pte, ops = lower(model, inputs)
    assert "GatherMM" in ops, ops
    got = run(pte, inputs)
    assert got.dtype == dtype
    torch.testing.assert_close(got, model(*inputs), rtol=2e-2, atol=2e-2)


def test_gather_mm_with_a_dynamic_token_count():
    torch.manual_seed(0)
    model = ExpertMatmul(16, 8, transposed=False).eval()
    tokens = Dim("tokens", min=2, max=64)
    pte, ops = lower(model, routed(16), dynamic_shapes=({0: tokens}, {0: tokens}))
    assert "GatherMM" in ops, ops
    for count in (3, 37):
        inputs = routed(16, tokens=count)
        torch.testing.assert_close(run(pte, inputs), model(*inputs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("tokens", [1023, 1024, 1500])
def test_gather_mm_from_1024_rows_sorts_them_by_expert_and_puts_them_back(tokens):
    """exec_gather_mm sorts the rows by expert from 1024 of them (the runtime
    decides, kSortFromRows): the results come back in the tokens' order."""
    torch.manual_seed(0)
    model = ExpertMatmul(16, 8, transposed=False).eval()
    inputs = routed(16, tokens=tokens)
    pte, ops = lower(model, inputs)
    assert "GatherMM" in ops, ops
    torch.testing.assert_close(run(pte, inputs), model(*inputs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("scheme", ["int4", "int8"])
@pytest.mark.parametrize("transposed", [False, True])
def test_quantized_expert_weights_become_gather_qmm(scheme, transposed):
    torch.manual_seed(0)
    model = quantize_experts(ExpertMatmul(64, 96, transposed).eval(), scheme, 32)
    inputs = routed(64)
    pte, ops = lower(model, inputs)
    assert ops.count("GatherQMM") == 1, ops
    assert not GATHERS & set(ops) and "Dequantize" not in ops, ops
    # Against the quantized module run eagerly (torchao's dequantized weights).
    torch.testing.assert_close(run(pte, inputs), model(*inputs), rtol=1e-5, atol=1e-5)


def test_gather_qmm_keeps_bfloat16_and_widens_only_on_the_cpu():
    torch.manual_seed(0)
    model = quantize_experts(ExpertMatmul(64, 32, False).eval().to(torch.bfloat16), "int4", 64)
    inputs = routed(64, dtype=torch.bfloat16)
    pte, ops = lower(model, inputs)
    assert "GatherQMM" in ops, ops
    got = run(pte, inputs)
    assert got.dtype == torch.bfloat16
    # bfloat16 scales and biases in the program (mlx-lm's format); the CPU plugin
    # multiplies in float32, as torchao's eager bfloat16 matmul accumulates
    torch.testing.assert_close(got, model(*inputs), rtol=2e-2, atol=2e-2)


class TwoUsers(nn.Module):
    """The gathered weights read twice: the gather must stay (a match would
    drop the second reader's operand)."""

    def __init__(self):
        super().__init__()
        self.gate_up_proj = nn.Parameter(torch.randn(EXPERTS, 8, 16))

    def forward(self, x, ids):
        chosen = self.gate_up_proj[ids]
        return torch.bmm(chosen, x[..., None]).squeeze(-1) + chosen.sum(-1)


def test_a_gather_with_another_reader_is_not_fused():
    torch.manual_seed(0)
    model = TwoUsers().eval()
    inputs = routed(16)
    pte, ops = lower(model, inputs)
    assert "GatherMM" not in ops and "Take" in ops, ops
    torch.testing.assert_close(run(pte, inputs), model(*inputs), rtol=1e-5, atol=1e-5)


class TokenRows(nn.Module):
    """The gate projection of a layer of experts as mlx_delegate.llm's
    `Experts.forward` writes it: each token's row repeated for each of its
    top_k experts, then bmm(W[ids], rows[..., None])."""

    def __init__(self, inputs: int, outputs: int):
        super().__init__()
        self.gate_up_proj = nn.Parameter(torch.randn(EXPERTS, outputs, inputs) / inputs**0.5)

    def forward(self, x, choice):
        tokens, top_k = choice.shape
        rows = x[:, None].expand(tokens, top_k, x.shape[-1]).reshape(-1, x.shape[-1])
        return torch.bmm(self.gate_up_proj[choice.reshape(-1)], rows[..., None])[..., 0]


def chosen(inputs: int, tokens: int, top_k: int = 2, dtype=torch.float32):
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(tokens, inputs, generator=generator).to(dtype)
    return x, torch.randint(0, EXPERTS, (tokens, top_k), generator=generator)


@pytest.mark.parametrize("scheme", [None, "int4"])
@pytest.mark.parametrize("tokens", [3, 512])
def test_token_rows_are_read_in_place_by_the_gathered_product(scheme, tokens):
    """No row is copied per (token, expert) pair: the product reads the (T, 1,
    1, D) rows broadcast over the (T, k) choice. 512 tokens of top-2 are 1024
    rows, from which exec_gather_mm sorts the pairs by expert: the results come
    back in the pairs' order."""
    torch.manual_seed(0)
    model = TokenRows(32, 16).eval()
    if scheme:
        model = quantize_experts(model, scheme, 32)
    inputs = chosen(32, tokens)
    pte, ops = lower(model, inputs)
    product = "GatherQMM" if scheme else "GatherMM"
    assert ops.count(product) == 1 and "BroadcastTo" not in ops, ops
    assert "ExpandDims" in ops[: ops.index(product)], ops
    torch.testing.assert_close(run(pte, inputs), model(*inputs), rtol=1e-5, atol=1e-5)


def test_token_rows_with_a_dynamic_token_count():
    torch.manual_seed(0)
    model = TokenRows(16, 8).eval()
    tokens = Dim("tokens", min=2, max=1024)
    pte, ops = lower(model, chosen(16, 4), dynamic_shapes=({0: tokens}, {0: tokens}))
    assert "BroadcastTo" not in ops, ops
    for count in (3, 600):
        inputs = chosen(16, count)
        torch.testing.assert_close(run(pte, inputs), model(*inputs), rtol=1e-5, atol=1e-5)
