"""Latency of one forward pass: ours against the other ways to run the same model,
side by side in one run, one table per device (and a plot of the blocks).

Inputs: the llama-like block of bench/llama_block.py (RMSNorm, RoPE, grouped-query
causal SDPA, SiLU-gated MLP; fp32, seeded weights) at d=256 seq 32, d=512 seq 128,
d=1024 seq 1 (and d=2048 seq 1 on the GPU), and the models of the zoo
(testbench/models.py).

On the CPU (this machine):
    .venv/bin/python bench/models.py [--sizes d256s32,d512s128,d1024s1] [--models NAMES|none]
        [--systems ours,ours-nocompile,ours-unjoined,xnnpack,portable,eager,mlx,mlx-compiled]
        [--warmup 3] [--repeat 10] [--max-seconds 0.5] [--rounds 2] [--threads N] [--png bench/models_cpu.png]
- ours: MLXPartitioner, run through executorch.runtime on the best CPU plugin;
- ours, compile off: the same .pte with MLXD_COMPILE=0 in the environment of its
  process (so it is set before the plugin loads the program);
- ours, not joined: lowered with MLXPartitioner(join_products=False), the products of
  one input kept apart (q/k/v, gate/up: what joining them gains);
- xnnpack: the same export lowered with XnnpackPartitioner;
- portable: the same export lowered with no partitioner (ExecuTorch's own kernels);
- eager: the module in PyTorch eager;
- mlx, mlx compiled: the same weights in MLX Python (bench/llama_block.py), plain and
  through mx.compile (blocks only); its matmuls on the OpenBLAS of our plugin (MLX's
  Linux wheel ships a reference BLAS).
--threads N gives every system N threads (torch, ExecuTorch's threadpool, OpenBLAS);
by default each keeps its own. On a shared machine, use --threads 1: a system with two
threads on two cores stalls at every barrier while something else holds a core.

On the GPU machine (no ExecuTorch Python there): first, here,
    .venv/bin/python bench/models.py --prepare-gpu DIR
writes per block size our .pte (gzipped), its weights (npz, gzipped), the input
(mlxd-run's .bin) and eager's output on this CPU into DIR. The weights are tiled
(bench/llama_block.py), so that d=2048 fits the 64 MiB of a device call. There,
    python3 bench/models.py --gpu DIR --runner BUILD/mlxd-run [--out $OUT]
times ours through `mlxd-run --device gpu:0`, torch eager CUDA fp32 and bf16 and MLX
(compiled and not, and compiled with its input made from the host's memory and its
output read back there each call, as a call of ours does: "host in/out") on those
weights, and writes models_gpu.md, models_gpu.json and models_gpu.png (when matplotlib
imports) into --out. --split adds where a call of ours goes, from the plugin's debug
log: its graph built, evaluated, its output copied out, and the rest. `--device cpu`
runs the same path on the CPU (mlxd-run --device cpu, torch and MLX on the CPU): a
test of it here.
    .venv/bin/python bench/models.py --plot OUT/models_gpu.json --png bench/models_gpu.png
draws the plot of a saved run.

Each number is the median of --repeat timed runs after --warmup untimed ones (fewer,
but at least 3, once --max-seconds are spent). On the CPU, each system runs in a
process of its own (after this one has exported and lowered everything), so that no
other system's threads spin beside it; --rounds passes over the systems (in order,
then in reverse), and the lower median counts: a burst of load from elsewhere on a
shared machine has to hit a system twice to show. The errors are max |y - torch eager on the CPU|
(fp32; the zoo's bf16 rows against eager bf16).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import gc
import gzip
import io
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np
import torch

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(REPO))

from llama_block import BlockConfig, example_input, seeded_weights, torch_block  # noqa: E402
from cpu_context import our_cpu_plugin  # noqa: E402
import plugin_log  # noqa: E402

CPU_SIZES = "d256s32,d512s128,d1024s1"
GPU_SIZES = "d256s32,d512s128,d1024s1,d2048s1"
CPU_SYSTEMS = (
    "ours",
    "ours-nocompile",
    "ours-unjoined",
    "xnnpack",
    "portable",
    "eager",
    "mlx",
    "mlx-compiled",
)
GPU_SYSTEMS = ("ours", "ours-nocompile", "eager-fp32", "eager-bf16", "mlx", "mlx-compiled", "mlx-compiled-host")  # fmt: skip
MLX_SYSTEMS = ("mlx", "mlx-compiled", "mlx-compiled-host")
TITLES = {
    "ours": "ours",
    "ours-nocompile": "ours, compile off",
    "ours-unjoined": "ours, not joined",
    "xnnpack": "XNNPACK",
    "portable": "portable",
    "eager": "torch eager",
    "eager-fp32": "torch eager fp32",
    "eager-bf16": "torch eager bf16",
    "mlx": "MLX",
    "mlx-compiled": "MLX compiled",
    "mlx-compiled-host": "MLX compiled, host in/out",
}
CPU_TARGET_SIZE = "d512s128"
GPU_TARGET_SIZE = "d2048s1"


@dataclasses.dataclass
class Row:
    name: str  # d512s128, llama[float32]
    label: str
    kind: str  # block | zoo
    params: int
    ms: dict = dataclasses.field(default_factory=dict)  # system -> median ms
    runs: dict = dataclasses.field(default_factory=dict)  # system -> timed runs
    errors: dict = dataclasses.field(default_factory=dict)  # system -> max |y - eager fp32|
    notes: dict = dataclasses.field(default_factory=dict)  # system -> why there is no number


def median_ms(run: Callable[[], object], args) -> tuple[float, int]:
    """(median ms, timed runs): --warmup untimed runs, then --repeat timed ones, or
    fewer (at least 3) once --max-seconds are spent."""
    for _ in range(args.warmup):
        run()
    times, start = [], time.perf_counter()
    while len(times) < args.repeat:
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
        if len(times) >= 3 and time.perf_counter() - start > args.max_seconds:
            break
    return statistics.median(times) * 1e3, len(times)


def time_row(row: "Row", runners: dict, args) -> None:
    for system, run in runners.items():
        record(row, system, median_ms(run, args), row.errors.get(system))


def max_error(expected, actual) -> float:
    def as_float(t) -> torch.Tensor:
        if isinstance(t, torch.Tensor):
            return t.float()
        return torch.from_numpy(np.asarray(t, np.float32))

    return float((as_float(expected) - as_float(actual)).abs().max())


def summary(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"[:160]


def record(row: Row, system: str, ms_runs: tuple[float, int], error=None) -> None:
    row.ms[system], row.runs[system] = ms_runs
    if error is not None:
        row.errors[system] = error
    err = "" if error is None else f"  max err {error:.2e}"
    print(f"  {row.name:24s} {TITLES[system]:18s} {ms_runs[0]:9.3f} ms ({ms_runs[1]} runs){err}", flush=True)  # fmt: skip


# ---- the CPU side --------------------------------------------------------------------
#
# This process exports and lowers every input and keeps eager's output; then one
# subprocess per system times every input on that system alone: no other system's
# threads (torch's OpenMP, XNNPACK's pool, OpenBLAS's) spin beside it, as in a
# program that uses one of them. ours-nocompile's subprocess has MLXD_COMPILE=0.

EXECUTORCH_SYSTEMS = {"ours": "ours", "ours-nocompile": "ours", "ours-unjoined": "ours-unjoined", "xnnpack": "xnnpack", "portable": "portable"}  # fmt: skip


def lower(exported, system: str) -> bytes:
    from executorch.exir import to_edge_transform_and_lower

    if system in ("ours", "ours-unjoined"):
        from mlx_delegate.compiler.partitioner import MLXPartitioner

        partitioner = [MLXPartitioner(join_products=None if system == "ours" else False)]
    elif system == "xnnpack":
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import (
            XnnpackPartitioner,
        )

        partitioner = [XnnpackPartitioner()]
    else:
        partitioner = []
    edge = to_edge_transform_and_lower(copy.deepcopy(exported), partitioner=partitioner)
    return edge.to_executorch().buffer


def load_method(pte: Path):
    import mlx_delegate.runtime  # noqa: F401  (registers our delegate with ExecuTorch)
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte)
    method = program.load_method("forward")
    method.program = program  # the method needs its program alive
    return method


def zoo_selection(names: str) -> list[tuple[str, torch.dtype]]:
    if names == "none":
        return []
    from testbench.run_models import selection

    return selection([n for n in names.split(",") if n and n != "all"])


def build(job: dict) -> tuple[torch.nn.Module, tuple]:
    """The module and inputs of a job: a block from its seed, a zoo model from its case."""
    if job["kind"] == "block":
        c = BlockConfig.parse(job["name"])
        return torch_block(c, seeded_weights(c, seed=0)), (example_input(c),)
    from testbench.models import all_models

    return all_models()[job["model"]].build(getattr(torch, job["dtype"]))


def prepare_job(job: dict, args, notes: dict) -> None:
    """Exports and lowers one input; saves its inputs and eager's output."""
    model, inputs = build(job)
    with torch.no_grad():
        expected = model(*inputs)
    if isinstance(expected, (tuple, list)):
        expected = expected[0]
    stem = args.work / job["name"]
    torch.save(inputs, f"{stem}.inputs.pt")
    torch.save(expected, f"{stem}.expected.pt")
    job["ptes"] = {}
    lowered = {EXECUTORCH_SYSTEMS[s] for s in args.systems if s in EXECUTORCH_SYSTEMS}
    if not lowered:
        return
    exported = torch.export.export(model, inputs, strict=False)
    for system in ("ours", "ours-unjoined", "xnnpack", "portable"):
        if system in lowered:
            start = time.perf_counter()
            try:
                pte = Path(f"{stem}.{system}.pte")
                pte.write_bytes(lower(exported, system))
                job["ptes"][system] = str(pte)
                print(f"  {job['name']:24s} lowered for {TITLES[system]} in {time.perf_counter() - start:.1f} s", flush=True)  # fmt: skip
            except Exception as error:  # one system's failure is a result, not the end of the run
                notes[(job["name"], system)] = f"lower: {summary(error)}"
                print(f"  {job['name']:24s} {TITLES[system]}: {notes[(job['name'], system)]}", flush=True)  # fmt: skip


def runner(system: str, job: dict, inputs: tuple, expected) -> tuple[Callable, float]:
    """(a zero-argument run of `system` on the job, its max error against eager)."""
    if system in EXECUTORCH_SYSTEMS:
        if EXECUTORCH_SYSTEMS[system] not in job["ptes"]:
            raise RuntimeError("not lowered")
        method = load_method(Path(job["ptes"][EXECUTORCH_SYSTEMS[system]]))
        error = max_error(expected, method.execute(list(inputs))[0])
        return (lambda: method.execute(list(inputs))), error
    if system == "eager":
        model, _ = build(job)

        def run():
            with torch.no_grad():
                return model(*inputs)

        return run, max_error(expected, run())
    if system in ("mlx", "mlx-compiled"):
        if job["kind"] != "block":
            raise LookupError("MLX Python: blocks only")
        import mlx.core as mx

        from llama_block import mlx_functions, mlx_weights

        c = BlockConfig.parse(job["name"])
        w, x = mlx_weights(seeded_weights(c, seed=0)), mx.array(inputs[0].numpy())
        forward = mlx_functions(c)[system == "mlx-compiled"]
        return (lambda: mx.eval(forward(w, x))), max_error(expected, np.array(forward(w, x)))
    raise ValueError(system)


def time_system(system: str, jobs_file: Path, args) -> int:
    """The --time-system subprocess: every job on one system; progress lines, then
    `RESULT {name: {ms, runs, error} | {note}}`."""
    if system in ("mlx", "mlx-compiled"):
        # MLX's Linux wheel multiplies with the reference BLAS it ships; loading our
        # CPU plugin first binds the libmlx.so they share to the plugin's OpenBLAS,
        # so MLX Python and ours run on the same BLAS.
        from mlx_delegate.host import backends

        backends.load_all()
    if system != "eager" and not args.threads:
        # Torch is only the caller here (the inputs, the outputs it copies); its
        # OpenMP workers, woken by those copies, spun on through the system's own
        # threads (ours: 15% of the samples in libgomp at d=512 seq 128).
        torch.set_num_threads(1)
    # What setting up left behind (modules, exported programs) is no garbage: frozen, the
    # collector skips it instead of walking it during the timed calls (5-8% of ours' samples).
    gc.freeze()
    results = {}
    for job in json.loads(jobs_file.read_text()):
        stem = args.work / job["name"]
        try:
            inputs = torch.load(f"{stem}.inputs.pt")
            run, error = runner(system, job, inputs, torch.load(f"{stem}.expected.pt"))
            ms, runs = median_ms(run, args)
            results[job["name"]] = {"ms": ms, "runs": runs, "error": error}
            print(f"  {job['name']:24s} {TITLES[system]:18s} {ms:9.3f} ms ({runs} runs)  max err {error:.2e}", flush=True)  # fmt: skip
            del run
        except LookupError:
            pass  # does not apply: "–" in the table
        except Exception as error:  # noqa: BLE001 - reported in the table
            results[job["name"]] = {"note": summary(error)}
            print(f"  {job['name']:24s} {TITLES[system]:18s} failed: {summary(error)}", flush=True)  # fmt: skip
    print("RESULT " + json.dumps(results), flush=True)
    return 0


def run_system(system: str, jobs_file: Path, args) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--time-system", system,
               "--jobs", str(jobs_file), "--work", str(args.work), "--warmup", str(args.warmup),
               "--repeat", str(args.repeat), "--max-seconds", str(args.max_seconds)]  # fmt: skip
    command += ["--threads", str(args.threads)] if args.threads else []
    env = dict(os.environ, MLXD_COMPILE="0") if system == "ours-nocompile" else None
    print(f"{TITLES[system]} (a process of its own{', MLXD_COMPILE=0' if env else ''}):", flush=True)  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    results = None
    for line in process.stdout:
        if line.startswith("RESULT "):
            results = json.loads(line[len("RESULT ") :])
        elif line.startswith("  "):
            print(line, end="", flush=True)
    stderr = process.stderr.read()
    if process.wait() != 0 or results is None:
        print(f"  {TITLES[system]} failed (exit {process.returncode}): {stderr.strip()[-1500:]}")
        return {"*": {"note": f"subprocess exit {process.returncode}"}}
    return results


def set_threads(n: int) -> None:
    """n threads for torch, XNNPACK (ExecuTorch's threadpool) and OpenBLAS (read
    when the library loads: before any program)."""
    os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = str(n)
    torch.set_num_threads(n)
    from executorch.extension.pybindings import portable_lib

    portable_lib._unsafe_reset_threadpool(n)


def run_cpu(args) -> None:
    started, load = time.perf_counter(), os.getloadavg()[0]
    jobs = [dict(name=BlockConfig.parse(s).name, kind="block") for s in args.sizes]
    for name, dtype in zoo_selection(args.models):
        label = str(dtype).removeprefix("torch.")
        jobs.append(dict(name=f"{name}[{label}]", kind="zoo", model=name, dtype=label))
    notes = {}
    print("export and lower:", flush=True)
    for job in jobs:
        prepare_job(job, args, notes)
    jobs_file = args.work / "jobs.json"
    jobs_file.write_text(json.dumps(jobs))
    print(f"(lowered in {time.perf_counter() - started:.0f} s)", flush=True)
    rows = []
    for job in jobs:
        if job["kind"] == "block":
            c = BlockConfig.parse(job["name"])
            rows.append(Row(c.name, c.label, "block", c.params))
        else:
            model, _ = build(job)
            params = sum(p.numel() for p in model.parameters())
            rows.append(Row(job["name"], f"{job['model']} {job['dtype']}", "zoo", params))
    for round_ in range(args.rounds):  # in order, then in reverse: the lower median counts
        for system in args.systems if round_ % 2 == 0 else args.systems[::-1]:
            results = run_system(system, jobs_file, args)
            for row in rows:
                got = results.get(row.name) or results.get("*")
                if (row.name, EXECUTORCH_SYSTEMS.get(system)) in notes:
                    row.notes[system] = notes[(row.name, EXECUTORCH_SYSTEMS[system])]
                elif got and "ms" in got:
                    if got["ms"] < row.ms.get(system, float("inf")):
                        row.ms[system], row.runs[system] = got["ms"], got["runs"]
                    row.errors[system] = got["error"]
                    row.notes.pop(system, None)
                elif got and system not in row.ms:
                    row.notes[system] = got["note"]
    load = f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"
    systems = [s for s in CPU_SYSTEMS if s in args.systems]
    threads = f"{args.threads} thread(s) each" if args.threads else "each system's default threads"
    title = f"CPU: {cpu_name()}, {os.cpu_count()} cores, torch {torch.__version__.split('+')[0]}, {threads}, {our_cpu_plugin()}"  # fmt: skip
    result = dict(
        title=title,
        context=load,
        reference="y_eager| (torch eager on this CPU, in the row's dtype)",
        device="cpu",
        systems=systems,
        rows=[dataclasses.asdict(r) for r in rows],
        targets=cpu_targets(rows),
        settings=settings(args)
        + f", each system in a process of its own, the lower of {args.rounds} such medians",
    )
    report(result, ratios=(("xnnpack", "ours ÷ XNNPACK"), ("eager", "ours ÷ eager")))
    print(f"\n(whole run: {time.perf_counter() - started:.0f} s)")
    (args.work / "models_cpu.json").write_text(json.dumps(result, indent=1))
    if args.png:
        plot(result, Path(args.png))


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def cpu_targets(rows: list[Row]) -> list[str]:
    lines = []
    target = next((r for r in rows if r.name == CPU_TARGET_SIZE), None)
    if target and "ours" in target.ms and "xnnpack" in target.ms:
        ratio = target.ms["ours"] / target.ms["xnnpack"]
        lines.append(
            f"ours ≤ 1.0× XNNPACK's time at d=512 seq 128: {target.ms['ours']:.3f} ms vs "
            f"{target.ms['xnnpack']:.3f} ms ({ratio:.2f}×): {'met' if ratio <= 1.0 else 'not met'}"
        )
    compared = [r for r in rows if "ours" in r.ms and "eager" in r.ms]
    if compared:
        slower = [r for r in compared if r.ms["ours"] > r.ms["eager"]]
        names = ", ".join(f"{r.name} ({r.ms['ours'] / r.ms['eager']:.2f}×)" for r in slower)
        lines.append(
            f"ours never slower than torch eager: slower in {len(slower)} of {len(compared)} rows"
            + (f" ({names})" if slower else "")
            + (": not met" if slower else ": met")
        )
    return lines


def settings(args) -> str:
    return f"median of up to {args.repeat} runs after {args.warmup} warm-up runs (at least 3; fewer once {args.max_seconds:g} s are spent)"  # fmt: skip


# ---- the GPU side: here ---------------------------------------------------------------


def prepare_gpu(args) -> None:
    """Here: per block size our .pte, the weights, the input and eager's output."""
    from mlx_delegate.formats.tensor_bin import read_tensors, write_tensors

    out = args.prepare_gpu
    out.mkdir(parents=True, exist_ok=True)
    manifest = {"sizes": [], "seed": 0, "tiled": True, "torch": torch.__version__}
    for name in args.sizes:
        c = BlockConfig.parse(name)
        start = time.perf_counter()
        weights = seeded_weights(c, seed=0, tiled=True)
        model, x = torch_block(c, weights), example_input(c)
        with torch.no_grad():
            expected = model(x)
        pte = args.work / f"gpu-{c.name}.pte"
        pte.write_bytes(lower(torch.export.export(model, (x,), strict=False), "ours"))
        _gzip(pte, out / f"{c.name}.pte.gz")
        npz = args.work / f"gpu-{c.name}.weights.npz"
        np.savez(npz, **weights)
        _gzip(npz, out / f"{c.name}.weights.npz.gz")
        write_tensors(out / f"{c.name}.x.bin", [x])
        assert torch.equal(read_tensors(out / f"{c.name}.x.bin")[0], x)
        assert np.array_equal(read_float32_bin(out / f"{c.name}.x.bin")[0], x.numpy())
        np.save(out / f"{c.name}.expected.npy", expected.numpy())
        manifest["sizes"].append(c.name)
        mib = pte.stat().st_size / 2**20
        print(f"{c.label}: {c.params:,} parameters, .pte {mib:.1f} MiB, {time.perf_counter() - start:.1f} s")  # fmt: skip
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    if args.with_matplotlib:
        _matplotlib_wheels(out / "wheels")
    total = 0
    for f in sorted(p for p in out.rglob("*") if p.is_file()):
        total += f.stat().st_size
        print(f"  {f.relative_to(out)}: {f.stat().st_size / 2**10:,.0f} KiB")
    print(f"{out}: {total / 2**20:.2f} MiB in all")


def _matplotlib_wheels(directory: Path) -> None:
    """matplotlib and what it needs beyond numpy, for the GPU machine's Python 3.12
    (about 24 MiB: carry them only in a call that does not also carry .gpu/p3)."""
    command = [sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:",
               "--python-version", "3.12", "--implementation", "cp",
               "--platform", "manylinux_2_28_x86_64", "--platform", "manylinux_2_17_x86_64",
               "--platform", "manylinux2014_x86_64", "-d", str(directory),
               "matplotlib==3.11.2"]  # fmt: skip
    subprocess.run(command, check=True)
    for wheel in directory.glob("numpy-*.whl"):
        wheel.unlink()  # the GPU machine has its own


def _gzip(source: Path, target: Path) -> None:
    with open(source, "rb") as src, gzip.open(target, "wb", compresslevel=6) as dst:
        shutil.copyfileobj(src, dst, 1 << 24)


def _gunzip(source: Path, target: Path) -> Path:
    with gzip.open(source, "rb") as src, open(target, "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 24)
    return target


def read_float32_bin(path: Path) -> list[np.ndarray]:
    """The float32 tensors of an mlxd-run .bin file, through the torch- and
    ExecuTorch-free reader (mlx_delegate/formats/tensor_bin_format.py, numpy and the
    flatbuffers package only), which the GPU side may import."""
    from mlx_delegate.formats.tensor_bin_format import read_arrays

    arrays = read_arrays(path)
    for index, (dtype, _) in enumerate(arrays):
        if dtype != "float32":
            raise ValueError(f"{path}: entry {index} is {dtype}, not a float32 tensor")
    return [array.copy() for _, array in arrays]


# ---- the GPU side: there --------------------------------------------------------------


# Ours that need neither ExecuTorch nor torch: the .bin tensor file reader.
_GPU_MODULES = ("mlx_delegate", "mlx_delegate._quiet", "mlx_delegate._layout", "mlx_delegate.formats",
                "mlx_delegate.formats._generated", "mlx_delegate.formats.tensor_bin_format")  # fmt: skip


class _NoExecuTorch:
    """The GPU machine has no ExecuTorch Python: --gpu refuses to import it (and
    our modules that do), here too, so a test here shows the path does without."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name in _GPU_MODULES or name.startswith("mlx_delegate.formats._generated."):
            return None
        if name.split(".")[0] in ("executorch", "mlx_delegate"):
            raise ImportError(f"--gpu must not import {name}")
        return None


def run_gpu(args) -> None:
    sys.meta_path.insert(0, _NoExecuTorch)
    on_gpu = args.device == "gpu"
    torch_device = "cuda" if on_gpu else "cpu"
    directory, work = args.gpu, args.work
    work.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((directory / "manifest.json").read_text())
    sizes = [s for s in manifest["sizes"] if s in args.sizes]
    rows, started = [], time.perf_counter()
    blocks, splits = {}, {}
    for name in sizes:  # ours first, each size in an mlxd-run process of its own
        c = BlockConfig.parse(name)
        print(f"{c.label}:", flush=True)
        row = Row(c.name, c.label, "block", c.params)
        rows.append(row)
        pte = _gunzip(directory / f"{name}.pte.gz", work / f"{name}.pte")
        npz = _gunzip(directory / f"{name}.weights.npz.gz", work / f"{name}.weights.npz")
        x_bin = directory / f"{name}.x.bin"
        blocks[name] = (c, npz, x_bin)
        expected = np.load(directory / f"{name}.expected.npy")
        for system, env in (("ours", {}), ("ours-nocompile", {"MLXD_COMPILE": "0"})):
            if system in args.systems:
                _mlxd_run(row, system, args, pte, x_bin, expected, env, on_gpu)
        if args.split:
            splits[name] = _ours_split(row, args, pte, x_bin, on_gpu)
    if set(MLX_SYSTEMS) & set(args.systems):
        _mlx_subprocess(rows, args)
    for row in rows:  # torch last: its CUDA context is not there while the others run
        c, npz, x_bin = blocks[row.name]
        print(f"{c.label}:", flush=True)
        expected = np.load(directory / f"{row.name}.expected.npy")
        _torch_eager(
            row, c, _load_npz(npz), read_float32_bin(x_bin)[0], expected, args, torch_device
        )
    systems = [s for s in GPU_SYSTEMS if s in args.systems]
    result = dict(
        title=f"{gpu_name(on_gpu)}: torch {torch.__version__}, MLX {mlx_version()}, weights tiled",
        device=args.device,
        reference="y_eager| (torch eager fp32 on the CPU where DIR was prepared)",
        systems=systems,
        rows=[dataclasses.asdict(r) for r in rows],
        targets=gpu_targets(rows),
        settings=settings(args) + "; ours: mlxd-run's median of --repeat runs",
        splits=splits,
    )
    text = report(result, ratios=(("mlx-compiled", "ours ÷ MLX compiled"), ("eager-fp32", "ours ÷ eager fp32")))  # fmt: skip
    if splits:
        text += "\n\n" + split_table(rows, splits)
        print("\n" + split_table(rows, splits))
    print(f"\n(whole run: {time.perf_counter() - started:.0f} s)")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "models_gpu.md").write_text(text + "\n")
    (args.out / "models_gpu.json").write_text(json.dumps(result, indent=1))
    try:
        plot(result, args.out / "models_gpu.png")
    except ImportError:
        print(f"no matplotlib here: draw the plot with `python bench/models.py --plot {args.out}/models_gpu.json --png bench/models_gpu.png`")  # fmt: skip


def _load_npz(path: Path) -> dict:
    with np.load(path) as loaded:
        return {k: loaded[k] for k in loaded.files}


def _mlx_subprocess(rows: list[Row], args) -> None:
    """MLX in a process of its own (no torch CUDA context beside it; a failure
    there leaves the other columns)."""
    command = [sys.executable, str(Path(__file__).resolve()), "--mlx-worker", "--gpu", str(args.gpu),
               "--work", str(args.work), "--device", args.device, "--sizes", ",".join(r.name for r in rows),
               "--systems", ",".join(args.systems), "--warmup", str(args.warmup),
               "--repeat", str(args.repeat), "--max-seconds", str(args.max_seconds)]  # fmt: skip
    print("MLX (a subprocess):", flush=True)
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    print(done.stdout.rsplit("\n", 2)[0] if done.stdout else "", flush=True)
    results = {}
    if done.returncode == 0:
        results = json.loads(done.stdout.strip().splitlines()[-1])
    else:
        print(f"MLX failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}", flush=True)
    for row in rows:
        got = results.get(row.name)
        for system in MLX_SYSTEMS:
            if system not in args.systems:
                continue
            if got and system in got["ms"]:
                row.ms[system], row.runs[system] = got["ms"][system], got["runs"][system]
                row.errors[system] = got["errors"][system]
            else:
                row.notes[system] = (got or {}).get("notes", {}).get(system, f"MLX subprocess exit {done.returncode}")  # fmt: skip


def mlx_runners(row: Row, c: BlockConfig, weights, x: np.ndarray, expected, args, device) -> dict:
    import mlx.core as mx

    from llama_block import mlx_functions, mlx_weights

    mx.set_default_device(mx.gpu if device == "gpu" else mx.cpu)
    w, xm = mlx_weights(weights), mx.array(x)
    plain, compiled = mlx_functions(c)
    runners = {
        "mlx": lambda: mx.eval(plain(w, xm)),
        "mlx-compiled": lambda: mx.eval(compiled(w, xm)),
        # as a call of ours: the input from the host's memory, the output back to it
        "mlx-compiled-host": lambda: np.array(compiled(w, mx.array(x))),
    }
    runners = {system: run for system, run in runners.items() if system in args.systems}
    for system in runners:
        forward = plain if system == "mlx" else compiled
        row.errors[system] = max_error(expected, np.array(forward(w, xm)))
    return runners


def mlx_worker(args) -> int:
    """The --mlx-worker subprocess of --gpu: MLX on the weights of DIR."""
    sys.meta_path.insert(0, _NoExecuTorch)
    results = {}
    for name in args.sizes:
        c = BlockConfig.parse(name)
        row = Row(c.name, c.label, "block", c.params)
        try:
            weights = _load_npz(args.work / f"{name}.weights.npz")
            x = read_float32_bin(args.gpu / f"{name}.x.bin")[0]
            expected = np.load(args.gpu / f"{name}.expected.npy")
            time_row(row, mlx_runners(row, c, weights, x, expected, args, args.device), args)
        except Exception as error:  # noqa: BLE001 - reported in the table
            row.notes = {s: summary(error) for s in MLX_SYSTEMS if s not in row.ms}
        results[name] = dataclasses.asdict(row)
    print(json.dumps(results))
    return 0


def _mlxd_run(row, system, args, pte, x_bin, expected, env, on_gpu) -> None:
    out_bin = args.work / f"{row.name}.{system}.out.bin"
    command = [str(args.runner), str(pte), "--inputs", str(x_bin), "--outputs", str(out_bin),
               "--device", "gpu:0" if on_gpu else "cpu", "--warmup", str(args.warmup),
               "--repeat", str(args.repeat)]  # fmt: skip
    try:
        done = subprocess.run(command, env=dict(os.environ, **env), capture_output=True, text=True, timeout=300)  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"mlxd-run exit {done.returncode}: {done.stderr.strip()[-300:]}")
        found = re.search(r"runs: (\d+) \(warm-up \d+\); latency ms: median ([\d.]+)", done.stdout)
        if not found:
            raise RuntimeError(f"no latency in mlxd-run's output: {done.stdout[-300:]}")
        actual = read_float32_bin(out_bin)[0]
        record(row, system, (float(found.group(2)), int(found.group(1))), max_error(expected, actual))  # fmt: skip
    except Exception as error:  # noqa: BLE001 - reported in the table
        row.notes[system] = summary(error)
        print(f"  {row.name:24s} {TITLES[system]:18s} failed: {row.notes[system]}", flush=True)


SPLIT_PARTS = ("built", "evaluated", "copied out")


def _ours_split(row, args, pte, x_bin, on_gpu) -> dict:
    """Where a call of ours goes, from the plugin's debug log (a run of its own,
    --repeat timed calls, medians): the graph built, evaluated (the host waits for
    the device), the output copied out, and the rest of mlxd-run's latency
    (ExecuTorch's call, the input bound into MLX's memory)."""
    out_bin = args.work / f"{row.name}.split.out.bin"
    command = [str(args.runner), str(pte), "--inputs", str(x_bin), "--outputs", str(out_bin),
               "--device", "gpu:0" if on_gpu else "cpu", "--warmup", str(args.warmup),
               "--repeat", str(args.repeat)]  # fmt: skip
    env = dict(os.environ, MLX_DELEGATE_LOG="debug")
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    found = re.search(r"latency ms: median ([\d.]+)", done.stdout)
    calls = plugin_log.calls(done.stderr)[-args.repeat :]
    if done.returncode != 0 or not found or not calls:
        return {"note": f"mlxd-run exit {done.returncode}: {done.stderr.strip()[-300:]}"}
    columns = dict(zip(plugin_log.FIELDS, zip(*calls)))
    split = {part: statistics.median(columns[part]) for part in SPLIT_PARTS}
    split["call"] = float(found[1])
    split["rest"] = split["call"] - sum(split[part] for part in SPLIT_PARTS)
    split["census"] = plugin_log.census(done.stderr)
    return split


def split_table(rows: list[Row], splits: dict) -> str:
    lines = [
        "Where a call of ours goes (ms, medians; the plugin's debug log, a run of its own):",
        "",
        "| block | built | evaluated | copied out | rest (ExecuTorch, input bound) | call | primitives |",  # fmt: skip
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        split = splits.get(row.name)
        if split is None or "note" in split:
            lines.append(f"| {row.label} | {(split or {}).get('note', '–')} |")
            continue
        cells = [f"{split[k]:.3f}" for k in (*SPLIT_PARTS, "rest", "call")]
        lines.append(f"| {row.label} | " + " | ".join(cells) + f" | {split['census']} |")
    return "\n".join(lines)


def _torch_eager(row, c, weights, x, expected, args, device) -> None:
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    runners = {}
    for system, dtype in (("eager-fp32", torch.float32), ("eager-bf16", torch.bfloat16)):
        if system not in args.systems:
            continue
        model = torch_block(c, weights).to(device=device, dtype=dtype)
        model.inv_freq = model.inv_freq.to(torch.float32)  # rope angles in fp32, as llm/ does
        xt = torch.from_numpy(x).to(device=device, dtype=dtype)

        def run(model=model, xt=xt):
            with torch.no_grad():
                model(xt)
            sync()

        with torch.no_grad():
            row.errors[system] = max_error(expected, model(xt).float().cpu().numpy())
        runners[system] = run
    time_row(row, runners, args)
    runners.clear()
    if device == "cuda":
        torch.cuda.empty_cache()


def gpu_name(on_gpu: bool) -> str:
    if on_gpu and torch.cuda.is_available():
        return torch.cuda.get_device_name(0)
    return f"CPU ({cpu_name()}, {os.cpu_count()} cores; --device cpu)"


def mlx_version() -> str:
    from importlib import metadata  # not importing MLX beside torch's CUDA context

    try:
        return metadata.version("mlx")
    except metadata.PackageNotFoundError:
        return "-"


def gpu_targets(rows: list[Row]) -> list[str]:
    target = next((r for r in rows if r.name == GPU_TARGET_SIZE), None)
    if target is None or "ours" not in target.ms:
        return [f"no {GPU_TARGET_SIZE} row with ours in it"]
    ours, lines = target.ms["ours"], []
    if "mlx-compiled" in target.ms:  # issue 22's target (an earlier issue's: 1.05×)
        ratio = ours / target.ms["mlx-compiled"]
        lines.append(
            f"ours ≤ 1.2× MLX compiled's time at d=2048 seq 1: {ours:.3f} ms vs "
            f"{target.ms['mlx-compiled']:.3f} ms ({ratio:.2f}×): {'met' if ratio <= 1.2 else 'not met'}"  # fmt: skip
        )
    if "eager-fp32" in target.ms:
        speedup = target.ms["eager-fp32"] / ours
        lines.append(
            f"ours ≥ 2.5× faster than torch eager fp32 at d=2048 seq 1: {ours:.3f} ms vs "
            f"{target.ms['eager-fp32']:.3f} ms ({speedup:.2f}× faster): {'met' if speedup >= 2.5 else 'not met'}"  # fmt: skip
        )
    return lines


# ---- the table and the plot -------------------------------------------------------------


def report(result: dict, ratios) -> str:
    """Prints (and returns) the markdown table and the target lines."""
    systems = result["systems"]
    header = ["input", "params"] + [TITLES[s] + " ms" for s in systems]
    header += [title for peer, title in ratios if peer in systems and "ours" in systems]
    header += ["err ours", "err MLX"]
    lines = [result["title"] + (f" ({result['context']})" if result.get("context") else "")]
    lines += ["", "| " + " | ".join(header) + " |"]
    lines.append("|" + "---|" * len(header))
    for r in result["rows"]:
        cells = [r["label"], f"{r['params'] / 1e6:.2f}M"]
        for s in systems:
            if s in r["ms"]:
                cells.append(f"{r['ms'][s]:.3f}")
            elif s in r["notes"]:
                cells.append("error")
            else:
                cells.append("–")
        for peer, _ in ratios:
            if peer in systems and "ours" in systems:
                both = "ours" in r["ms"] and peer in r["ms"]
                cells.append(f"{r['ms']['ours'] / r['ms'][peer]:.2f}×" if both else "–")
        cells.append(f"{r['errors']['ours']:.1e}" if "ours" in r["errors"] else "–")
        mlx = [r["errors"][s] for s in MLX_SYSTEMS if s in r["errors"]]
        cells.append(f"{max(mlx):.1e}" if mlx else "–")
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        f"Latency in ms, {result['settings']}. Ratios are ours' time over the peer's (< 1: ours "
        f"faster). err: max |y - {result['reference']}."
    )
    for r in result["rows"]:
        for s, note in r["notes"].items():
            lines.append(f"- {r['label']}, {TITLES[s]}: {note}")
    lines.append("")
    lines += [f"- target: {t}" for t in result["targets"]]
    text = "\n".join(lines)
    print("\n" + text, flush=True)
    return text


STYLES = {
    "ours": ("tab:red", "o", "-"),
    "ours-nocompile": ("tab:red", "o", ":"),
    "ours-unjoined": ("tab:orange", "o", "-."),
    "xnnpack": ("tab:blue", "s", "-"),
    "portable": ("tab:gray", "v", "-"),
    "eager": ("tab:green", "^", "-"),
    "eager-fp32": ("tab:green", "^", "-"),
    "eager-bf16": ("tab:olive", "^", "--"),
    "mlx": ("tab:purple", "D", "--"),
    "mlx-compiled": ("tab:purple", "D", "-"),
    "mlx-compiled-host": ("tab:purple", "D", "-."),
}


def plot(result: dict, png: Path) -> None:
    """Latency (log) of each system against the block size; blocks only."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in result["rows"] if r["kind"] == "block"]
    if not rows:
        return
    rows.sort(key=lambda r: r["params"])
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=90)
    ticks = [f"d={BlockConfig.parse(r['name']).dim}\nseq {BlockConfig.parse(r['name']).seq}\n{r['params'] / 1e6:.1f}M" for r in rows]  # fmt: skip
    for s in result["systems"]:
        points = [(i, r["ms"][s]) for i, r in enumerate(rows) if s in r["ms"]]
        if points:
            color, marker, line = STYLES.get(s, ("black", ".", "-"))
            xs, ys = zip(*points)
            ax.plot(xs, ys, marker=marker, linestyle=line, color=color, label=TITLES[s], markersize=5)  # fmt: skip
    ax.set_yscale("log")
    ax.set_xticks(range(len(rows)), ticks, fontsize=8)
    ax.set_ylabel("latency, ms (log)")
    ax.set_xlabel("llama-like block (fp32): width, tokens, parameters")
    ax.set_title(result["title"], fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2, loc="best")
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    fig.savefig(buffer, dpi=90, format="png")
    plt.close(fig)
    from PIL import Image  # matplotlib's own dependency

    image = Image.open(buffer).convert("RGB").quantize(colors=64)  # small in git
    image.save(png, optimize=True)
    print(f"wrote {png} ({png.stat().st_size / 1024:.0f} KiB)")


# ---- the command ---------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="bench/models.py", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default=None, help=f"blocks, 'none' for none (default: CPU {CPU_SIZES}; GPU {GPU_SIZES})")  # fmt: skip
    parser.add_argument("--models", default="all", help="zoo models (llama, llama[bfloat16]), 'all' or 'none'")  # fmt: skip
    parser.add_argument("--systems", default=None, help="comma-separated (default: all of the side's)")  # fmt: skip
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--max-seconds", type=float, default=0.5, help="per number (at least 3 runs)")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=2, help="CPU: passes over the systems; the lower median counts")  # fmt: skip
    parser.add_argument("--threads", type=int, default=None, help="CPU threads of every system (default: each one's own)")  # fmt: skip
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--png", default=str(HERE / "models_cpu.png"), help="the CPU plot ('' for none)")  # fmt: skip
    parser.add_argument("--prepare-gpu", type=Path, default=None, metavar="DIR")
    parser.add_argument("--with-matplotlib", action="store_true", help="--prepare-gpu: add matplotlib's wheels (~24 MiB)")  # fmt: skip
    parser.add_argument("--gpu", type=Path, default=None, metavar="DIR")
    parser.add_argument("--runner", type=Path, default=REPO / "build" / "runtime" / "mlxd-run")
    parser.add_argument("--device", choices=("gpu", "cpu"), default="gpu", help="--gpu: where")
    parser.add_argument("--split", action="store_true", help="--gpu: where a call of ours goes (the plugin's debug log)")  # fmt: skip
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "/tmp/out")))
    parser.add_argument("--plot", type=Path, default=None, metavar="JSON", help="draw a saved run into --png")  # fmt: skip
    parser.add_argument("--time-system", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--jobs", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--mlx-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    gpu_side = bool(args.gpu or args.prepare_gpu)
    args.sizes = (args.sizes or (GPU_SIZES if gpu_side else CPU_SIZES)).split(",")
    args.sizes = [] if args.sizes == ["none"] else args.sizes
    args.systems = (args.systems or ",".join(GPU_SYSTEMS if args.gpu else CPU_SYSTEMS)).split(",")
    default_work = Path("/tmp/models-work") if args.gpu else REPO / "build" / "bench" / "models"
    args.work = args.work or default_work
    args.work.mkdir(parents=True, exist_ok=True)
    if args.threads and not args.gpu:
        set_threads(args.threads)
    if args.time_system:
        return time_system(args.time_system, args.jobs, args)
    if args.mlx_worker:
        return mlx_worker(args)
    if args.plot:
        plot(json.loads(args.plot.read_text()), Path(args.png))
    elif args.prepare_gpu:
        prepare_gpu(args)
    elif args.gpu:
        run_gpu(args)
    else:
        run_cpu(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
