"""Our vectorised exp, tanh, sigmoid, erf, SiLU and GELU (runtime_cpp/src/cpu/
activation.cpp), each instruction set's build, against the functions in double
precision: float32 within a few units in the last place over the whole
exponent range, infinities and NaN kept; half precision within its rounding;
lengths that leave a tail, strided inputs, and the ones the exec functions
leave to MLX (integers, fewer than 4096 elements). The op suite's `large`
configurations run them inside exported programs."""

from __future__ import annotations

import json
import subprocess

import pytest
from cpu_report import run_kernel_check, taken_cases

ISAS = ["portable", "avx2", "avx512"]
CASES = [
    "exp 100003 float32 contiguous -90 90",  # overflow, underflow, several threads
    "exp 4096 float32 special 0 0",
    "tanh 5000 float32 contiguous -10 10",
    "tanh 4096 float32 special 0 0",
    "sigmoid 70001 float32 contiguous -30 30",
    "sigmoid 4096 float32 special 0 0",
    "erf 9999 float32 contiguous -4 4",
    "erf 4096 float32 special 0 0",
    "silu 4099 float32 contiguous -20 20",
    "silu 4096 float32 special 0 0",
    "silu 4099 bfloat16 contiguous -20 20",
    "gelu 8000 float32 contiguous -3 6",
    "gelu 8000 float16 strided -6 6",
    "gelu 4096 float32 special 0 0",
    "gelu_tanh 8000 float32 contiguous -6 6",
    "gelu_tanh 8000 bfloat16 strided -6 6",
    "gelu_tanh 4096 float32 special 0 0",
    "exp 7 float32 contiguous -3 3",  # a tail alone
]
DECLINED = ["exp 100 float32 contiguous -1 1 default-min", "exp 5000 int32 contiguous -1 1"]
TOLERANCE = {"float32": 2e-6, "bfloat16": 2.0**-8, "float16": 2.0**-10}
# GELU's erf form for negative x is x/2 (1 + erf(x/sqrt 2)): erf's absolute error
# (1.5e-7, PyTorch's vectorised erf is the same formula) is relative to a small
# 1 + erf there, 5.5e-5 at x = -3.
GELU_ERF_FLOAT32 = 1e-4


def tolerance(case: str) -> float:
    function, _, dtype = case.split()[:3]
    return GELU_ERF_FLOAT32 if (function, dtype) == ("gelu", "float32") else TOLERANCE[dtype]


@pytest.mark.parametrize("isa", ISAS)
def test_activations_equal_the_exact_functions(runtime_build, isa):
    results = run_kernel_check(runtime_build, isa, "act-check", CASES + DECLINED)
    for result in taken_cases(results, isa, CASES, DECLINED):
        assert result["max_err"] <= tolerance(result["case"]), result


def test_the_check_can_fail(runtime_build):
    """MLX's own ops, measured the same way, miss the float32 bound where they
    are less exact (erf near 0, exp above 88): the comparison has teeth."""
    tool = runtime_build / "mlxd-cpu-kernel-check-portable"
    proc = subprocess.run(
        [str(tool), "act-check"],
        input="erf 4096 float32 special 0 0\nexp 4096 float32 special 0 0\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    for result in map(json.loads, proc.stdout.splitlines()):
        assert result["max_err"] <= TOLERANCE["float32"] < result["mlx_err"], result
