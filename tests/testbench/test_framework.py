"""testbench/framework.py's compiled runs: `mlx_compile_off` reaches the MLX that the
plugin links (the same libmlx as `mlx.core`), so a program's elementwise chain is not
fused into a kernel that g++ builds; without it, it is."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# A fresh TMPDIR: MLX's CPU backend writes each kernel it builds under $TMPDIR/mlx/.
RUN = textwrap.dedent("""
    import os, torch
    from pathlib import Path
    from testbench.framework import Config, _execute, lower, mlx_compile_off

    class Chain(torch.nn.Module):
        def forward(self, x):
            return torch.sigmoid(x * 3.0 + 1.0) * x

    x = torch.randn(4, 64)
    pte = lower(Chain(), (x,), Config("chain")).pte
    kernels = lambda: len(list(Path(os.environ["TMPDIR"]).rglob("*.so")))
    with mlx_compile_off():
        (off,) = _execute(pte, [x], "forward")
    built_off = kernels()
    (on,) = _execute(pte, [x], "forward")
    expected = Chain()(x)
    assert torch.allclose(off, expected, atol=1e-6) and torch.allclose(on, expected, atol=1e-6)
    print(built_off, kernels())
    """)


def test_compile_off_builds_no_kernel_and_compiled_does(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", RUN],
        cwd=REPO,
        env={**os.environ, "TMPDIR": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    built_off, built_on = map(int, done.stdout.split()[-2:])
    assert built_off == 0
    assert built_on >= 1
