"""Our group-wise quantized products (runtime_cpp/src/cpu/quantized_matmul.cpp),
each instruction set's build (mlxd-cpu-kernel-check-<isa>), against MLX's own
quantized_matmul on float32 operands: bits 4 and 8, group sizes 32/64/128, an
odd number of groups, one row and several (and more than the kernel's tile of
four), float32/bfloat16/float16 activations, scales and biases, strided and
batched activations, one thread and several; a prompt's many rows through
OpenBLAS's sgemm, as the OpenBLAS plugins run them. A build whose instructions this
processor lacks must say so and run nothing."""

from __future__ import annotations


import pytest
from cpu_report import run_kernel_check, runs_here

ISAS = ["portable", "avx2", "avx512"]


def cases() -> list[str]:
    lines = []
    for bits in (4, 8):
        for group in (32, 64, 128):
            for m in (1, 3, 6):
                for dtype in ("float32", "bfloat16", "float16"):
                    # K: three groups; N: not a multiple of the tiles (4 rows, 8 per task)
                    lines.append(
                        f"{m} {37 + m} {3 * group} {group} {bits} {dtype} {dtype} contiguous"
                    )
    lines += [
        "1 300 256 32 4 float32 float32 contiguous",  # one row over several threads
        "1 301 512 128 8 bfloat16 bfloat16 contiguous",
        "9 70 160 32 4 bfloat16 float32 contiguous",  # half activations, float32 scales
        "2 50 96 32 4 float32 bfloat16 contiguous",  # and the other way round
        "5 33 96 32 8 float32 float32 strided",  # activations transposed in memory
        "4 41 224 32 4 float16 float16 strided",
        "3 29 192 64 4 bfloat16 bfloat16 batched",  # [2, M, K]
        "17 64 128 64 8 float32 float32 contiguous",
    ]
    # A prompt's rows (kGemmRows, 32, or more): through OpenBLAS's sgemm, the weight
    # dequantized in blocks of 128 rows (N crosses a block).
    for bits in (4, 8):
        for group in (32, 64, 128):
            lines.append(f"33 {130 + group} {3 * group} {group} {bits} float32 float32 contiguous")
    lines += [
        "40 150 256 32 4 bfloat16 bfloat16 contiguous",  # rounded to half from float32
        "32 37 96 32 8 float16 float32 contiguous",
        "35 70 192 64 4 float32 float32 strided",
        "20 41 224 32 4 float32 float32 batched",  # [2, 20, K]: 40 rows
    ]
    return lines


def expected_path(case: str) -> str:
    """The rows a case's product has (batched: two of M): from 32 on, sgemm."""
    m, layout = int(case.split()[0]), case.split()[-1]
    return "sgemm" if m * (2 if layout == "batched" else 1) >= 32 else "tiles"


DECLINED = [
    "1 40 128 64 2 float32 float32 contiguous",  # 2 bits: MLX's product
    "1 40 192 64 6 float32 float32 contiguous",
]


def assert_close(result: dict) -> None:
    assert result["taken"] and result["same_shape"], result
    assert result["path"] == expected_path(result["case"]), result
    # float32 products: float32 rounding of sums of a few hundred terms; half ones: the
    # one rounding of the result (the reference widens the same half operands).
    x_dtype = result["case"].split()[5]
    rtol = {"float32": 1e-5, "bfloat16": 2.0**-8, "float16": 2.0**-10}[x_dtype]
    assert result["max_diff"] <= rtol * result["max_ref"] + 1e-6, result
    assert result["max_ref"] > 0.1, result  # the products are not trivially zero


@pytest.mark.parametrize("isa", ISAS)
def test_kernels_equal_mlx_quantized_matmul(runtime_build, isa):
    results = run_kernel_check(runtime_build, isa, "check", cases() + DECLINED)
    if not runs_here(isa):
        assert len(results) == 1 and "this processor lacks" in results[0]["skipped"], results
        return
    assert len(results) == len(cases()) + len(DECLINED)
    for result in results[: len(cases())]:
        assert_close(result)
    assert [r["taken"] for r in results[len(cases()) :]] == [False] * len(DECLINED)


@pytest.mark.parametrize("threads", [1, 3])
def test_any_number_of_threads_gives_the_same_products(runtime_build, threads):
    isa = next(i for i in reversed(ISAS) if runs_here(i))
    lines = [line for line in cases() if line.split()[0] in ("1", "6", "9", "33")]
    for result in run_kernel_check(runtime_build, isa, "check", lines, threads=threads):
        assert_close(result)
