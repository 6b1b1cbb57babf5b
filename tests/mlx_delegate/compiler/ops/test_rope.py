"""The rope pattern (mlx_delegate/compiler/ops/rope.py): the op cases' rotary
embeddings each become Rope nodes and nothing of the unfused form is left;
positions that cannot be proven contiguous are not fused, and still match
eager. Also grouped-query attention: repeated keys and values reach MLX's
attention unrepeated."""

import pytest
import torch
import torch.nn.functional as F
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.tools.inspector import main_instructions
from mlx_delegate.compiler.partitioner import MLXPartitioner
from testbench import op_cases_rope
from testbench.cases import all_cases


def instructions(pte: bytes) -> list[tuple[str, dict, dict]]:
    """(op, operand slots, result slots) of the main chain of the one delegate."""
    return [(i.op, i.reads, i.writes) for i in main_instructions(pte)]


def compile_and_run(model, inputs, dynamic_shapes=None):
    exported = torch.export.export(model, inputs, dynamic_shapes=dynamic_shapes)
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device="cpu")])
    pte = edge.to_executorch().buffer
    method = Runtime.get().load_program(pte).load_method("forward")
    return pte, method.execute(list(inputs))


ROPE = all_cases()["rope"]


@pytest.mark.parametrize("config", ROPE.configs(), ids=lambda c: c.label)
def test_each_hand_written_rope_is_one_node(config):
    model, inputs = ROPE.model(config).eval(), ROPE.inputs(config)
    pte, (got,) = compile_and_run(model, inputs, config.dynamic_shapes)
    ops = [op for op, _, _ in instructions(pte)]
    assert ops.count("Rope") == 1, ops
    assert not {"Cos", "Sin", "Neg", "Stack"} & set(ops), ops
    torch.testing.assert_close(got, model(*inputs), **_tolerance(got.dtype))


def _tolerance(dtype):
    rtol, atol = ROPE.tolerance(dtype)
    return dict(rtol=rtol, atol=atol)


class PositionIds(op_cases_rope.Rope):
    """Positions passed in: they may be anything (left padding, packing)."""

    def positions(self, length, extra):
        return extra


def test_positions_not_proven_contiguous_are_not_fused():
    model = PositionIds(head_dim=16).eval()
    inputs = (torch.randn(1, 4, 6, 16), torch.tensor([0, 1, 2, 7, 8, 9]))
    pte, (got,) = compile_and_run(model, inputs)
    ops = [op for op, _, _ in instructions(pte)]
    assert "Rope" not in ops and "Cos" in ops, ops
    torch.testing.assert_close(got, model(*inputs))


class GroupedQuery(torch.nn.Module):
    """transformers' repeat_kv before attention, or enable_gqa."""

    def __init__(self, gqa_flag: bool):
        super().__init__()
        self.gqa_flag = gqa_flag

    def forward(self, q, k, v):
        if self.gqa_flag:
            return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        groups = q.shape[1] // k.shape[1]
        b, heads, s, d = k.shape

        def repeat(t):
            return t[:, :, None].expand(b, heads, groups, s, d).reshape(b, heads * groups, s, d)

        return F.scaled_dot_product_attention(q, repeat(k), repeat(v), is_causal=True)


@pytest.mark.parametrize("gqa_flag", [False, True], ids=["repeat_kv", "enable_gqa"])
def test_grouped_query_attention_reads_unrepeated_heads(gqa_flag):
    model = GroupedQuery(gqa_flag)
    q, k, v = torch.randn(1, 6, 5, 8), torch.randn(1, 2, 5, 8), torch.randn(1, 2, 5, 8)
    pte, (got,) = compile_and_run(model, (q, k, v))
    program = instructions(pte)
    assert not {"BroadcastTo", "Tile", "Reshape"} & {op for op, _, _ in program}, program
    (attention,) = [reads for op, reads, _ in program if op == "ScaledDotProductAttention"]
    assert attention["k"] != attention["v"]
    torch.testing.assert_close(got, model(q, k, v))
