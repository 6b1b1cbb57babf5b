"""Mixture-of-experts LLMs from transformers (the zoo's qwen3_moe, mixtral and
deepseek_v3, `batched_mm` experts): routing and experts in one delegate, the
expert weights multiplied in place by GatherMM (GatherQMM when torchao-int4),
never gathered per token, and the logits those of eager."""

from __future__ import annotations

import operator

import pytest
import torch
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.tools.inspector import main_instructions
from mlx_delegate.compiler.partitioner import MLXPartitioner
from mlx_delegate.compiler.quantize_experts import quantize_experts
from testbench.models import all_models

pytestmark = pytest.mark.slow  # among the suites that take most of make test

FAMILIES = ["qwen3_moe", "mixtral", "deepseek_v3"]


def lower(model, inputs) -> bytes:
    exported = torch.export.export(model, inputs)
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device="cpu")])
    outer = edge.exported_program().graph_module.graph
    calls = [n for n in outer.nodes if n.op == "call_function" and n.target is not operator.getitem]
    assert [str(n.target) for n in calls] == ["executorch_call_delegate"], "work left the delegate"
    return edge.to_executorch().buffer


def expert_weight_readers(program, product: str, weight_field: str) -> tuple[set, list]:
    """The constant slots of the expert weights the `product` instructions
    multiply (read directly or through a Transpose, a view), and every other
    instruction that reads one of them. Temp slots are reused along the chain,
    so each operand is traced to the instruction that last wrote it."""
    last_writer, weights = {}, set()
    for instruction in program:
        if instruction.op == product:
            slot = instruction.reads[weight_field]
            source = last_writer.get(slot)
            weights.add(source.reads["x"] if source and source.op == "Transpose" else slot)
        for slot in instruction.writes.values():
            last_writer[slot] = instruction
    written = {slot for i in program for slot in i.writes.values()}
    assert not weights & written, "the expert weights are not constants"
    others = [
        i.op
        for i in program
        if i.op not in (product, "Transpose") and weights & set(i.reads.values())
    ]
    return weights, others


def run(pte: bytes, inputs) -> torch.Tensor:
    (got,) = Runtime.get().load_program(pte).load_method("forward").execute(list(inputs))
    return got


@pytest.mark.parametrize("name", FAMILIES)
def test_experts_multiply_in_place_and_match_eager(name):
    model, inputs = all_models()[name].build()
    pte = lower(model, inputs)
    program = main_instructions(pte)
    ops = [i.op for i in program]
    assert ops.count("GatherMM") == 2, ops  # gate-up and down of the one MoE layer
    weights, others = expert_weight_readers(program, "GatherMM", "b")
    assert len(weights) == 2 and not others, (weights, others)
    with torch.no_grad():
        want = model(*inputs)
    torch.testing.assert_close(run(pte, inputs), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", FAMILIES)
def test_int4_experts_match_the_torchao_module_run_eagerly(name):
    model, inputs = all_models()[name].build()
    quantize_experts(model, "int4", 32)
    pte = lower(model, inputs)
    program = main_instructions(pte)
    ops = [i.op for i in program]
    assert ops.count("GatherQMM") == 2 and "GatherMM" not in ops and "Dequantize" not in ops, ops
    weights, others = expert_weight_readers(program, "GatherQMM", "w")
    assert len(weights) == 2 and not others, (weights, others)
    with torch.no_grad():
        want = model(*inputs)
    torch.testing.assert_close(run(pte, inputs), want, rtol=1e-4, atol=1e-4)
