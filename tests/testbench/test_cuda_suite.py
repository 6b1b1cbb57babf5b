"""The CUDA suite (testbench/cuda_suite) end to end on the CPU plugin:
the export side writes two op configurations and a zoo model, the run side
runs them through `mlxd-run --batch` in a process where torch and ExecuTorch
cannot be imported (as on the GPU machine), and recovers from a runner that
crashes on one job and hangs on another."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from testbench.cuda_suite import export

REPO = Path(__file__).resolve().parents[2]
# Both tests use one export: keep them on one pytest-xdist worker.
pytestmark = [pytest.mark.xdist_group("cuda_suite"), pytest.mark.slow]
BUILD_DIR = Path(os.environ.get("MLXD_TEST_BUILD_DIR", REPO / "build" / "runtime"))

# Runs the suite's command with torch and executorch unimportable.
WITHOUT_TORCH = textwrap.dedent("""
    import sys

    class Blocked:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in ("torch", "executorch"):
                raise ImportError(f"{name} may not be imported by the run side")

    sys.meta_path.insert(0, Blocked())
    from testbench.cuda_suite.__main__ import main

    sys.exit(main(sys.argv[1:]))
    """)

# A runner that answers the batch protocol as mlxd-run does, running each job
# with the real runner, except that it crashes on a bf16 job and hangs on an
# fp16 one.
FAKE_RUNNER = textwrap.dedent("""
    import os, signal, subprocess, sys, time

    real, args = sys.argv[1], sys.argv[2:]
    jobs = open(args[args.index("--batch") + 1]).read().split("\\n")
    results = open(args[args.index("--results") + 1], "w")
    for n, line in enumerate(j for j in jobs if j.strip()):
        model, inputs, outputs = line.split()
        print(f"mlxd-run: job {n}: {model}", file=sys.stderr, flush=True)
        if "/bf16/" in model:
            os.kill(os.getpid(), signal.SIGSEGV)
        if "/fp16/" in model:
            time.sleep(60)
        proc = subprocess.run([real, model, "--inputs", inputs, "--outputs", outputs,
                               "--device", "cpu", "--quiet"])
        results.write(f"{n}\\tok\\t1.0\\t1.0\\n" if proc.returncode == 0 else f"{n}\\terror\\tfailed\\n")
        results.flush()
    """)


@pytest.fixture(scope="module")
def runner() -> Path:
    exe = BUILD_DIR / "mlxd-run"
    assert exe.is_file(), f"{exe} was not built (runtime_cpp/build.sh)"
    return exe


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """Two op configurations in all three dtypes, then a zoo model in fp32
    (--resume adds it to the same suite)."""
    directory = tmp_path_factory.mktemp("cuda") / "suite"
    ops = ["add[same_shape]", "argmax[int32]", "--no-archive"]
    assert export.main([str(directory), "-j", "1", *ops]) == 0
    assert export.main([str(directory), "-j", "1", "--dtypes", "fp32", "--resume", "convnext"]) == 0
    return directory.with_name("suite.tar.gz")


def run_side(tmp_path: Path, *args) -> subprocess.CompletedProcess:
    script = tmp_path / "without_torch.py"
    script.write_text(WITHOUT_TORCH)
    env = {k: v for k, v in os.environ.items() if k not in ("MLX_BACKEND_PATH", "PYTHONPATH")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, str(script), "run", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def statuses(results: Path) -> dict:
    report = json.loads(results.read_text())
    return {(r["name"], r["dtype"]): r for r in report["results"]}


def test_export_then_run_on_the_cpu_without_torch(archive, runner, tmp_path):
    results = tmp_path / "results.json"
    proc = run_side(tmp_path, archive, "--runner", runner, "--device", "cpu", "--results", results)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "| fp32 | ops | 2 | 0 | 0 |" in proc.stdout
    assert "| bf16 | ops | 1 | 0 | 1 |" in proc.stdout
    assert "| fp32 | zoo | 1 | 0 | 0 |" in proc.stdout
    got = statuses(results)
    assert {key: r["status"] for key, r in got.items()} == {
        ("add[same_shape]", "fp32"): "pass",
        ("add[same_shape]", "bf16"): "pass",
        ("add[same_shape]", "fp16"): "pass",
        ("argmax[int32]", "fp32"): "pass",
        ("argmax[int32]", "bf16"): "n/a",
        ("argmax[int32]", "fp16"): "n/a",
        ("convnext", "fp32"): "pass",
    }
    assert "no float32 input" in got[("argmax[int32]", "bf16")]["message"]
    assert got[("convnext", "fp32")]["max_error"] < 1e-4


def test_a_crash_and_a_hang_fail_alone(archive, runner, tmp_path):
    fake = tmp_path / "fake-runner"
    (tmp_path / "fake.py").write_text(FAKE_RUNNER)
    fake.write_text(f"#!/bin/sh\nexec {sys.executable} {tmp_path / 'fake.py'} {runner} \"$@\"\n")
    fake.chmod(0o755)
    results = tmp_path / "results.json"
    proc = run_side(
        tmp_path, archive, "--runner", fake, "--results", results, "--job-timeout", "3", "ops"
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    got = statuses(results)
    crashed, hung = got[("add[same_shape]", "bf16")], got[("add[same_shape]", "fp16")]
    assert crashed["status"] == "fail" and "crashed (signal 11)" in crashed["message"]
    assert hung["status"] == "fail" and "no result within 3 s" in hung["message"]
    assert got[("add[same_shape]", "fp32")]["status"] == "pass"
    assert got[("argmax[int32]", "fp32")]["status"] == "pass"  # after both, in a new process
    assert "FAIL ops add[same_shape] [bf16] (run): the runner crashed" in proc.stdout
