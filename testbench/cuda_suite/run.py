"""The run side of the CUDA suite: stdlib and numpy only (the GPU machine's
Python has no ExecuTorch bindings), so nothing here imports torch or
ExecuTorch, even indirectly.

    python3 -m testbench.cuda_suite run DIR|DIR.tar.gz --runner PATH/mlxd-run
        [--device gpu:0] [-j N] [--dtypes fp32,bf16,fp16] [--work W] [--results R.json]
        [--job-timeout S] [NAMES...]

Runs every ready item of the suite through `mlxd-run --batch` (the plugins
load once per process; -j processes share the items), compares each item's
outputs with the eager outputs recorded by the export side, by the
framework's rule (tolerance.py) and the item's tolerances, and prints a pass
table per dtype (op suite and zoo: passed / failed / n/a), one line per
failure with its error, and writes the results as JSON. A job that crashes
the runner (or hangs past --job-timeout) fails alone: the runner writes each
job's result as it ends, and the jobs after it run in a new process."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional

from mlx_delegate.formats.tensor_bin_format import TensorFileError, read_arrays

from ..tolerance import max_error, outputs_problem
from .manifest import (
    DTYPES,
    FAILED,
    MANIFEST,
    NOT_APPLICABLE,
    READY,
    SUITES,
    Item,
    parse_dtypes,
    read_manifest,
    sort_key,
)

PASSED = "pass"
MARKER = re.compile(r"^mlxd-run: job (\d+): ")  # the runner's line before job N
SUMMARY = re.compile(r"^mlxd-run: \d+ job\(s\), \d+ failed$")  # its last line
LOG_PREFIX = re.compile(r"^[DIWEF] [\d:.]+ [^ \]]*\] ")  # ExecuTorch's "E 00:00:01.234 file:12] "


@dataclass
class Job:
    """One ready item to run: its files, absolute."""

    item: Item
    pte: Path
    inputs: Path
    outputs: Path
    expected: Path


@dataclass
class JobRun:
    """What the runner said about a job."""

    ok: bool
    message: str = ""  # the error, and the job's log lines
    load_ms: Optional[float] = None
    run_ms: Optional[float] = None


@dataclass
class Result:
    suite: str
    name: str
    dtype: str
    status: str  # PASSED, FAILED or NOT_APPLICABLE
    stage: str = ""  # where it failed: export, run, compare
    message: str = ""
    max_error: Optional[float] = None
    load_ms: Optional[float] = None
    run_ms: Optional[float] = None


# ---- running the jobs -------------------------------------------------------------------


class BatchRunner:
    """Runs lists of jobs through `mlxd-run --batch`, recovering from crashes
    and hangs; shards run in parallel threads, one runner process each."""

    def __init__(self, runner: Path, device: str, work: Path, timeout: float, total: int):
        self.runner, self.device, self.work, self.timeout = runner, device, work, timeout
        self.progress = Progress(total)

    def run_shard(self, shard: int, jobs: list[Job]) -> dict[int, JobRun]:
        """id(job) -> its run, for every job of the shard."""
        runs: dict[int, JobRun] = {}
        pending, attempt = list(jobs), 0
        while pending:
            attempt += 1
            stem = self.work / f"shard{shard}.{attempt}"
            done, stopped = self._attempt(stem, pending)
            for job, run in zip(pending, done):
                runs[id(job)] = run
            if stopped is None:  # every job of this attempt has its result
                break
            culprit = pending[len(done)]
            runs[id(culprit)] = JobRun(False, stopped)
            self.progress.add(1, failed=1)
            pending = pending[len(done) + 1 :]
        return runs

    def _attempt(self, stem: Path, jobs: list[Job]) -> tuple[list[JobRun], Optional[str]]:
        """Runs `jobs` in one runner process: (the runs of the jobs that ended,
        in order; None, or why the process stopped before the next one)."""
        jobs_file, results_file, log_file = (
            Path(f"{stem}.{x}") for x in ("jobs", "results", "log")
        )
        jobs_file.write_text("".join(f"{j.pte} {j.inputs} {j.outputs}\n" for j in jobs))
        results_file.write_text("")
        command = [str(self.runner), "--batch", str(jobs_file), "--results", str(results_file)]
        command += ["--device", self.device] if self.device else []
        with open(log_file, "w") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
            hung = self._watch(process, results_file)
        lines = [ln for ln in results_file.read_text().splitlines() if ln.strip()]
        logs = job_logs(log_file.read_text(errors="replace"))
        runs = [parse_result(line, logs) for line in lines]
        if len(runs) == len(jobs):
            return runs, None
        log_tail = logs.get(len(runs), "")
        if hung:
            why = f"no result within {self.timeout:.0f} s: stopped (hung?)"
        elif process.returncode < 0:
            why = f"the runner crashed (signal {-process.returncode})"
        else:
            why = f"the runner exited with status {process.returncode} before this job ended"
        return runs, why + (f"; log: {log_tail}" if log_tail else "")

    def _watch(self, process: subprocess.Popen, results_file: Path) -> bool:
        """Waits for the process; kills it when no job ends for `timeout`
        seconds. True when it was killed."""
        seen, last = 0, time.monotonic()
        while process.poll() is None:
            time.sleep(0.1)
            now_seen = _count_lines(results_file)
            if now_seen != seen:
                self.progress.add(now_seen - seen)
                seen, last = now_seen, time.monotonic()
            elif time.monotonic() - last > self.timeout:
                process.kill()
                process.wait()
                return True
        self.progress.add(_count_lines(results_file) - seen)
        return False


def _count_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


def job_logs(text: str) -> dict[int, str]:
    """Job number -> its log lines (those after the runner's marker line for
    it), joined on one line."""
    logs: dict[int, list[str]] = {}
    current = None
    for line in text.splitlines():
        match = MARKER.match(line)
        if match:
            current = int(match.group(1))
            logs[current] = []
        elif current is not None and line.strip() and not SUMMARY.match(line):
            logs[current].append(LOG_PREFIX.sub("", line.strip()))
    return {n: " | ".join(lines[-6:])[-1500:] for n, lines in logs.items()}


def parse_result(line: str, logs: dict[int, str]) -> JobRun:
    fields = line.split("\t")
    number, status = int(fields[0]), fields[1]
    if status == "ok":
        return JobRun(True, load_ms=float(fields[2]), run_ms=float(fields[3]))
    message = fields[2] if len(fields) > 2 else "error"
    log = logs.get(number, "")  # the delegate's reason, where the runner's is generic
    return JobRun(False, f"{log} ({message})" if log else message)


class Progress:
    def __init__(self, total: int):
        self.total, self.count, self.failed = total, 0, 0
        self.start = self.last = time.monotonic()
        self.lock = threading.Lock()

    def add(self, count: int, failed: int = 0) -> None:
        with self.lock:
            self.count += count
            self.failed += failed
            now = time.monotonic()
            if now - self.last < 10 and (self.count < self.total or count == 0):
                return
            self.last = now
            print(
                f"ran {self.count}/{self.total} jobs in {now - self.start:.0f} s"
                + (f" ({self.failed} stopped the runner)" if self.failed else ""),
                file=sys.stderr,
                flush=True,
            )


def run_jobs(jobs: list[Job], runner: BatchRunner, processes: int) -> dict[int, JobRun]:
    # Contiguous shards of the sorted jobs: the dtypes of one op share a process,
    # so kernels a GPU backend compiles at run time are compiled in fewer of them.
    size = -(-len(jobs) // processes)
    shards = [jobs[k * size : (k + 1) * size] for k in range(processes)]
    runs: dict[int, JobRun] = {}
    threads = [
        threading.Thread(target=lambda k=k: runs.update(runner.run_shard(k, shards[k])))
        for k in range(processes)
        if shards[k]
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return runs


# ---- comparing ----------------------------------------------------------------------


def judge(job: Job, run: JobRun) -> Result:
    item = job.item
    result = Result(item.suite, item.name, item.dtype, FAILED, load_ms=run.load_ms)
    result.run_ms = run.run_ms
    if not run.ok:
        result.stage, result.message = "run", run.message
        return result
    try:
        expected, actual = read_arrays(job.expected), read_arrays(job.outputs)
    except (OSError, TensorFileError) as error:
        result.stage, result.message = "compare", str(error)
        return result

    def tolerance(dtype: str) -> tuple:
        if dtype not in item.tolerances:
            raise KeyError(f"no tolerance for {dtype} outputs")
        return tuple(item.tolerances[dtype])

    try:
        problem = outputs_problem(expected, actual, tolerance)
    except KeyError as error:
        problem = str(error.args[0])
    result.max_error = max_error(expected, actual)
    if problem:
        result.stage, result.message = "compare", problem
    else:
        result.status = PASSED
    return result


def not_run(item: Item) -> Result:
    """The result of an item the export side did not make ready."""
    if item.status == NOT_APPLICABLE:
        return Result(item.suite, item.name, item.dtype, NOT_APPLICABLE, message=item.reason)
    return Result(item.suite, item.name, item.dtype, FAILED, "export", item.reason)


# ---- reporting ----------------------------------------------------------------------


def table(results: list[Result], dtypes: list[str]) -> str:
    lines = ["| dtype | suite | passed | failed | n/a |", "|---|---|---|---|---|"]
    for dtype in dtypes:
        for suite in SUITES:
            count = Counter(r.status for r in results if r.dtype == dtype and r.suite == suite)
            lines.append(
                f"| {dtype} | {suite} | {count[PASSED]} | {count[FAILED]} "
                f"| {count[NOT_APPLICABLE]} |"
            )
    return "\n".join(lines)


def failure_lines(results: list[Result]) -> list[str]:
    return [
        f"FAIL {r.suite} {r.name} [{r.dtype}] ({r.stage}): {_first_line(r.message)}"
        for r in results
        if r.status == FAILED
    ]


def failure_groups(results: list[Result]) -> list[str]:
    """The failures counted by dtype, stage and message with its numbers
    blanked, most common first: what many failures share shows at once."""
    groups = Counter(
        (r.dtype, r.stage, re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "#", _first_line(r.message))[:140])
        for r in results
        if r.status == FAILED
    )
    return [
        f"failed {count:4d} [{dtype}] ({stage}): {message}"
        for (dtype, stage, message), count in sorted(groups.items(), key=lambda kv: -kv[1])
    ]


def not_applicable_lines(results: list[Result]) -> list[str]:
    """The n/a reasons with their counts, most common first."""
    reasons = Counter(
        (r.suite, r.dtype, _first_line(r.message)[:160])
        for r in results
        if r.status == NOT_APPLICABLE
    )
    return [
        f"n/a {count:4d} {suite} [{dtype}]: {reason}"
        for (suite, dtype, reason), count in sorted(reasons.items(), key=lambda kv: -kv[1])
    ]


def _first_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if len(lines) > 1 and lines[0].startswith("Traceback") else (lines or [""])[0]


# ---- the command --------------------------------------------------------------------


def locate_suite(source: Path, work: Path) -> Path:
    """The suite directory: `source`, or where its archive unpacks in `work`."""
    if source.is_dir():
        return source
    if not tarfile.is_tarfile(source):
        raise ValueError(f"{source}: neither a suite directory nor its .tar.gz")
    target = work / "suite"
    shutil.rmtree(target, ignore_errors=True)  # a suite unpacked before
    with tarfile.open(source) as tar:
        tar.extractall(target, filter="data")
    manifests = sorted(target.glob(f"*/{MANIFEST}"))
    if len(manifests) != 1:
        raise ValueError(f"{source}: expected one top folder holding {MANIFEST}")
    return manifests[0].parent


def select(items: list[Item], dtypes: list[str], names: list[str]) -> list[Item]:
    def wanted(item: Item) -> bool:
        base = item.name.partition("[")[0]
        return not names or any(n in (item.suite, item.name, base) for n in names)

    return sorted((i for i in items if i.dtype in dtypes and wanted(i)), key=sort_key)


def make_jobs(suite: Path, outputs: Path, items: list[Item]) -> list[Job]:
    jobs = []
    for item in items:
        if item.status != READY:
            continue
        files = {key: (suite / rel).resolve() for key, rel in item.files.items()}
        out = outputs / (item.files["pte"].removesuffix(".pte") + ".out.bin")
        out.parent.mkdir(parents=True, exist_ok=True)
        job = Job(item, files["pte"], files["inputs"], out.resolve(), files["expected"])
        if any(re.search(r"\s", str(p)) for p in (job.pte, job.inputs, job.outputs)):
            raise ValueError(f"{job.pte}: the runner's jobs file takes paths without spaces")
        jobs.append(job)
    return jobs


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m testbench.cuda_suite run")
    parser.add_argument("source", type=Path, help="the suite directory or its .tar.gz")
    parser.add_argument("names", nargs="*", help="ops, zoo, op tests, configurations, models")
    parser.add_argument("--runner", type=Path, required=True, help="the mlxd-run executable")
    parser.add_argument("--device", default="", help="mlxd-run --device (cpu, gpu:0...)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="runner processes at once")
    parser.add_argument("--dtypes", default=",".join(DTYPES), help="default: fp32,bf16,fp16")
    parser.add_argument("--work", type=Path, help="outputs and logs (default: SOURCE.run-DEVICE)")
    parser.add_argument(
        "--results", type=Path, help="the JSON results (default: WORK/results.json)"
    )
    parser.add_argument(
        "--job-timeout", type=float, default=300, help="seconds a job may run (default 300)"
    )
    args = parser.parse_intermixed_args(argv)
    try:
        dtypes = parse_dtypes(args.dtypes)
    except ValueError as error:
        print(f"run: {error}", file=sys.stderr)
        return 2
    if not args.source.exists():
        print(
            f"run: {args.source} does not exist (the suite directory or its .tar.gz)",
            file=sys.stderr,
        )
        return 2
    if not os.access(args.runner, os.X_OK):
        print(f"run: {args.runner} is not an executable (mlxd-run)", file=sys.stderr)
        return 2
    device_tag = re.sub(r"[^A-Za-z0-9]+", "", args.device) or "default"
    base = str(args.source).removesuffix(".tar.gz").rstrip("/")
    work = (args.work or Path(f"{base}.run-{device_tag}")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    try:
        suite = locate_suite(args.source, work)
        items = select(read_manifest(suite), dtypes, args.names)
        jobs = make_jobs(suite, work / "outputs", items)
    except ValueError as error:
        print(f"run: {error}", file=sys.stderr)
        return 2
    if not items:
        print(f"run: no items in {suite} for {args.dtypes} {' '.join(args.names)}", file=sys.stderr)
        return 2

    start = time.monotonic()
    runner = BatchRunner(args.runner.resolve(), args.device, work, args.job_timeout, len(jobs))
    print(
        f"running {len(jobs)} jobs on {args.device or 'the default device'} "
        f"({args.jobs} processes)",
        file=sys.stderr,
    )
    runs = run_jobs(jobs, runner, max(1, args.jobs))
    by_item = {j.item.key: judge(j, runs[id(j)]) for j in jobs}
    results = [by_item.get(i.key) or not_run(i) for i in items]
    seconds = time.monotonic() - start

    # The table comes last, where a log's tail shows it.
    for line in not_applicable_lines(results) + failure_lines(results) + failure_groups(results):
        print(line)
    print(table(results, dtypes))
    failed = sum(r.status == FAILED for r in results)
    print(f"{len(results)} items, {failed} failed; {len(jobs)} jobs ran in {seconds:.1f} s")
    report = {
        "device": args.device,
        "runner": str(args.runner),
        "suite": str(suite),
        "dtypes": dtypes,
        "seconds": round(seconds, 1),
        "environment": {k: v for k, v in os.environ.items() if k.startswith("MLX")},
        "results": [asdict(r) for r in results],
    }
    results_path = args.results or work / "results.json"
    results_path.write_text(json.dumps(report, indent=1) + "\n")
    print(f"results: {results_path}")
    return 1 if failed else 0
