"""Our layer and RMS norms (runtime_cpp/src/cpu/norm.cpp), each instruction
set's build, against MLX's ops on float32 operands: rows shorter than a vector
and with a tail, contiguous and strided, with no weight, a weight, and a weight
and a bias, in every dtype; a bias with the RMS norm is declined."""

from __future__ import annotations

import pytest
from cpu_report import run_kernel_check, taken_cases

ISAS = ["portable", "avx2", "avx512"]
# kind rows n dtype layout affine
CASES = [
    "layer 3 7 float32 contiguous none",
    "layer 1500 768 bfloat16 contiguous both",  # a Whisper window, both threads
    "layer 40 131 float32 strided both",
    "layer 9 64 float16 contiguous weight",
    "rms 64 2048 bfloat16 contiguous weight",
    "rms 5 33 float32 strided none",
    "rms 17 100 float16 contiguous weight",
]
DECLINED = ["rms 4 64 float32 contiguous both"]


@pytest.mark.parametrize("isa", ISAS)
def test_norms_equal_mlx(runtime_build, isa):
    results = run_kernel_check(runtime_build, isa, "norm-check", CASES + DECLINED)
    for result in taken_cases(results, isa, CASES, DECLINED):
        # half outputs: one rounding of a value up to max_ref
        rtol = {"float32": 2e-6, "bfloat16": 2.0**-8, "float16": 2.0**-10}[
            result["case"].split()[3]
        ]
        assert result["max_diff"] <= rtol * result["max_ref"] + 1e-6, result
        assert result["max_ref"] > 1.0, result
