"""Our float32 GEMM (runtime_cpp/src/cpu/float_gemm.cpp), the AVX-512 build's
cblas_sgemm for products of 8 rows or more, against the same sums in double
precision: C = alpha A op(B) + beta C with B stored [N, K] (a linear layer's
weight) or [K, N], rows longer than the operands need, beta 0 (C not read: the
tool fills it with NaN) and not. The other builds have no such GEMM and say so."""

from __future__ import annotations

import pytest
from cpu_report import run_kernel_check, runs_here

ISAS = ["portable", "avx2", "avx512"]
# M N K b_layout alpha beta [padded]: one row (a tile of one), a whole tile (12 x 32
# by one panel of 256 values of K), one past each, a remainder of rows (37 = 3 x 12 +
# 1), K past several panels, N past several tasks (threads share the work), columns
# short of a vector, and a product over no values of K (C scaled by beta).
CASES = [
    "1 1 1 nk 1 0",
    "12 32 256 nk 1 0",
    "13 33 257 nk 1 0",
    "37 70 600 kn 0.5 2 padded",
    "100 301 513 nk 1.5 0.25 padded",
    "8 5 3 kn 1 1",
    "25 17 40 nk 1 0",
    "130 600 300 kn 1 0",
    "64 1000 777 nk 1 0.5",
    "5 9 0 nk 1 0.5",
    "5 9 0 kn 2 0",
]


def assert_equals_sums(result: dict) -> None:
    assert result["taken"], result
    K = int(result["case"].split()[2])
    # float32 sums of K products of values in [-1, 1): rounding grows with K
    assert result["max_diff"] <= 2e-7 * max(K, 1) * max(result["max_ref"], 1.0), result


@pytest.mark.parametrize("isa", ISAS)
def test_float_gemm_equals_double_sums(runtime_build, isa):
    results = run_kernel_check(runtime_build, isa, "float-check", CASES)
    if not runs_here(isa):
        assert len(results) == 1 and "this processor lacks" in results[0]["skipped"], results
        return
    assert len(results) == len(CASES)
    for result in results:
        if isa != "avx512":
            assert not result["taken"], result
            continue
        assert_equals_sums(result)
        if int(result["case"].split()[2]) > 0:  # sums were made, not zeros
            assert result["max_ref"] > 0.05, result


def test_float_gemm_on_one_thread_and_three(runtime_build):
    """The same products with the work on the calling thread alone, and split
    three ways (tasks of columns and of rows)."""
    for threads in (1, 3):
        results = run_kernel_check(runtime_build, "avx512", "float-check", CASES, threads=threads)
        if not runs_here("avx512"):
            assert "this processor lacks" in results[0]["skipped"], results
            return
        for result in results:
            assert_equals_sums(result)
