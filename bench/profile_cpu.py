"""Where ours spends a forward pass on the CPU, by the kind of work.

    .venv/bin/python bench/profile_cpu.py [--sizes d512s128,d1024s1] [--seconds 4] [--threads 1]
        [--variant NAME:VAR=VALUE,VAR=VALUE ...]

For each block size of bench/llama_block.py, our .pte runs in a loop in a process
of its own (executorch.runtime, the best CPU plugin); once warm, `perf record`
samples it for --seconds, and the samples are grouped by the library and symbol
they fall in:
- BLAS: OpenBLAS's kernels (scipy-openblas, which our plugin forwards CBLAS to);
- BLAS threads waiting: OpenBLAS's workers spinning or yielding between calls;
- MLX fused kernels: the elementwise chains `mx::compile` generated and built;
- MLX kernels: the rest of libmlx (elementwise, copies, reductions, the fast::
  norms, RoPE and attention; their own loops, not BLAS);
- libm: exp, tanh, expm1... that both kinds of MLX kernels call;
- our kernels: runtime_cpp/src/cpu/ (quantized and half products, the
  transcendental functions, softmax);
- our threads waiting: their pool's workers spinning or asleep between calls;
- framework: our plugin and delegate, ExecuTorch, Python;
- memory and libc: malloc, memcpy, memset, libstdc++;
- OS: the kernel (page faults, scheduling, futexes).

Variants are environments for the timed process: by default `compiled` (as
shipped) and `interpreted` (MLXD_COMPILE=0). A run of an older build is a variant
too: `--variant before:MLX_DELEGATE_HOST_LIB=/old/build/runtime/libmlx_delegate_host.so,
MLX_DELEGATE_LIB=/old/build/runtime/libmlx_delegate.so` (paths of that build).
Prints one table per size: the median ms per forward pass measured in the same
process just before sampling, and each kind's share of the samples (all threads).
Needs `perf` (linux-tools) and permission to sample one's own processes."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from mlx_delegate import _quiet  # noqa: E402

KINDS = [
    "BLAS",
    "BLAS threads waiting",
    "MLX fused kernels",
    "MLX kernels",
    "libm",
    "our kernels",
    "our threads waiting",
    "framework",
    "memory and libc",
    "OS",
]
# OpenBLAS's thread pool: the workers' loop and the caller's wait for them.
BLAS_WAITING = re.compile(r"blas_thread_server|exec_blas|sched_yield|blas_thread_shutdown")
# Our CPU kernels' pool (runtime_cpp/src/cpu/thread_pool.cpp): workers spinning
# or sleeping between calls, and a caller waiting for them.
POOL_WAITING = re.compile(r"Pool|_State_impl|parallel_for")
MEMORY = re.compile(r"^(__)?(memcpy|memmove|memset|malloc|free|calloc|realloc|_int_|cfree)")


def kind_of(dso: str, symbol: str) -> str:
    name = Path(dso).name
    if name.startswith("libscipy_openblas") or "openblas" in name and "mlx" not in name:
        return "BLAS threads waiting" if BLAS_WAITING.search(symbol) else "BLAS"
    if "/mlx/" in dso and "/cpu/" in dso and name.endswith(".so") and name.startswith("lib"):
        return "MLX fused kernels"  # $TMPDIR/mlx/<version>/cpu/lib<kernel>.so
    if name.startswith("libmlx.so"):
        return "MLX kernels"
    if dso.startswith("[kernel") or name in ("[vdso]",):
        return "OS"
    if name.startswith("libm.so"):
        return "libm"
    if name.startswith("libmlxd_impl_cpu") and POOL_WAITING.search(symbol):
        return "our threads waiting"
    if name.startswith("libmlxd_impl_cpu") and "mlxd::cpu::" in symbol:
        return "our kernels"
    if name.startswith(("libc.so", "libc-", "libstdc++", "libgcc", "ld-linux")):
        return "memory and libc"
    return "framework"


def parse_report(text: str) -> dict[str, float]:
    """`perf report --sort dso,sym --stdio` lines -> percent per kind."""
    shares: dict[str, float] = defaultdict(float)
    for line in text.splitlines():
        # -v: percent, the library's full path, address, origin, [.] or [k], symbol
        match = re.match(
            r"\s*([\d.]+)%\s+(\S+)\s+(?:0x[0-9a-f]+\s+\S+\s+)?\[[.kgu]\]\s+(.*)$", line
        )
        if match:
            percent, dso, symbol = float(match.group(1)), match.group(2), match.group(3)
            shares[kind_of(dso, symbol.strip())] += percent
    return shares


def export(size: str, work: Path) -> tuple[Path, Path]:
    import torch
    from executorch.exir import to_edge_transform_and_lower
    from llama_block import BlockConfig, example_input, seeded_weights, torch_block

    from mlx_delegate.compiler.partitioner import MLXPartitioner
    from mlx_delegate.formats.tensor_bin import write_tensors

    config = BlockConfig.parse(size)
    model = torch_block(config, seeded_weights(config))
    x = example_input(config)
    edge = to_edge_transform_and_lower(
        torch.export.export(model, (x,)), partitioner=[MLXPartitioner()]
    )
    pte, inputs = work / f"{size}.pte", work / f"{size}.bin"
    pte.write_bytes(edge.to_executorch().buffer)
    write_tensors(inputs, [x])
    return pte, inputs


def worker(pte: str, inputs: str, seconds: float) -> None:
    """Runs the program in a loop: prints the median ms of 10 runs, then 'ready',
    then keeps running for `seconds` (the sampled part) and exits."""
    import gc
    import statistics

    import torch

    import mlx_delegate.runtime  # noqa: F401  (registers our delegate)
    from executorch.runtime import Runtime

    torch.set_num_threads(1)  # only the caller: bench/models.py says why

    from mlx_delegate.formats.tensor_bin import read_tensors

    program = Runtime.get().load_program(pte)
    method = program.load_method("forward")
    args = read_tensors(inputs)
    for _ in range(3):
        method.execute(args)
    gc.freeze()  # as bench/models.py's timed processes
    times = []
    for _ in range(10):
        start = time.perf_counter()
        method.execute(args)
        times.append(time.perf_counter() - start)
    print(f"ms {statistics.median(times) * 1e3:.3f}", flush=True)
    print("ready", flush=True)
    end = time.monotonic() + seconds + 1.0
    while time.monotonic() < end:
        method.execute(args)


def profile(pte: Path, inputs: Path, env: dict, seconds: float, work: Path) -> tuple:
    proc = subprocess.Popen(
        [sys.executable, __file__, "--worker", str(pte), str(inputs), str(seconds)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    ms = None
    for line in proc.stdout:
        if line.startswith("ms "):
            ms = float(line.split()[1])
        if line.strip() == "ready":
            break
    data = work / f"perf-{proc.pid}.data"
    subprocess.run(
        ["perf", "record", "-q", "-F", "1999", "-p", str(proc.pid), "-o", str(data)]
        + ["--", "sleep", str(seconds)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    proc.wait()
    report = subprocess.run(
        ["perf", "report", "-i", str(data), "--stdio", "--sort", "dso,sym", "--no-children", "-v"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return ms, parse_report(report)


def parse_variant(text: str) -> tuple[str, dict]:
    name, _, assignments = text.partition(":")
    env = dict(a.split("=", 1) for a in assignments.split(",") if a)
    return name, env


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="d512s128,d1024s1")
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--variant", action="append", default=[], metavar="NAME:VAR=VALUE,...")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker[0], args.worker[1], float(args.worker[2]))
        return 0
    _quiet.install()
    if shutil.which("perf") is None:
        print("profile_cpu: needs perf (linux-tools)", file=sys.stderr)
        return 2
    variants = [("compiled", {}), ("interpreted", {"MLXD_COMPILE": "0"})]
    variants += [parse_variant(v) for v in args.variant]
    base = dict(os.environ, PYTHONPATH=str(HERE.parent))
    base["OPENBLAS_NUM_THREADS"] = base["OMP_NUM_THREADS"] = str(args.threads)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for size in args.sizes.split(","):
            pte, inputs = export(size, work)
            print(f"\nblock {size}, {args.threads} thread(s), {args.seconds:g} s sampled:\n")
            print("| variant | ms | " + " | ".join(KINDS) + " |")
            print("|---|---|" + "---|" * len(KINDS))
            for name, env in variants:
                ms, shares = profile(pte, inputs, {**base, **env}, args.seconds, work)
                cells = [f"{shares.get(k, 0.0):.1f}%" for k in KINDS]
                print(f"| {name} | {ms:.3f} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
