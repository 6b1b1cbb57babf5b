"""Our CPU kernels (runtime_cpp/src/cpu/) against MLX's own ops, per instruction
set, at the products of a decode step of bench/llm.py's 100M llama-like model
(hidden 768, MLP 2048, 4 KV heads of 64, vocabulary 8192) and a few rows more;
then the elementwise functions (exp, tanh, sigmoid, erf, SiLU, GELU) on a decode
step's MLP (2048 values), a 128-token prompt's (128 x 2048) and a Whisper-small
encoder window's (1500 x 3072).

    .venv/bin/python bench/cpu_kernels.py [--isas portable,avx2,avx512] [--threads N]

Runs build/runtime/mlxd-cpu-kernel-check-<isa> (built with the test plugins:
runtime_cpp/build.sh --test-plugins), which times, in one process, each product
both ways: ours, and MLX's as our exec functions called it before (quantized:
mx::quantized_matmul, half operands widened to float32; half weights:
mx::matmul(x, w.T) in that dtype). Each figure is the best of five rounds of
many calls (the machine may be shared). A build whose instructions the
processor lacks says so and is left out.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUILD = REPO / "build" / "runtime"

# (rows, out, in): attention q/o, k/v, MLP up/gate, MLP down, LM head.
SHAPES = [(768, 768), (256, 768), (2048, 768), (768, 2048), (8192, 768)]
QUANTIZED = [(4, 32), (8, 32), (4, 128)]
ACTIVATIONS = ["exp", "tanh", "sigmoid", "erf", "silu", "gelu", "gelu_tanh"]
ELEMENTS = [2048, 128 * 2048, 1500 * 3072]


def run(isa: str, mode: str, lines: list[str], threads: int | None) -> list[dict]:
    env = dict(os.environ)
    if threads:
        env["MLX_DELEGATE_CPU_THREADS"] = str(threads)
    tool = BUILD / f"mlxd-cpu-kernel-check-{isa}"
    if not tool.exists():
        sys.exit(f"{tool} missing: build with runtime_cpp/build.sh --test-plugins")
    proc = subprocess.run(
        [str(tool), mode], input="\n".join(lines) + "\n", capture_output=True, text=True, env=env
    )
    if proc.returncode != 0:
        sys.exit(proc.stderr)
    return [json.loads(line) for line in proc.stdout.splitlines()]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--isas", default="portable,avx2,avx512")
    parser.add_argument("--rows", default="1,4", help="rows of activations (decode: 1)")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    rows = [int(r) for r in args.rows.split(",")]
    print("| kernels | product | rows | out x in | ours (us) | MLX (us) | ours / MLX |")
    print("|---|---|---:|---|---:|---:|---:|")
    for isa in args.isas.split(","):
        lines = [
            f"{m} {n} {k} {group} {bits} float32"
            for bits, group in QUANTIZED
            for m in rows
            for n, k in SHAPES
        ]
        half = [f"{m} {n} {k} bfloat16" for m in rows for n, k in SHAPES]
        results = run(isa, "bench", lines, args.threads)
        if "skipped" in results[0]:
            print(f"| {isa} | {results[0]['skipped']} | | | | | |")
            continue
        results += run(isa, "half-bench", half, args.threads)
        for r in results:
            f = r["case"].split()
            what = f"int{f[4]} g{f[3]}" if len(f) == 6 else "bf16 weight"
            ratio = r["ours_us"] / r["mlx_us"]
            print(
                f"| {isa} ({r['threads']} threads) | {what} | {f[0]} | {f[1]}x{f[2]} | "
                f"{r['ours_us']:.1f} | {r['mlx_us']:.1f} | {ratio:.2f} |"
            )
    print()
    print("| kernels | function | values | dtype | ours (us) | MLX (us) | ours / MLX |")
    print("|---|---|---:|---|---:|---:|---:|")
    for isa in args.isas.split(","):
        lines = [
            f"{f} {n} {d}" for f in ACTIVATIONS for n in ELEMENTS for d in ("float32", "bfloat16")
        ]
        results = run(isa, "act-bench", lines, args.threads)
        if "skipped" in results[0]:
            print(f"| {isa} | {results[0]['skipped']} | | | | | |")
            continue
        for r in results:
            f = r["case"].split()
            print(
                f"| {isa} ({r['threads']} threads) | {f[0]} | {int(f[1])} | {f[2]} | "
                f"{r['ours_us']:.1f} | {r['mlx_us']:.1f} | {r['ours_us'] / r['mlx_us']:.2f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
