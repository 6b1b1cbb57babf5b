"""What a CPU table's title says about our plugin: which one the host picks here and, for
the OpenBLAS ones, the kernels OpenBLAS chose as it loaded. OpenBLAS picks them from the
processor, unless OPENBLAS_CORETYPE names a core; some machines set it (this project's
machines set Haswell, AVX2, on processors that have AVX-512), so a table says so."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

PROBE = """
from mlx_delegate.host import backends
(best,) = backends.list()
props = best.device_properties[0]
print(best.name, props.get("float_gemm") or "-", props.get("blas_kernels") or "")
"""


def our_cpu_plugin() -> str:
    """e.g. "ours on cpu-avx512, OpenBLAS's Haswell kernels (OPENBLAS_CORETYPE=Haswell), float32
    products of 8 rows or more in our AVX-512 GEMM".
    Asked in a process of its own: the caller's process keeps no plugin loaded."""
    proc = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    if proc.returncode != 0:
        return "ours: no CPU plugin loaded"
    name, float_gemm, *kernels = proc.stdout.strip().splitlines()[-1].split(" ", 2)
    text = f"ours on {name}"
    if kernels and kernels[0]:
        text += f", OpenBLAS's {kernels[0]} kernels"
        if "OPENBLAS_CORETYPE" in os.environ:
            text += f" (OPENBLAS_CORETYPE={os.environ['OPENBLAS_CORETYPE']})"
    if float_gemm != "-":
        text += f", float32 products of 8 rows or more in our {float_gemm} GEMM"
    return text
