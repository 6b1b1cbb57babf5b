"""1024x1024 float32 matmul through each CPU backend plugin, side by side.

    .venv/bin/python bench/blas_variants.py [--size 1024] [--repeat 5]

Each variant runs in its own process (the MLX library a plugin brings in is
bound to its BLAS once per process), loaded explicitly by path with
`mlx_delegate.host.backends.load`, through the plugin's built-in matmul.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, numpy as np
from mlx_delegate.host import backends
path, n, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
backends.load(path)
b = backends.list()[0]
rng = np.random.default_rng(0)
x = rng.standard_normal((n, n), dtype=np.float32)
y = rng.standard_normal((n, n), dtype=np.float32)
# best of 3 trials (the machine may be shared), each the mean of `repeat` runs
seconds = float("inf")
for _ in range(3):
    out, s = backends.run_builtin_f32("cpu", "matmul", x, y, repeat=repeat)
    seconds = min(seconds, s)
err = float(np.abs(out - x @ y).max() / np.abs(x @ y).max())
print(json.dumps({"name": b.name, "score": b.score, "blas": b.device_properties[0].get("blas"),
                  "seconds": seconds, "gflops": 2 * n**3 / seconds / 1e9, "rel_err": err}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--build-dir", default=str(REPO / "build" / "runtime"))
    args = parser.parse_args()
    backend_dir = Path(args.build_dir) / "backends"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.setdefault("MLX_DELEGATE_HOST_LIB", str(Path(args.build_dir) / "libmlx_delegate_host.so"))
    rows = []
    for plugin in ("libmlx-cpu.so", "libmlx-cpu-openblas.so"):
        path = backend_dir / plugin
        if not path.exists():
            rows.append({"plugin": plugin, "error": "not built"})
            continue
        proc = subprocess.run(
            [sys.executable, "-c", CHILD, str(path), str(args.size), str(args.repeat)],
            env=env,
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            rows.append({"plugin": plugin, "error": proc.stderr.strip().splitlines()[-1]})
            continue
        rows.append({"plugin": plugin, **json.loads(proc.stdout.strip().splitlines()[-1])})

    n = args.size
    print(
        f"{n}x{n} float32 matmul, best of 3 trials of {args.repeat} repetitions after a "
        f"warm-up, {os.cpu_count()} CPU(s)"
    )
    print(
        f"{'plugin':<26} {'backend':<14} {'score':>5} {'BLAS':<10} {'ms/matmul':>10} "
        f"{'GFLOP/s':>9} {'rel. err':>9}"
    )
    for r in rows:
        if "error" in r:
            print(f"{r['plugin']:<26} error: {r['error']}")
            continue
        print(
            f"{r['plugin']:<26} {r['name']:<14} {r['score']:>5} {r['blas']:<10} "
            f"{r['seconds'] * 1e3:>10.2f} {r['gflops']:>9.1f} {r['rel_err']:>9.1e}"
        )
    ok = [r for r in rows if "error" not in r]
    if len(ok) == 2:
        print(
            f"speed-up of {ok[1]['name']} over {ok[0]['name']}: "
            f"{ok[1]['gflops'] / ok[0]['gflops']:.1f}x"
        )
    return 0 if len(ok) == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
