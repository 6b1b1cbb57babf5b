"""The fused hot path of decoder LLMs: the zoo's LLMs lower RoPE to Rope nodes
and read grouped keys and values unrepeated; transformers' static-cache export
writes its cache with slice updates, in place, and decodes like eager."""

import copy
import operator

import pytest
import torch
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.host import backends
from mlx_delegate.tools.inspector import main_instructions
from mlx_delegate.compiler.partitioner import MLXPartitioner
from testbench.models import all_models

pytestmark = pytest.mark.slow  # among the suites that take most of make test


def instructions(pte: bytes) -> list[tuple[str, dict, dict]]:
    """(op, operand slots, result slots) of the main chain of the one delegate."""
    return [(i.op, i.reads, i.writes) for i in main_instructions(pte)]


def lower(program) -> tuple:
    edge = to_edge_transform_and_lower(program, partitioner=[MLXPartitioner(device="cpu")])
    outer = edge.exported_program().graph_module.graph
    calls = [n for n in outer.nodes if n.op == "call_function" and n.target is not operator.getitem]
    assert [str(n.target) for n in calls] == ["executorch_call_delegate"], "work left the delegate"
    return edge.to_executorch().buffer


def attention_operand_producers(program) -> list[str]:
    """The op that last wrote each k and v of every attention."""
    writer, found = {}, []
    for op, reads, writes in program:
        if op == "ScaledDotProductAttention":
            found += [writer.get(reads[name], "input") for name in ("k", "v")]
        for slot in writes.values():
            writer[slot] = op
    return found


# gemma2 runs eager attention (soft-capping): its repeated heads feed matmuls.
LLMS = ["llama", "qwen2", "qwen3", "mistral", "phi3", "gemma2", "gpt_neox"]


@pytest.mark.parametrize("name", LLMS)
def test_zoo_llm_lowers_rope_and_unrepeated_attention(name):
    model, inputs = all_models()[name].build()
    program = instructions(lower(torch.export.export(model, inputs)))
    ops = [op for op, _, _ in program]
    layers = 2 if name == "gemma2" else 1
    assert ops.count("Rope") == 2 * layers, ops  # q and k of every layer
    assert not {"Cos", "Sin"} & set(ops), ops
    assert "RmsNorm" in ops or "LayerNorm" in ops
    producers = attention_operand_producers(program)
    assert "BroadcastTo" not in producers and "Reshape" not in producers, producers


CACHE = 64


def static_cache_program():
    """The zoo's llama through transformers' static-cache export wrapper."""
    from transformers.integrations.executorch import TorchExportableModuleForDecoderOnlyLM

    wrapped, _ = all_models()["llama"].build()
    model = wrapped.model
    model.generation_config.use_cache = True
    model.generation_config.cache_implementation = "static"
    module = TorchExportableModuleForDecoderOnlyLM(model, batch_size=1, max_cache_len=CACHE)
    exported = module.export(input_ids=torch.tensor([[1]]), cache_position=torch.tensor([0]))
    return module, exported


def test_static_cache_decodes_like_eager_with_in_place_slice_updates():
    module, exported = static_cache_program()
    eager = copy.deepcopy(module.model)  # the wrapper holding the cache
    pte = lower(exported)
    program = instructions(pte)
    ops = [op for op, _, _ in program]
    assert ops.count("Rope") == 2 and "IndexPut" not in ops, ops
    updates = [(reads, writes) for op, reads, writes in program if op == "SliceUpdate"]
    assert len(updates) == 2 and all(r["target"] == w["out"] for r, w in updates), updates
    assert "BroadcastTo" not in attention_operand_producers(program)

    method = Runtime.get().load_program(pte).load_method("forward")
    tokens = [5, 17, 200, 3, 99]
    for position, token in enumerate(tokens):
        inputs = (torch.tensor([[token]]), torch.tensor([position]))
        (got,) = method.execute(list(inputs))
        with torch.no_grad():
            want = eager(input_ids=inputs[0], cache_position=inputs[1])
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4)


ROWS, WIDTH, HEADS = 4096, 1024, 4  # a 64 MiB float32 cache


class WrittenCache(torch.nn.Module):
    """A cache written at consecutive rows from a runtime position, then read
    whole (as attention reads it)."""

    def __init__(self, keep_old: bool = False):
        super().__init__()
        self.keep_old = keep_old
        self.register_buffer("cache", torch.zeros(1, HEADS, ROWS, WIDTH))

    def forward(self, x, position):
        old = self.cache * 1.0 if self.keep_old else None
        rows = torch.arange(x.shape[2]) + position
        self.cache.index_copy_(2, rows, x)
        summed = self.cache.sum(dim=2)
        return summed + old.sum(dim=2) if self.keep_old else summed


def peak_growth_per_step(model) -> list[int]:
    x = torch.randn(1, HEADS, 1, WIDTH)
    pte = lower(torch.export.export(model, (x, torch.tensor(0))))
    method = Runtime.get().load_program(pte).load_method("forward")
    (device,) = [d for b in backends.list() for d in b.devices if d.startswith("cpu")][:1]
    growth = []
    for step in range(3):
        backends.memory("reset_peak_memory", device)
        before = backends.memory("get_active_memory", device)
        method.execute([torch.randn(1, HEADS, 1, WIDTH), torch.tensor(step)])
        growth.append(backends.memory("get_peak_memory", device) - before)
    return pte, growth


def test_a_decode_step_writes_the_cache_in_place():
    cache_bytes = HEADS * ROWS * WIDTH * 4
    pte, growth = peak_growth_per_step(WrittenCache())
    assert "SliceUpdate" in [op for op, _, _ in instructions(pte)]
    assert max(growth) < cache_bytes // 8, growth
    # The measure sees a copy: one kept old value costs a whole cache or more.
    _, copied = peak_growth_per_step(WrittenCache(keep_old=True))
    assert min(copied) >= cache_bytes, copied
