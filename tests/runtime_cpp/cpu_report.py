"""What Linux says this processor has (/proc/cpuinfo's flags), to check the
plugins' own reading of cpuid and xgetbv (runtime_cpp/src/cpu/cpu_features.h)
against: which of our CPU variants can run here."""

from __future__ import annotations

import platform
from pathlib import Path
from typing import Optional

# What each variant needs, in /proc/cpuinfo's names (lzcnt is "abm" there).
V3 = ["avx", "avx2", "fma", "f16c", "bmi1", "bmi2", "abm", "movbe"]
V4 = V3 + ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"]
NEEDS = {"portable": [], "avx2": V3, "avx512": V4}


def cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def is_x86() -> bool:
    return platform.machine() in ("x86_64", "AMD64", "amd64")


def runs_here(isa: str) -> bool:
    """Linux lists an AVX-512 flag only where the kernel saves the zmm state."""
    if isa != "portable" and not is_x86():
        return False
    flags = cpu_flags()
    return all(f in flags for f in NEEDS[isa])


def best_cpu_plugin(backend_dir: Path) -> str:
    """The CPU plugin that should win here among those built."""
    for name, isa in (("cpu-avx512", "avx512"), ("cpu-avx2", "avx2")):
        if (backend_dir / f"libmlx-{name}.so").exists() and runs_here(isa):
            return name
    if (backend_dir / "libmlx-cpu-openblas.so").exists():
        return "cpu-openblas"
    return "cpu"


def run_kernel_check(
    runtime_build: Path,
    isa: str,
    mode: str,
    lines: list[str],
    threads: Optional[int] = None,
    features: Optional[str] = None,
) -> list[dict]:
    """runtime_cpp/tests/cpu_kernel_check.cpp's tool of `isa` in `mode` on `lines`,
    on the processor's own report, or on `features` forced (MLX_DELEGATE_CPU_FEATURES,
    cpu_features.h's names): its JSON lines (one `skipped` line where the
    processor lacks the build's instructions). Skips the test where the build has
    no such kernels (not x86)."""
    import json
    import os
    import subprocess

    import pytest

    tool = runtime_build / f"mlxd-cpu-kernel-check-{isa}"
    if not tool.exists():
        assert isa != "portable" and not is_x86(), f"{tool} was not built"
        pytest.skip(f"no {isa} kernels on this architecture")
    env = {k: v for k, v in os.environ.items() if k != "MLX_DELEGATE_CPU_FEATURES"}
    if threads is not None:
        env["MLX_DELEGATE_CPU_THREADS"] = str(threads)
    if features is not None:
        env["MLX_DELEGATE_CPU_FEATURES"] = features
    proc = subprocess.run([str(tool), mode], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, env=env, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]
    return [json.loads(line) for line in proc.stdout.splitlines()]


def taken_cases(results: list[dict], isa: str, cases: list[str], declined: list[str]) -> list[dict]:
    """The results of `cases` from run_kernel_check on `cases + declined`,
    after what every such check asserts: where this processor lacks `isa`'s
    instructions, the tool's one line says so (and no case is returned); else
    one line a case, each of `cases` taken with the reference's shape, each of
    `declined` declined."""
    if not runs_here(isa):
        assert len(results) == 1 and "this processor lacks" in results[0]["skipped"], results
        return []
    assert len(results) == len(cases) + len(declined)
    for result in results[: len(cases)]:
        assert result["taken"] and result["same_shape"], result
    assert [r["taken"] for r in results[len(cases) :]] == [False] * len(declined)
    return results[: len(cases)]
