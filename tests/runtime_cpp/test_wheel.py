"""The wheel, built as `pip wheel .` builds it by default: in an isolated build environment
(pip installs the build requirements into a temporary folder, which it deletes after the
build) and a temporary build tree, compiled from scratch. Installed into a fresh folder and
used from a folder outside the checkout: the OpenBLAS plugin wins, codegen on a user's schema
with its installed templates, a model exported with MLXPartitioner and run through
executorch.runtime on the installed plugins, and the mlxd-run console script. Building it
leaves the checkout's own build (build/runtime, what `make` builds) as it was.

The fresh folder is a site-packages of its own (`pip install --target`, no dependencies),
with the dependency wheels this venv already has linked in next to it (mlx, executorch,
scipy_openblas32: the installed libraries find theirs relative to themselves, as in one
site-packages); Python runs with -S, so the checkout's editable install is not on the path.

The wheel build is the suite's most expensive step (installing the build requirements,
compiling the runtime): one build serves every test here."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import textwrap
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from cpu_report import best_cpu_plugin, is_x86, runs_here

from conftest import REPO, build_lock, build_runtime

# One worker builds the wheel (the module's fixtures), for every test here.
pytestmark = [pytest.mark.xdist_group("wheel"), pytest.mark.slow]

SITE_PACKAGES = Path(site.getsitepackages()[0])
LINKED_DEPENDENCIES = ["mlx", "executorch", "scipy_openblas32"]

SCHEMA = """
namespace user;
enum Color : byte { Red = 0, Green, Blue }
table Point { x: float; y: float; color: Color = Green; }
root_type Point;
"""

EXPORT_AND_RUN = """
import json, sys, torch
from executorch.exir import to_edge_transform_and_lower
from mlx_delegate import MLXPartitioner
from mlx_delegate.host import backends
import mlx_delegate, mlx_delegate.runtime
from executorch.runtime import Runtime

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(16, 8)
    def forward(self, x):
        return torch.relu(self.lin(x)) * 2.0

torch.manual_seed(0)
model, x = Model().eval(), torch.randn(4, 16)
program = to_edge_transform_and_lower(torch.export.export(model, (x,)),
                                      partitioner=[MLXPartitioner()]).to_executorch()
open("model.pte", "wb").write(program.buffer)
loaded = Runtime.get().load_program(program.buffer)
(out,) = loaded.load_method("forward").execute([x])
print(json.dumps({
    "package": mlx_delegate.__file__,
    "delegate": str(mlx_delegate.runtime.library_path()),
    "backends": [b.path for b in backends.list()],
    "max_diff": float((out - model(x)).abs().max()),
}))
"""


@dataclass
class WheelBuild:
    proc: subprocess.CompletedProcess  # `pip wheel`
    out: Path  # where the wheel goes
    cache_before: str  # build/runtime/CMakeCache.txt before the wheel was built


@pytest.fixture(scope="module")
def wheel_build(runtime_build, tmp_path_factory) -> WheelBuild:
    """Builds the wheel of the checkout as `pip wheel .` does: with build isolation, so the
    build requirements are installed into a temporary environment that pip deletes after the
    build, and compiled from scratch. The checkout's built tree is there (runtime_build), as
    after `make`."""
    out = tmp_path_factory.mktemp("wheel")
    # PIP_COMPILE=0: pip does not byte-compile the build requirements (torch, executorch...)
    # it installs into the build environment, which it deletes after the build: 50 s here,
    # and nothing of them goes into the wheel.
    env = dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL=os.environ.get("JOBS", "2"), PIP_COMPILE="0")
    env.pop("PIP_NO_BUILD_ISOLATION", None)  # isolated whatever the caller's environment says
    with build_lock(runtime_build):  # not read while a worker reconfigures it
        cache_before = (runtime_build / "CMakeCache.txt").read_text()
    start = time.monotonic()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-v",
            "--disable-pip-version-check",
            "-w",
            str(out),
            str(REPO),
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    print(f"wheel built in {time.monotonic() - start:.1f} s")
    return WheelBuild(proc, out, cache_before)


@pytest.fixture(scope="module")
def wheel(wheel_build) -> Path:
    log = wheel_build.proc.stdout + wheel_build.proc.stderr
    assert wheel_build.proc.returncode == 0, log[-4000:]
    assert "Installing build dependencies" in log, log[-4000:]  # isolated
    (path,) = wheel_build.out.glob("mlx_delegate-*.whl")
    return path


def test_building_the_wheel_leaves_the_checkouts_build_working(
    wheel_build, runtime_build, scenario
):
    """`make` builds and runs build/runtime. Built there, the wheel made pip's deleted build
    environment that tree's CMake, MLX, flatbuffers or OpenBLAS (`make demo` then failed on a
    missing flatbuffers.h; in a built tree the wheel's configuration failed, mixing the two
    environments): the wheel builds in a tree of its own. Checked whether or not pip
    succeeded."""
    with build_lock(runtime_build):
        cache_after = (runtime_build / "CMakeCache.txt").read_text()
    assert "pip-build-env" not in cache_after
    assert cache_after == wheel_build.cache_before
    # What `make` does next: build.sh finds the tree built, and its plugins load.
    proc = build_runtime()
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert "Building CXX object" not in proc.stdout, proc.stdout[-4000:]
    result, _ = scenario.run("result = [b.name for b in backends.list()]")
    assert result == [best_cpu_plugin(runtime_build / "backends")]


def test_wheel_carries_the_runtime_and_codegen_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in [
        "mlx_delegate/lib/libmlx_delegate_host.so",
        "mlx_delegate/lib/libmlx_delegate.so",
        "mlx_delegate/lib/backends/libmlx-cpu.so",
        "mlx_delegate/lib/backends/libmlxd_impl_cpu.so",
        "mlx_delegate/lib/backends/libmlx-cpu-openblas.so",
        "mlx_delegate/lib/backends/libmlxd_impl_cpu_openblas.so",
        "mlx_delegate/bin/mlxd-run",
        "mlx_delegate/generated/python/schema.py",
        "mlx_delegate/generated/cpp/mlx_program.h",
        "mlx_delegate/schema/schema.fbs",
        "mlx_delegate/lib/cmake/mlx_delegate/mlx_delegateConfig.cmake",
        "codegen/grammar.lark",
        "codegen/.clang-format",
        "codegen/templates/python/module.py.j2",
    ] + [
        f"mlx_delegate/lib/backends/{lib}"
        for variant in (("avx2", "avx512") if is_x86() else ())
        for lib in (f"libmlx-cpu-{variant}.so", f"libmlxd_impl_cpu_{variant}.so")
    ]:
        assert name in names, name
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "mlxd-run = mlx_delegate.host._native:mlxd_run_main" in text


def test_wheel_carries_no_test_bench(wheel):
    """The op cases, the model zoo and their runners (testbench/) stay in the checkout."""
    names = zipfile.ZipFile(wheel).namelist()
    bench = [n for n in names if n.startswith(("testbench/", "mlx_delegate/test/"))]
    assert not bench, bench[:10]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> dict:
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "--no-deps",
            "--no-index",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    for name in LINKED_DEPENDENCIES:
        (target / name).symlink_to(SITE_PACKAGES / name)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MLX_BACKEND_PATH", "MLX_DELEGATE_HOST_LIB", "MLX_DELEGATE_LIB")
    }
    env["PYTHONPATH"] = f"{target}{os.pathsep}{SITE_PACKAGES}"
    work = tmp_path_factory.mktemp("outside")
    assert REPO not in work.parents
    return {"target": target, "env": env, "work": work}


def run_outside(installed, *args) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, "-S", *map(str, args)],
        cwd=installed["work"],
        env=installed["env"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


def test_codegen_generates_a_users_schema_outside_the_checkout(installed):
    work = installed["work"]
    (work / "user.fbs").write_text(textwrap.dedent(SCHEMA))
    run_outside(installed, "-m", "codegen", "generate", "--schema", "user.fbs", "--out", "gen")
    module = (work / "gen" / "python" / "user.py").read_text()
    assert "class Point" in module and "class Color" in module
    assert (work / "gen" / "cpp" / "user_generated.h").is_file()
    where = run_outside(installed, "-c", "import codegen.render as r; print(r.TEMPLATE_DIR)")
    assert Path(where.stdout.strip()).is_relative_to(installed["target"])


def test_installed_wheel_runs_on_its_openblas_plugin(installed):
    """The OpenBLAS plugin finds libscipy_openblas.so where the wheel is installed, beside the
    scipy_openblas32 package, not where it was built (pip's build environment, deleted): it
    scores, and outscores the plain CPU plugin."""
    code = (
        "import json\n"
        "from mlx_delegate.host import backends\n"
        "print(json.dumps({'list': [b.name for b in backends.list()], 'report': "
        "{c.path.rsplit('/', 1)[1]: [c.status, c.reason] for c in backends.report()}}))"
    )
    result = json.loads(run_outside(installed, "-c", code).stdout.strip().splitlines()[-1])
    # cpu-openblas, or (x86) the variant of this processor built on it, which loads it too
    best = (
        "cpu-avx512" if runs_here("avx512") else "cpu-avx2" if runs_here("avx2") else "cpu-openblas"
    )
    assert result["list"][0] == best, result
    assert result["report"][f"libmlx-{best}.so"] == ["loaded", ""], result
    assert result["report"]["libmlx-cpu.so"] == ["skipped", "outscored"], result


def test_installed_package_exports_and_runs_a_model(installed):
    result = json.loads(
        run_outside(installed, "-c", EXPORT_AND_RUN).stdout.strip().splitlines()[-1]
    )
    target = installed["target"]
    assert Path(result["package"]).is_relative_to(target)
    assert Path(result["delegate"]) == target / "mlx_delegate" / "lib" / "libmlx_delegate.so"
    assert [Path(p).parent for p in result["backends"]] == [target / "mlx_delegate/lib/backends"]
    assert result["max_diff"] < 1e-5

    # The console script runs the installed runner on the exported program.
    from mlx_delegate.formats.tensor_bin import write_tensors
    import torch

    work = installed["work"]
    write_tensors(work / "in.bin", [torch.randn(4, 16)])
    proc = run_outside(
        installed,
        target / "bin" / "mlxd-run",
        "model.pte",
        "--inputs",
        "in.bin",
        "--outputs",
        "out.bin",
    )
    assert "output 0: float32[4, 8]" in proc.stdout
