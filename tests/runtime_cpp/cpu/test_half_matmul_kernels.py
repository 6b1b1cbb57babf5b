"""Our products with a half-precision weight (runtime_cpp/src/cpu/half_matmul.cpp),
each instruction set's build, against MLX's matmul on float32 operands:
bfloat16 and float16 weights, float32 and half activations, odd K (a tail the
vectors do not cover), one row and up to the vector paths' limit of 128, strided
and batched activations; more rows and float32 weights are left to MLX. bfloat16 by
bfloat16 in the AVX-512 build also through vdpbf16ps where the processor has
AVX-512 BF16 (the bf16 dot; from 8 rows, any number of them, the bf16 GEMM's
register tiles), and through AMX tiles from 16 rows (any number of them) where
it has AMX; without them when a test turns them off."""

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
    "128 37 70 bfloat16 bfloat16 contiguous",  # the vector paths' most rows: 8 passes of 16
    "21 19 64 float16 float32 contiguous",
    "3 40 777 bfloat16 bfloat16 strided bfloat16 bias",
    "5 47 129 float16 float32 contiguous float32 bias",
]
DECLINED = ["129 10 64 float16 float16 contiguous", "1 10 64 float32 float32 contiguous"]
BEYOND_VECTORS = "129 10 64 bfloat16 bfloat16 contiguous"  # AMX's or the bf16 GEMM's alone

# bfloat16 by bfloat16, the bf16 dot's operands (and, from 8 rows, the bf16
# GEMM's): K below, at and past the 32 values of one vdpbf16ps, odd (the masked
# tail, pairs cut in half); one row (tiles of four weight rows) and more (tiles
# of 4 x 2, then 3, 2 or 1 rows); N no multiple of the tile; several threads. float32 outputs hold the float32
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
    "2 9 33 bfloat16 bfloat16 contiguous float32 bias",
]
# The AMX path's operands, and the bf16 GEMM's from 8 rows: one tile of rows
# and more (16, 17, 31, 33, past the vector paths' 128, an audio window's 1500;
# the GEMM's tiles of 12 rows and their remainders); N within a tile, past one
# and past a task's 32; K below, at and past a tile row's 32, odd (a pair cut in
# half); strided and batched rows; every output dtype.
AMX_CASES = [
    "16 20 33 bfloat16 bfloat16 contiguous float32",
    "17 1 64 bfloat16 bfloat16 contiguous float32",
    "31 15 31 bfloat16 bfloat16 strided float32",
    "33 33 32 bfloat16 bfloat16 contiguous float32",
    "64 45 65 bfloat16 bfloat16 batched float32",
    "129 70 777 bfloat16 bfloat16 contiguous float32",
    "300 301 96 bfloat16 bfloat16 batched",
    "1500 64 384 bfloat16 bfloat16 contiguous float16",
    "33 45 65 bfloat16 bfloat16 contiguous bfloat16 bias",
]
# cpu_features.h's names of what the AVX-512 build needs (x86-64-v4), without
# avx512bf16 or AMX: MLX_DELEGATE_CPU_FEATURES plays that processor.
V4_WITHOUT_BF16 = (
    "avx,avx2,fma,f16c,bmi1,bmi2,lzcnt,movbe,os_ymm,"
    "avx512f,avx512bw,avx512cd,avx512dq,avx512vl,os_zmm"
)
V4_WITHOUT_AMX = V4_WITHOUT_BF16 + ",avx512bf16"


def has_bf16_dot() -> bool:
    """Linux's report: AVX-512 (the build runs) and its BF16 extension."""
    return runs_here("avx512") and "avx512_bf16" in cpu_flags()


def has_amx() -> bool:
    """Linux's report: the bf16 dot's and AMX's tiles and bfloat16 products
    (Linux lists them only where it saves the tile state)."""
    return has_bf16_dot() and {"amx_tile", "amx_bf16"} <= cpu_flags()


def rows(case: str) -> int:
    """x's rows: M, or two of M where batched ([2, M, K])."""
    fields = case.split()
    return int(fields[0]) * (2 if fields[5] == "batched" else 1)


def bf16_dot_path(case: str) -> str:
    """The path of a bfloat16 product where vdpbf16ps runs and AMX does not:
    from 8 rows (half_matmul.h's kBf16GemmMinRows) the bf16 GEMM."""
    return "bf16_gemm" if rows(case) >= 8 else "bf16_dot"


def expected_path(isa: str, case: str) -> str:
    fields = case.split()
    if isa != "avx512" or fields[3:5] != ["bfloat16", "bfloat16"]:
        return "widened"
    if has_amx() and rows(case) >= 16:
        return "amx"
    return bf16_dot_path(case) if has_bf16_dot() else "widened"


def assert_equals_mlx(result: dict) -> None:
    assert result["taken"] and result["same_shape"], result
    fields = result["case"].split()
    out_dtype = fields[6] if len(fields) > 6 else fields[4]
    rtol = {"float32": 1e-5, "bfloat16": 2.0**-8, "float16": 2.0**-10}[out_dtype]
    assert result["max_diff"] <= rtol * result["max_ref"] + 1e-6, result
    assert result["max_ref"] > 0.1, result


def avx512_forced(runtime_build, cases: list[str], features: str, mode: str = "half-check"):
    """The AVX-512 build's `mode` of `cases` on a forced report: a result a
    case, or None (having checked the skip) where the processor lacks AVX-512."""
    results = run_kernel_check(runtime_build, "avx512", mode, cases, features=features)
    if not runs_here("avx512"):
        assert len(results) == 1 and "this processor lacks" in results[0]["skipped"], results
        return None
    assert len(results) == len(cases)
    return results


@pytest.mark.parametrize("isa", ISAS)
def test_half_products_equal_mlx_matmul(runtime_build, isa):
    results = run_kernel_check(
        runtime_build, isa, "half-check", CASES + DECLINED + [BEYOND_VECTORS]
    )
    if not runs_here(isa):
        assert len(results) == 1 and "this processor lacks" in results[0]["skipped"], results
        return
    assert len(results) == len(CASES) + len(DECLINED) + 1
    for result in results[: len(CASES)]:
        assert_equals_mlx(result)
        assert result["path"] == expected_path(isa, result["case"]), result
    declined = results[len(CASES) : len(CASES) + len(DECLINED)]
    assert [r["taken"] for r in declined] == [False] * len(DECLINED)
    beyond = results[-1]
    assert beyond["taken"] == (isa == "avx512" and has_bf16_dot()), beyond
    if beyond["taken"]:
        assert_equals_mlx(beyond)
        assert beyond["path"] == expected_path(isa, BEYOND_VECTORS), beyond


def test_bf16_dot_taken_where_the_processor_has_it(runtime_build):
    """With AMX turned off (a forced report), so that its rows of 16 or more
    go through vdpbf16ps too: the bf16 dot, or from 8 rows the bf16 GEMM."""
    if not has_bf16_dot():
        pytest.skip("this processor lacks avx512_bf16 (/proc/cpuinfo): no bf16 dot to check")
    results = run_kernel_check(
        runtime_build, "avx512", "half-check", BF16_DOT_CASES, features=V4_WITHOUT_AMX
    )
    assert len(results) == len(BF16_DOT_CASES)
    for result in results:
        assert_equals_mlx(result)
        assert result["path"] == bf16_dot_path(result["case"]), result


def test_amx_taken_where_the_processor_has_it(runtime_build):
    if not has_amx():
        pytest.skip("this processor lacks amx_tile/amx_bf16 (/proc/cpuinfo): no AMX to check")
    results = run_kernel_check(runtime_build, "avx512", "half-check", AMX_CASES)
    assert len(results) == len(AMX_CASES)
    for result in results:
        assert_equals_mlx(result)
        assert result["path"] == "amx", result


def test_amx_cases_without_amx(runtime_build):
    """A forced report without AMX: its cases go through the bf16 dot below 8
    rows and the bf16 GEMM from there (any number of rows); without AVX-512 BF16
    too, those of up to 128 rows are widened and more left to MLX."""
    results = avx512_forced(runtime_build, AMX_CASES, V4_WITHOUT_AMX)
    if results is None:
        return
    for result in results:
        if not has_bf16_dot() and rows(result["case"]) > 128:
            assert not result["taken"], result
            continue
        assert_equals_mlx(result)
        assert result["path"] == (
            bf16_dot_path(result["case"]) if has_bf16_dot() else "widened"
        ), result


def test_bf16_products_without_the_bf16_dot(runtime_build):
    """A forced report without avx512bf16 turns the path off: the same products,
    widened."""
    results = avx512_forced(runtime_build, BF16_DOT_CASES, V4_WITHOUT_BF16)
    if results is None:
        return
    for result in results:
        assert_equals_mlx(result)
        assert result["path"] == "widened", result


@pytest.mark.parametrize("rows", [4, 48, 160])
def test_bf16_products_end_to_end_equal_eager(rows):
    """A bfloat16 MLP lowered and run through executorch.runtime on the best CPU
    plugin: the vector paths' rows (4), and rows the AMX path or the bf16 GEMM
    takes where the processor has them (48; 160, past the vector paths' 128),
    against eager."""
    import torch
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime

    import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
    from mlx_delegate.compiler.partitioner import MLXPartitioner

    torch.manual_seed(0)
    module = torch.nn.Sequential(
        torch.nn.Linear(96, 200), torch.nn.SiLU(), torch.nn.Linear(200, 70, bias=False)
    ).to(torch.bfloat16)
    x = torch.randn(rows, 96, dtype=torch.bfloat16)
    program = to_edge_transform_and_lower(
        torch.export.export(module, (x,)), partitioner=[MLXPartitioner()]
    ).to_executorch()
    method = Runtime.get().load_program(program.buffer).load_method("forward")
    ours = method.execute([x])[0].float()
    with torch.no_grad():
        eager = module(x).float()
    torch.testing.assert_close(ours, eager, rtol=2e-2, atol=2e-2)
