"""Our CPU kernels (runtime_cpp/src/cpu/) against MLX's own ops, per instruction
set, at the products of a decode step of bench/llm.py's 100M llama-like model
(hidden 768, MLP 2048, 4 KV heads of 64, vocabulary 8192) and a few rows more;
then the elementwise functions (exp, tanh, sigmoid, erf, SiLU, GELU) on a decode
step's MLP (2048 values), a 128-token prompt's (128 x 2048) and a Whisper-small
encoder window's (1500 x 3072). Last, bfloat16 by bfloat16 both ways in the
AVX-512 build where the processor has AVX-512 BF16: each weight vector widened
to float32 (the path before) and vdpbf16ps (half_matmul.cpp's bf16 dot), in
GFLOP/s, at a decode step's rows (1) and a prompt's (16, 128), with the path
the kernel chooses. And float32 products of a prompt's rows in the AVX-512
build's own GEMM (float_gemm.h) against OpenBLAS's sgemm as the plugins ran it
before (single-threaded calls on blocks of the product, over our threads), with
the kernels OpenBLAS chose (OPENBLAS_CORETYPE, where set, names them).

    .venv/bin/python bench/cpu_kernels.py [--isas portable,avx2,avx512] [--threads N]
        [--tables products,functions,bf16-paths,float-gemm] [--rows 1,4]
        [--bf16-rows 1,16,128] [--float-rows 8,32,128,512]

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


TABLES = ("products", "functions", "bf16-paths", "float-gemm")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--isas", default="portable,avx2,avx512")
    parser.add_argument("--rows", default="1,4", help="rows of activations (decode: 1)")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--bf16-rows", default="1,16,128", help="rows of the bf16 paths' table")
    parser.add_argument(
        "--float-rows", default="8,32,128,512", help="rows of the float GEMM's table"
    )
    parser.add_argument("--tables", default=",".join(TABLES), help=f"some of {','.join(TABLES)}")
    args = parser.parse_args(argv)
    tables = args.tables.split(",")
    unknown = [t for t in tables if t not in TABLES]
    if unknown:
        parser.error(f"unknown table {unknown[0]!r} (known: {', '.join(TABLES)})")
    isas = args.isas.split(",")
    if "products" in tables:
        print_products(isas, [int(r) for r in args.rows.split(",")], args.threads)
    if "functions" in tables:
        print_functions(isas, args.threads)
    if "bf16-paths" in tables:
        print_bf16_paths(isas, [int(r) for r in args.bf16_rows.split(",")], args.threads)
    if "float-gemm" in tables:
        print_float_gemm(isas, [int(r) for r in args.float_rows.split(",")], args.threads)
    return 0


def print_products(isas: list[str], rows: list[int], threads: int | None) -> None:
    print("| kernels | product | rows | out x in | ours (us) | MLX (us) | ours / MLX |")
    print("|---|---|---:|---|---:|---:|---:|")
    for isa in isas:
        lines = [
            f"{m} {n} {k} {group} {bits} float32"
            for bits, group in QUANTIZED
            for m in rows
            for n, k in SHAPES
        ]
        half = [f"{m} {n} {k} bfloat16" for m in rows for n, k in SHAPES]
        results = run(isa, "bench", lines, threads)
        if "skipped" in results[0]:
            print(f"| {isa} | {results[0]['skipped']} | | | | | |")
            continue
        results += run(isa, "half-bench", half, threads)
        for r in results:
            f = r["case"].split()
            what = f"int{f[4]} g{f[3]}" if len(f) == 6 else "bf16 weight"
            ratio = r["ours_us"] / r["mlx_us"]
            print(
                f"| {isa} ({r['threads']} threads) | {what} | {f[0]} | {f[1]}x{f[2]} | "
                f"{r['ours_us']:.1f} | {r['mlx_us']:.1f} | {ratio:.2f} |"
            )
    print()


def print_functions(isas: list[str], threads: int | None) -> None:
    print("| kernels | function | values | dtype | ours (us) | MLX (us) | ours / MLX |")
    print("|---|---|---:|---|---:|---:|---:|")
    for isa in isas:
        lines = [
            f"{f} {n} {d}" for f in ACTIVATIONS for n in ELEMENTS for d in ("float32", "bfloat16")
        ]
        results = run(isa, "act-bench", lines, threads)
        if "skipped" in results[0]:
            print(f"| {isa} | {results[0]['skipped']} | | | | | |")
            continue
        for r in results:
            f = r["case"].split()
            print(
                f"| {isa} ({r['threads']} threads) | {f[0]} | {int(f[1])} | {f[2]} | "
                f"{r['ours_us']:.1f} | {r['mlx_us']:.1f} | {r['ours_us'] / r['mlx_us']:.2f} |"
            )
    print()


def avx512_results(mode: str, lines: list[str], threads: int | None, columns: int) -> list[dict]:
    """The AVX-512 build's results of `mode`; none, after a table row of `columns`
    saying why, where the processor lacks its instructions."""
    results = run("avx512", mode, lines, threads)
    if "skipped" in results[0]:
        print(f"| avx512 | {results[0]['skipped']} |" + " |" * (columns - 2))
        return []
    return results


def print_bf16_paths(isas: list[str], rows: list[int], threads: int | None) -> None:
    """GFLOP/s of each path that takes the product (the widened path, the bf16
    dot up to 128 rows, the bf16 GEMM from 8), timed in turn in one process."""
    if "avx512" not in isas:
        return
    print(
        "| kernels | rows | out x in | widened GFLOP/s | bf16 dot GFLOP/s | bf16 GEMM GFLOP/s "
        "| chosen |"
    )
    print("|---|---:|---|---:|---:|---:|---|")
    lines = [f"{m} {n} {k} bfloat16" for m in rows for n, k in SHAPES]
    for r in avx512_results("half-bench", lines, threads, columns=7):
        m, n, k = (int(v) for v in r["case"].split()[:3])
        if r["path"] == "widened":
            print(f"| avx512 | {m} | {n}x{k} | this processor lacks avx512_bf16 | | | |")
            continue
        r.setdefault(f"{r['path']}_us", r["ours_us"])  # the one path that takes it
        flops = 2.0 * m * n * k / 1e3  # per microsecond: GFLOP/s
        rates = [
            f"{flops / r[key]:.1f}" if key in r else "-"
            for key in ("widened_us", "bf16_dot_us", "bf16_gemm_us")
        ]
        print(
            f"| avx512 ({r['threads']} threads) | {m} | {n}x{k} | {' | '.join(rates)} | {r['path']} |"
        )


def print_float_gemm(isas: list[str], rows: list[int], threads: int | None) -> None:
    """GFLOP/s of our float32 GEMM and of OpenBLAS's sgemm (single-threaded calls
    over our threads, as openblas_forward.cpp makes them), x @ w.T with w [out, in],
    timed in turn in one process."""
    if "avx512" not in isas:
        return
    coretype = os.environ.get("OPENBLAS_CORETYPE")
    blas = f"OpenBLAS ({coretype}) GFLOP/s" if coretype else "OpenBLAS GFLOP/s"
    print(f"\n| kernels | rows | out x in | ours GFLOP/s | {blas} | ours / OpenBLAS |")
    print("|---|---:|---|---:|---:|---:|")
    lines = [f"{m} {n} {k}" for m in rows for n, k in SHAPES]
    for r in avx512_results("float-bench", lines, threads, columns=6):
        m, n, k = (int(v) for v in r["case"].split())
        flops = 2.0 * m * n * k / 1e3  # per microsecond: GFLOP/s
        theirs = f"{flops / r['openblas_us']:.1f}" if r["openblas_us"] > 0 else "-"
        ratio = f"{r['openblas_us'] / r['ours_us']:.2f}x" if r["openblas_us"] > 0 else "-"
        print(
            f"| avx512 ({r['threads']} threads) | {m} | {n}x{k} | {flops / r['ours_us']:.1f} "
            f"| {theirs} | {ratio} |"
        )


if __name__ == "__main__":
    sys.exit(main())
