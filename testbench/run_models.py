"""Runs the model zoo (testbench/models.py).

    python -m testbench.run_models [-j N] [--list] [--runs N] [--no-xnnpack] [NAMES...]

NAMES are models (`llama`) or one dtype of a model (`llama[bfloat16]`). Each
model is exported once (`torch.export.export(..., strict=False)`), lowered with
MLXPartitioner, run through `executorch.runtime` on the CPU plugin and compared
with PyTorch eager in the same dtype; the same export is also lowered with
XNNPACK's partitioner and run in the same process, for the latency beside ours.
Prints a table (model, parameters, delegates, ops left outside, max error,
median latencies) and a FAIL line per failing model, and exits 1 when any model
fails: more than one delegate, an op outside that the model does not list, an
error above tolerance, or an exception (whose stage and message are reported)."""

from __future__ import annotations

import argparse
import copy
import operator
import statistics
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Iterator, Optional

import torch

from mlx_delegate import _quiet
from mlx_delegate._progress import progress
from . import tolerance
from .framework import _flatten, compare, execute_compiled_and_interpreted, to_output
from .models import ModelCase, all_models, dtype_label


@dataclass
class ModelResult:
    name: str
    dtype: str
    params: int = 0
    delegates: Optional[int] = None
    outside: dict = field(default_factory=dict)  # op name -> count
    max_error: Optional[float] = None
    tolerance: tuple = ()
    latency_ms: Optional[float] = None
    xnnpack_ms: Optional[float] = None
    xnnpack_delegates: Optional[int] = None
    xnnpack_note: str = ""
    compile_s: Optional[float] = None
    problems: list = field(default_factory=list)
    stage: str = ""  # the step running: build, eager, export, lower, to_executorch, run

    @property
    def label(self) -> str:
        return f"{self.name}[{self.dtype}]"

    @property
    def passed(self) -> bool:
        return not self.problems

    @property
    def message(self) -> str:
        return "; ".join(self.problems)


def run_model(
    case: ModelCase, dtype: torch.dtype, device: str = "cpu", runs: int = 0, xnnpack: bool = False
) -> ModelResult:
    """Exports, lowers, checks the delegation, runs and compares one model in
    one dtype. With `runs`, also the median latency over that many executions
    (after one warm-up), ours and (with `xnnpack`) XNNPACK's. Exceptions are
    results: the stage and the message go to `problems`."""
    result = ModelResult(case.name, dtype_label(dtype), tolerance=case.tolerance(dtype))
    try:
        lowered = lower_model(case, dtype, result, device, keep_export=xnnpack)
        result.stage = "run"
        actual = execute_compiled_and_interpreted(lowered.pte, list(lowered.inputs))
        _, latency = execute(lowered.pte, lowered.inputs, runs) if runs else (None, None)
        result.latency_ms = latency
        result.max_error = max_error(lowered.expected, actual)
        problem = compare(case, lowered.expected, actual)
        if problem:
            result.problems.append(problem + worst(lowered.expected, actual))
    except Exception as error:  # one model's failure is a result, not the end of the run
        result.problems.append(f"{result.stage}: {summary(error)}")
        return result
    if xnnpack:
        try:
            result.xnnpack_delegates, result.xnnpack_ms = run_xnnpack(
                lowered.exported, lowered.inputs, runs
            )
        except Exception as error:  # reported beside the result, not a failure of ours
            result.xnnpack_note = summary(error)
    return result


@dataclass
class LoweredModel:
    inputs: tuple
    expected: list  # eager's outputs, flattened
    pte: bytes
    exported: Optional[torch.export.ExportedProgram] = None  # a copy, before our lowering


def lower_model(
    case: ModelCase,
    dtype: torch.dtype,
    result: ModelResult,
    device: Optional[str] = "cpu",
    keep_export: bool = False,
) -> LoweredModel:
    """Builds the model in `dtype`, runs it in eager, exports it
    (`strict=False`) and lowers it with MLXPartitioner. Records in `result`
    the parameter count, the delegation (a problem where it is not one
    delegate with only the allowed ops outside) and the compile time, and
    keeps `result.stage` at the step running, for the message of an exception."""
    from executorch.exir import to_edge_transform_and_lower

    from mlx_delegate.compiler.partitioner import MLXPartitioner

    result.stage = "build"
    model, inputs = case.build(dtype)
    result.params = sum(p.numel() for p in model.parameters())
    result.stage = "eager"
    with torch.no_grad():
        expected = _flatten(model(*inputs))
    result.stage = "export"
    start = time.perf_counter()
    exported = torch.export.export(model, inputs, strict=False)
    kept = copy.deepcopy(exported) if keep_export else None
    result.stage = "lower"
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device=device)])
    result.delegates, result.outside = delegation(edge.exported_program().graph_module)
    problem = delegation_problem(result.delegates, result.outside, case.outside)
    if problem:
        result.problems.append(problem)
    result.stage = "to_executorch"
    pte = edge.to_executorch().buffer
    result.compile_s = time.perf_counter() - start
    return LoweredModel(inputs, expected, pte, kept)


def delegation(graph_module: torch.fx.GraphModule) -> tuple[int, dict]:
    """(number of delegates, {op left outside: count}) of a lowered graph."""
    delegates, outside = 0, Counter()
    for node in graph_module.graph.nodes:
        if node.op != "call_function" or node.target is operator.getitem:
            continue
        if "executorch_call_delegate" in str(node.target):
            delegates += 1
        else:
            outside[op_name(node)] += 1
    return delegates, dict(outside)


def delegation_problem(delegates: int, outside: dict, allowed) -> Optional[str]:
    """Why a lowering is not one delegate with only the allowed ops outside
    (`allowed` holds substrings of op names, as framework.check_delegation's)."""
    problems = []
    if delegates != 1:
        problems.append(f"{delegates} delegates (expected 1)")
    unexpected = {op: n for op, n in outside.items() if not any(a in op for a in allowed)}
    if unexpected:
        problems.append("outside: " + _ops(unexpected))
    return "; ".join(problems) or None


def _ops(counts: dict) -> str:
    return ", ".join(op + (f" x{n}" if n > 1 else "") for op, n in sorted(counts.items()))


def op_name(node) -> str:
    name = str(getattr(node.target, "__name__", node.target))
    return name.removeprefix("aten.").removesuffix(".default")


def execute(pte: bytes, inputs: tuple, runs: int) -> tuple[list, Optional[float]]:
    import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte)  # the method needs its program alive
    method = program.load_method("forward")
    outputs = list(method.execute(list(inputs)))
    latency = median_ms(lambda: method.execute(list(inputs)), runs) if runs else None
    return outputs, latency


def run_xnnpack(exported, inputs: tuple, runs: int) -> tuple[int, Optional[float]]:
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower

    edge = to_edge_transform_and_lower(exported, partitioner=[XnnpackPartitioner()])
    delegates, _ = delegation(edge.exported_program().graph_module)
    _, latency = execute(edge.to_executorch().buffer, inputs, runs)
    return delegates, latency


def median_ms(run, runs: int) -> float:
    run()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def max_error(expected: list, actual: list) -> Optional[float]:
    return tolerance.max_error([to_output(t) for t in expected], [to_output(t) for t in actual])


def worst(expected: list, actual: list) -> str:
    """Where the largest difference is, and the values there."""
    best = None
    for i, (want, got) in enumerate(zip(expected, actual)):
        if want.is_floating_point() and tuple(got.shape) == tuple(want.shape) and want.numel():
            diff = (got.float() - want.float()).abs().nan_to_num(float("inf"))
            flat = int(diff.argmax())
            if best is None or diff.view(-1)[flat] > best[0]:
                best = (diff.view(-1)[flat], i, flat, want, got)
    if best is None:
        return ""
    _, i, flat, want, got = best
    index = tuple(int(x) for x in torch.unravel_index(torch.tensor(flat), want.shape))
    return (
        f" (largest at output {i} index {index}: {got.reshape(-1)[flat].item():.4g}, "
        f"eager {want.reshape(-1)[flat].item():.4g})"
    )


def summary(error: BaseException) -> str:
    """The exception's type and the first line of its message."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")


# ---- the command --------------------------------------------------------------------


def selection(names: list[str]) -> list[tuple[str, torch.dtype]]:
    models = all_models()
    work = []
    for name in names or sorted(models):
        base, _, dtype = name.partition("[")
        if base not in models:
            raise KeyError(name)
        dtypes = [
            d for d in models[base].dtypes if not dtype or dtype_label(d) == dtype.rstrip("]")
        ]
        if not dtypes:
            raise KeyError(name)
        work += [(base, d) for d in dtypes]
    return work


def run_one(name: str, dtype: torch.dtype, runs: int, xnnpack: bool) -> ModelResult:
    try:
        return run_model(all_models()[name], dtype, runs=runs, xnnpack=xnnpack)
    except Exception:
        result = ModelResult(name, dtype_label(dtype))
        result.problems.append(traceback.format_exc(limit=-3).strip())
        return result


def table(results: list[ModelResult]) -> str:
    """One row per result; the ops left outside come last, unpadded."""
    header = (
        "model",
        "params",
        "deleg.",
        "max err",
        "tol (rtol, atol)",
        "ours ms",
        "xnnpack ms",
        "compile s",
        "status",
        "outside the delegate",
    )
    rows = [header]
    for r in results:
        xnn = _ms(r.xnnpack_ms)
        if r.xnnpack_delegates is not None:
            xnn += f" ({r.xnnpack_delegates}d)"
        elif r.xnnpack_note:
            xnn = "error"
        rows.append(
            (
                r.label,
                f"{r.params:,}" if r.params else "-",
                "-" if r.delegates is None else str(r.delegates),
                "-" if r.max_error is None else f"{r.max_error:.2e}",
                f"{r.tolerance[0]:g}, {r.tolerance[1]:g}" if r.tolerance else "-",
                _ms(r.latency_ms),
                xnn,
                "-" if r.compile_s is None else f"{r.compile_s:.1f}",
                "PASS" if r.passed else "FAIL",
                _ops(r.outside) or ("-" if r.delegates is None else "none"),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    left = (0, 4, 8, 9)
    lines = []
    for i, row in enumerate(rows):
        lines.append(
            "  ".join(
                c.ljust(w) if j in left else c.rjust(w) for j, (c, w) in enumerate(zip(row, widths))
            ).rstrip()
        )
        if i == 0:
            lines.append("  ".join("-" * w for w in widths[:-1]) + "  " + "-" * len(header[-1]))
    return "\n".join(lines)


def _ms(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.2f}"


def run_all(work: list, runs: int, xnnpack: bool, jobs: int) -> list[ModelResult]:
    """The results in the order of `work`, `jobs` models at a time, with a progress bar and a
    PASS or FAIL line on stderr as each model finishes."""
    results = {}
    with progress(total=len(work), description="models", unit="model") as bar:
        for index, result in _finished(work, runs, xnnpack, jobs):
            results[index] = result
            bar.write(f"{'PASS' if result.passed else 'FAIL'} {result.label}", file=sys.stderr)
            bar.update()
    return [results[i] for i in range(len(work))]


def _finished(work: list, runs: int, xnnpack: bool, jobs: int) -> Iterator[tuple[int, ModelResult]]:
    """(index in `work`, result) of each model as it finishes."""
    if jobs <= 1:
        yield from ((i, run_one(*item, runs, xnnpack)) for i, item in enumerate(work))
        return
    context = get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_quiet.install) as pool:
        index = {pool.submit(run_one, *item, runs, xnnpack): i for i, item in enumerate(work)}
        yield from ((index[future], future.result()) for future in as_completed(index))


def main(argv=None) -> int:
    _quiet.install()
    parser = argparse.ArgumentParser(prog="python -m testbench.run_models")
    parser.add_argument(
        "names", nargs="*", help="models to run, or one dtype: llama[bfloat16] (default: all)"
    )
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="list the models and their dtypes")
    parser.add_argument("--runs", type=int, default=10, help="timed runs per latency (median)")
    parser.add_argument(
        "--no-xnnpack", dest="xnnpack", action="store_false", help="skip the XNNPACK comparison"
    )
    args = parser.parse_args(argv)
    try:
        work = selection(args.names)
    except KeyError as error:
        print(f"unknown model or dtype: {error.args[0]}", file=sys.stderr)
        return 2
    models = all_models()
    if args.list:
        for name in dict.fromkeys(name for name, _ in work):
            case = models[name]
            dtypes = ", ".join(dtype_label(d) for d in case.dtypes)
            print(f"{name} [{dtypes}]: {case.description}")
            for op, reason in case.outside.items():
                print(f"    outside allowed: {op}: {reason}")
        print(f"{len(set(n for n, _ in work))} models, {len(work)} runs")
        return 0
    n = len(work)
    results = run_all(work, args.runs, args.xnnpack, args.jobs)
    print(table(results))
    print()
    for r in results:
        if not r.passed:
            print(f"FAIL {r.label}: {r.message}")
        if r.xnnpack_note:
            print(f"note {r.label}: XNNPACK failed: {r.xnnpack_note}")
    failed = sum(not r.passed for r in results)
    print(
        f"{n - failed} passed, {failed} failed"
        + (
            f" (latencies: median of {args.runs} runs, CPU plugin; " f"ran {args.jobs} at a time)"
            if args.runs
            else ""
        )
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
