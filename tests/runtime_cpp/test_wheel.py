"""The wheel: built with scikit-build-core from the already built tree (no recompilation),
installed into a fresh folder, and used from a folder outside the checkout: codegen on a
user's schema with its installed templates, a model exported with MLXPartitioner and run
through executorch.runtime on the installed plugins, and the mlxd-run console script.

The fresh folder is a site-packages of its own (`pip install --target`, no dependencies),
with the dependency wheels this venv already has linked in next to it (mlx, executorch,
scipy_openblas32: the installed libraries find theirs relative to themselves, as in one
site-packages); Python runs with -S, so the checkout's editable install is not on the path."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import pytest

from conftest import REPO, build_lock

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
from mlx_delegate import MLXPartitioner, backends
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


@pytest.fixture(scope="module")
def wheel(runtime_build, tmp_path_factory) -> Path:
    """Builds the wheel from the test build tree (configuring it for the wheel's layout)."""
    out = tmp_path_factory.mktemp("wheel")
    env = dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL=os.environ.get("JOBS", "2"))
    with build_lock(runtime_build):
        start = time.monotonic()
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-build-isolation",
                "--no-deps",
                "-v",  # the build's own output, to check that it compiles nothing
                "--disable-pip-version-check",
                "-w",
                str(out),
                "-C",
                f"build-dir={runtime_build}",
                "-C",
                "build.verbose=true",
                str(REPO),
            ],
            capture_output=True,
            text=True,
            env=env,
        )
        seconds = time.monotonic() - start
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    # The tree was built: the wheel build compiles nothing (make's lines are there, none
    # compiles).
    log = proc.stdout + proc.stderr
    assert "Built target mlx_delegate_host" in log, log[-4000:]
    assert "Building CXX object" not in log, log[-4000:]
    (path,) = out.glob("mlx_delegate-*.whl")
    print(f"wheel built in {seconds:.1f} s")
    return path


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
    ]:
        assert name in names, name
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "mlxd-run = mlx_delegate._native:mlxd_run_main" in text


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
    from mlx_delegate.tensor_bin import write_tensors
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
