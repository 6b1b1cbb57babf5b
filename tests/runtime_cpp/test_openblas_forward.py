"""CBLAS forwarding in libmlx-cpu-openblas (runtime_cpp/src/plugin/openblas_forward.cpp):
products with one row or one column go to gemv, in every operand layout MLX
hands over (each operand as stored or as a transposed view), with and without
an accumulated bias (beta), in float32 and float64; the rest stay gemm. Large
products are split over our kernels' threads (OpenBLAS runs single-threaded):
into column blocks, row blocks, or blocks of a gemv's output, each an offset
into operands stored either way. In the AVX-512 variant, float32 products of 8
rows or more whose A is not stored transposed run our own GEMM
(runtime_cpp/src/cpu/float_gemm.h): tiles of 12 rows, panels of 32 columns
and 256 values of K, B stored either way."""

from __future__ import annotations

import os

import numpy as np
import pytest
from cpu_report import best_cpu_plugin
from test_programs import T, graph

from mlx_delegate.formats.ir import schema as ir

# (m, k, n): one row, one column, both, and a plain gemm beside them; then ones
# large enough to split: wide (column blocks), tall (row blocks), gemv both ways.
SHAPES = [(1, 37, 19), (23, 37, 1), (1, 37, 1), (5, 37, 19)]
SPLIT = [(9, 300, 301), (301, 300, 9), (1, 700, 411), (411, 700, 1)]
# our GEMM's: a tile's 12 rows and 8 (its fewest), columns past a panel and short
# of one, K past one panel's 256 values and short of them, several tasks a thread
GEMM = [(8, 3, 5), (12, 256, 32), (13, 257, 33), (37, 600, 100), (130, 513, 301)]


@pytest.fixture(scope="module")
def backends(runtime_build, backend_dir):
    if not (backend_dir / "libmlx-cpu-openblas.so").exists():
        pytest.skip("built without scipy-openblas32")
    os.environ["MLX_DELEGATE_HOST_LIB"] = str(runtime_build / "libmlx_delegate_host.so")
    os.environ.pop("MLX_BACKEND_PATH", None)
    from mlx_delegate.host import backends as b

    b.load_all()
    # cpu-openblas, or the variant of this processor built on it (cpu-avx2, cpu-avx512)
    assert b.device("cpu")["backend"]["name"] == best_cpu_plugin(backend_dir) != "cpu"
    return b


def product(backends, a, b, a_stored_transposed, b_stored_transposed, bias=None):
    """a @ b (or bias + a @ b) run by the plugin, each operand handed in as
    stored: transposed in memory, then transposed back in the program, so that
    MLX passes a transposed view to gemm."""
    stored = [a.T.copy() if a_stored_transposed else a, b.T.copy() if b_stored_transposed else b]
    constants = [] if bias is None else [("bias", bias)]
    first_input = len(constants)
    operands, nodes, temp = [], [], first_input + 3
    for i, transposed in enumerate([a_stored_transposed, b_stored_transposed]):
        if transposed:
            nodes.append(ir.TransposeNode(x=T(first_input + i), out=T(temp), perm=[1, 0]))
            operands.append(T(temp))
            temp += 1
        else:
            operands.append(T(first_input + i))
    out = T(first_input + 2)
    if bias is None:
        nodes.append(ir.MatmulNode(a=operands[0], b=operands[1], out=out))
    else:
        nodes.append(ir.AddmmNode(bias=T(0), mat1=operands[0], mat2=operands[1], out=out, beta=0.5))
    g = graph(
        nodes,
        constants=constants,
        inputs=stored,
        n_temps=temp - first_input - 3,
    )
    program = backends.load_program(ir.encode(g), dict(constants))
    (result,) = program.run(*stored)
    return result


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m, k, n", SHAPES + SPLIT + GEMM)
def test_products_match_numpy_in_every_layout(backends, m, k, n, dtype):
    rng = np.random.default_rng(m * 100 + n)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    bias = rng.standard_normal((m, n)).astype(dtype)
    # sums of k products of unit normals: float32 rounding grows with k
    tolerance = (1e-5 if dtype == np.float32 else 1e-12) * max(1, k // 37)
    for a_transposed in (False, True):
        for b_transposed in (False, True):
            layout = f"a{'ᵀ' if a_transposed else ''} b{'ᵀ' if b_transposed else ''}"
            got = product(backends, a, b, a_transposed, b_transposed)
            np.testing.assert_allclose(got, a @ b, rtol=tolerance, atol=tolerance, err_msg=layout)
            got = product(backends, a, b, a_transposed, b_transposed, bias=bias)
            np.testing.assert_allclose(
                got, 0.5 * bias + a @ b, rtol=tolerance, atol=tolerance, err_msg=layout
            )
