"""Our products with a half-precision weight (runtime_cpp/src/cpu/half_matmul.cpp),
each instruction set's build, against MLX's matmul on float32 operands:
bfloat16 and float16 weights, float32 and half activations, odd K (a tail the
vectors do not cover), one row and up to the kernel's limit of 128, strided and
batched activations; more rows and float32 weights are left to MLX."""

from __future__ import annotations


import pytest
from cpu_report import run_kernel_check, runs_here

ISAS = ["portable", "avx2", "avx512"]
CASES = [
    "1 64 96 bfloat16 bfloat16 contiguous",
    "1 301 777 bfloat16 bfloat16 contiguous",  # several threads, a K tail
    "3 40 777 bfloat16 bfloat16 strided",
    "6 33 100 float16 float16 batched",
    "5 47 129 float16 float16 contiguous",
    "1 300 512 bfloat16 float32 contiguous",
    "16 20 33 bfloat16 bfloat16 contiguous",
    "128 37 70 bfloat16 bfloat16 contiguous",  # the most rows: eight passes of 16
    "21 19 64 float16 float32 contiguous",
]
DECLINED = ["129 10 64 bfloat16 bfloat16 contiguous", "1 10 64 float32 float32 contiguous"]


@pytest.mark.parametrize("isa", ISAS)
def test_half_products_equal_mlx_matmul(runtime_build, isa):
    results = run_kernel_check(runtime_build, isa, "half-check", CASES + DECLINED)
    if not runs_here(isa):
        assert len(results) == 1 and "this processor lacks" in results[0]["skipped"], results
        return
    assert len(results) == len(CASES) + len(DECLINED)
    for result in results[: len(CASES)]:
        assert result["taken"] and result["same_shape"], result
        x_dtype = result["case"].split()[4]
        rtol = {"float32": 1e-5, "bfloat16": 2.0**-8, "float16": 2.0**-10}[x_dtype]
        assert result["max_diff"] <= rtol * result["max_ref"] + 1e-6, result
        assert result["max_ref"] > 0.1, result
    assert [r["taken"] for r in results[len(CASES) :]] == [False] * len(DECLINED)
