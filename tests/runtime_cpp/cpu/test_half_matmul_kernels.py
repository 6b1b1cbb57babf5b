"""Our products with a half-precision weight (runtime_cpp/src/cpu/half_matmul.cpp),
each instruction set's build, against MLX's matmul on float32 operands:
bfloat16 and float16 weights, float32 and half activations, odd K (a tail the
vectors do not cover), one row and up to the kernel's limit of 128, strided and
batched activations; more rows and float32 weights are left to MLX. bfloat16 by
bfloat16 in the AVX-512 build also through vdpbf16ps (the bf16 dot), where the
processor has AVX-512 BF16, and without it when a test turns it off."""

from __future__ import annotations

import pytest
from cpu_report import cpu_flags, run_kernel_check, runs_here

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

# bfloat16 by bfloat16, the bf16 dot's operands: K below, at and past the 32
# values of one vdpbf16ps, odd (the masked tail, pairs cut in half); one row
# (tiles of four weight rows) and more (tiles of 4 x 2, then 3, 2 or 1 rows); N
# no multiple of the tile; several threads. float32 outputs hold the float32
# sums to float32 rounding, where a bfloat16 output's rounding would hide a
# wrong pair or a lost tail value.
BF16_DOT_CASES = [
    "1 61 3 bfloat16 bfloat16 contiguous float32",
    "1 13 31 bfloat16 bfloat16 contiguous float32",
    "1 30 32 bfloat16 bfloat16 contiguous float32",
    "1 301 777 bfloat16 bfloat16 contiguous float32",
    "1 9 65 bfloat16 bfloat16 strided float32",
    "2 9 33 bfloat16 bfloat16 contiguous float32",
    "7 45 65 bfloat16 bfloat16 strided float32",
    "16 51 95 bfloat16 bfloat16 batched float32",
    "128 37 777 bfloat16 bfloat16 contiguous float32",
    "5 47 129 bfloat16 bfloat16 contiguous",
    "128 19 70 bfloat16 bfloat16 contiguous float16",
]
# cpu_features.h's names of what the AVX-512 build needs (x86-64-v4), without
# avx512bf16: MLX_DELEGATE_CPU_FEATURES plays that processor.
V4_WITHOUT_BF16 = (
    "avx,avx2,fma,f16c,bmi1,bmi2,lzcnt,movbe,os_ymm,"
    "avx512f,avx512bw,avx512cd,avx512dq,avx512vl,os_zmm"
)


def has_bf16_dot() -> bool:
    """Linux's report: AVX-512 (the build runs) and its BF16 extension."""
    return runs_here("avx512") and "avx512_bf16" in cpu_flags()


def assert_equals_mlx(result: dict) -> None:
    assert result["taken"] and result["same_shape"], result
    fields = result["case"].split()
    out_dtype = fields[6] if len(fields) > 6 else fields[4]
    rtol = {"float32": 1e-5, "bfloat16": 2.0**-8, "float16": 2.0**-10}[out_dtype]
    assert result["max_diff"] <= rtol * result["max_ref"] + 1e-6, result
    assert result["max_ref"] > 0.1, result


@pytest.mark.parametrize("isa", ISAS)
def test_half_products_equal_mlx_matmul(runtime_build, isa):
    results = run_kernel_check(runtime_build, isa, "half-check", CASES + DECLINED)
    if not runs_here(isa):
        assert len(results) == 1 and "this processor lacks" in results[0]["skipped"], results
        return
    assert len(results) == len(CASES) + len(DECLINED)
    for result in results[: len(CASES)]:
        assert_equals_mlx(result)
        both_bf16 = result["case"].split()[3:5] == ["bfloat16", "bfloat16"]
        dot = isa == "avx512" and both_bf16 and has_bf16_dot()
        assert result["path"] == ("bf16_dot" if dot else "widened"), result
    assert [r["taken"] for r in results[len(CASES) :]] == [False] * len(DECLINED)


def test_bf16_dot_taken_where_the_processor_has_it(runtime_build):
    if not has_bf16_dot():
        pytest.skip("this processor lacks avx512_bf16 (/proc/cpuinfo): no bf16 dot to check")
    results = run_kernel_check(runtime_build, "avx512", "half-check", BF16_DOT_CASES)
    assert len(results) == len(BF16_DOT_CASES)
    for result in results:
        assert_equals_mlx(result)
        assert result["path"] == "bf16_dot", result


def test_bf16_products_without_the_bf16_dot(runtime_build):
    """A forced report without avx512bf16 turns the path off: the same products,
    widened."""
    results = run_kernel_check(
        runtime_build, "avx512", "half-check", BF16_DOT_CASES, features=V4_WITHOUT_BF16
    )
    if not runs_here("avx512"):
        assert len(results) == 1 and "this processor lacks" in results[0]["skipped"], results
        return
    assert len(results) == len(BF16_DOT_CASES)
    for result in results:
        assert_equals_mlx(result)
        assert result["path"] == "widened", result
