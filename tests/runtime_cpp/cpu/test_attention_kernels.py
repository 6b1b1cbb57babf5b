"""Our fused CPU attention (runtime_cpp/src/cpu/attention.cpp), each instruction
set's build, against MLX's ops on float32 operands: one query block and several
(32 queries a block), keys short of and past a panel of 32, grouped heads, head
sizes that are no multiple of the products' step (zeros pad them), strided
operands, every mask (causal, boolean, additive, one additive row for every
query, queries that see no key) and dtype; bfloat16 also through AMX tiles where
the processor has them. Up to 4 queries (a decode step's one) take the direct
path, which reads the keys and values where they lie: contiguous rows, strided
ones, and every dtype and mask there too."""

from __future__ import annotations

import pytest
from cpu_report import run_kernel_check, runs_here
from test_half_matmul_kernels import V4_WITHOUT_AMX, avx512_forced, has_amx

ISAS = ["portable", "avx2", "avx512"]
# B Hq Hk L S D dtype mask layout
CASES = [
    "1 4 4 7 9 64 float32 none contiguous",
    "2 8 2 33 45 64 float32 causal transposed",
    "1 2 1 40 70 80 float32 bool contiguous",
    "1 3 3 5 300 24 float16 additive contiguous",
    "1 2 2 6 50 64 float32 dead contiguous",
    "1 2 2 37 37 48 float32 additive_row transposed",
    "1 2 2 40 10 64 float32 causal contiguous",  # queries 0-29 see no key
    "1 4 2 64 64 128 bfloat16 causal contiguous",
    "1 2 2 100 1500 64 bfloat16 none contiguous",  # a Whisper window's keys, both threads
    "1 2 1 19 77 40 bfloat16 bool transposed",
    "1 2 2 70 90 64 bfloat16 dead contiguous",
    # the direct path
    "1 12 12 1 1500 64 bfloat16 none contiguous",  # Whisper's cross-attention, a token
    "2 8 2 1 45 72 float32 causal transposed",
    "1 4 4 4 30 64 float16 dead contiguous",
    "1 2 1 3 77 40 bfloat16 bool transposed",
    "1 3 3 2 9 24 float32 additive contiguous",
    "1 2 2 4 2 64 float32 causal contiguous",  # queries 0 and 1 see no key
]


def expected_path(isa: str, case: str, amx: bool) -> str:
    fields = case.split()
    if int(fields[3]) <= 4:
        return "direct"
    return "amx" if isa == "avx512" and amx and fields[6] == "bfloat16" else "vector"


def assert_equals_mlx(result: dict) -> None:
    assert result["taken"] and result["same_shape"], result
    # bfloat16: the output's rounding and, through AMX, the probabilities' (to
    # bfloat16 for the second product).
    rtol = {"float32": 1e-5, "bfloat16": 2.0**-7, "float16": 2.0**-9}[result["case"].split()[6]]
    assert result["max_diff"] <= rtol * result["max_ref"] + 1e-5, result
    assert result["max_ref"] > 0.1, result


@pytest.mark.parametrize("isa", ISAS)
def test_attention_equals_mlx(runtime_build, isa):
    results = run_kernel_check(runtime_build, isa, "attn-check", CASES)
    if not runs_here(isa):
        assert len(results) == 1 and "this processor lacks" in results[0]["skipped"], results
        return
    assert len(results) == len(CASES)
    for result in results:
        assert_equals_mlx(result)
        assert result["path"] == expected_path(isa, result["case"], has_amx()), result


def test_attention_blocks_take_a_few_queries_when_forced(runtime_build):
    """The direct path's cases through the vector path's blocks (mostly padding)."""
    lines = [c + " vector" for c in CASES if int(c.split()[3]) <= 4]
    results = run_kernel_check(runtime_build, "portable", "attn-check", lines)
    assert len(results) == len(lines)
    for result in results:
        assert_equals_mlx(result)
        assert result["path"] == "vector", result


def test_attention_vector_path_for_bfloat16_without_amx(runtime_build):
    """A forced report without AMX: the bfloat16 blocks through float32 vectors."""
    bf16 = [c for c in CASES if " bfloat16 " in c and int(c.split()[3]) > 4]
    results = avx512_forced(runtime_build, bf16, V4_WITHOUT_AMX, mode="attn-check")
    if results is None:
        return
    for result in results:
        assert_equals_mlx(result)
        assert result["path"] == "vector", result


def test_attention_amx_forced_only_where_it_runs(runtime_build):
    """The AMX path forced: taken for bfloat16 where the processor has AMX (a
    few queries too), declined for float32 and where it does not."""
    lines = [c + " amx" for c in CASES if " bfloat16 " in c] + [CASES[0] + " amx"]
    results = run_kernel_check(runtime_build, "avx512", "attn-check", lines)
    if not runs_here("avx512"):
        return
    for result in results[:-1]:
        assert result["taken"] == has_amx(), result
        if result["taken"]:
            assert_equals_mlx(result)
    assert results[-1]["taken"] is False, results[-1]
