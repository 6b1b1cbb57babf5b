"""Our RoPE (runtime_cpp/src/cpu/rope.cpp), each instruction set's build,
against MLX's fast::rope on float32 operands: the halves and consecutive pairs,
every dtype, a dims short of the row (the rest copied), one offset and one per
batch entry, contiguous rows and a transposed view, the base and given
frequencies, a decode step's one position and a prefill's 512 (both threads);
operands MLX's rope does not take (odd dims) are declined."""

from __future__ import annotations

import pytest
from cpu_report import run_kernel_check, taken_cases

ISAS = ["portable", "avx2", "avx512"]
# B H T D dims traditional dtype offset layout freqs
CASES = [
    "1 4 7 64 64 0 float32 3 contiguous base",
    "2 8 33 128 128 0 bfloat16 batch transposed base",
    "1 32 1 64 64 0 bfloat16 500 transposed freqs",  # a decode step of Llama-3's heads
    "3 2 5 80 32 1 float16 17 contiguous base",
    "1 4 9 40 40 1 float32 batch contiguous freqs",
    "1 16 512 64 64 0 float32 0 transposed freqs",
    "1 3 5 10 6 0 float32 2 contiguous base",
]
DECLINED = ["1 2 3 8 7 0 float32 0 contiguous base"]


@pytest.mark.parametrize("isa", ISAS)
def test_rope_equals_mlx(runtime_build, isa):
    results = run_kernel_check(runtime_build, isa, "rope-check", CASES + DECLINED)
    for result in taken_cases(results, isa, CASES, DECLINED):
        # half outputs: one rounding of a value up to max_ref; float32: the angles'
        # own rounding at positions up to ~500
        rtol = {"float32": 1e-5, "bfloat16": 2.0**-8, "float16": 2.0**-10}[
            result["case"].split()[6]
        ]
        assert result["max_diff"] <= rtol * result["max_ref"] + 1e-6, result
        assert result["max_ref"] > 1.0, result
