"""Fixtures for the C++ runtime tests: build the runtime (and the test-only
plugins) once per session, and run registry scenarios in fresh processes
(loaded backends are never unloaded, so each scenario needs its own; those that
need executorch.runtime are forked from a process that has imported it)."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from forkserver import ForkServer

REPO = Path(__file__).resolve().parents[2]
BUILD_DIR = Path(os.environ.get("MLXD_TEST_BUILD_DIR", REPO / "build" / "runtime"))


@contextlib.contextmanager
def build_lock(build_dir: Path):
    """Held while configuring, building or installing the build tree: pytest-xdist workers
    take turns."""
    build_dir.parent.mkdir(parents=True, exist_ok=True)
    with open(build_dir.parent / ".runtime_build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def build_runtime() -> subprocess.CompletedProcess:
    """Builds build/runtime (host, plugins, test plugins, the static variant) with
    runtime_cpp/build.sh, holding the build lock."""
    env = dict(os.environ, BUILD_DIR=str(BUILD_DIR), PYTHON=sys.executable)
    env.setdefault("JOBS", "2")
    with build_lock(BUILD_DIR):
        return subprocess.run(
            ["bash", str(REPO / "runtime_cpp" / "build.sh"), "--test-plugins"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
        )


@pytest.fixture(scope="session")
def runtime_build() -> Path:
    """build/runtime, built (build_runtime)."""
    proc = build_runtime()
    if proc.returncode != 0:
        pytest.fail(f"runtime build failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return BUILD_DIR


@pytest.fixture(scope="session")
def test_plugin_dir(runtime_build: Path) -> Path:
    return runtime_build / "test_plugins"


@pytest.fixture(scope="session")
def backend_dir(runtime_build: Path) -> Path:
    return runtime_build / "backends"


@pytest.fixture(scope="module")
def backends(runtime_build: Path):
    """mlx_delegate.host.backends with this build's host loaded in this process,
    with its own plugins (no MLX_BACKEND_PATH)."""
    os.environ["MLX_DELEGATE_HOST_LIB"] = str(runtime_build / "libmlx_delegate_host.so")
    os.environ.pop("MLX_BACKEND_PATH", None)
    from mlx_delegate.host import backends as b

    b.load_all()
    assert b.device("cpu")["backend"]["group"] == "cpu"
    return b


class Scenario:
    def __init__(self, runtime_build: Path, scratch: Path):
        self.build = runtime_build
        self.scratch = scratch
        self.runs = 0
        # Runs the scenarios that need executorch.runtime (`warm=True`).
        self.forkserver = ForkServer(
            ["torch", "executorch.runtime"], self._environment({}), REPO, scratch / "forkserver.log"
        )

    def run(
        self,
        body: str,
        backend_path: str | None = None,
        env: dict | None = None,
        check: bool = True,
        warm: bool = False,
    ):
        """Runs `body` in a fresh Python with `from mlx_delegate.host import backends`;
        whatever it assigns to `result` comes back (JSON). `warm`: the process
        is forked from one that has imported torch and executorch.runtime
        (forkserver.py), for bodies that need them."""
        code = (
            "import json, sys\n"
            "from mlx_delegate.host import backends\n"
            "result = None\n"
            + textwrap.dedent(body)
            + "\nprint('@@RESULT@@' + json.dumps(result))\n"
        )
        extra = dict(env or {})
        if backend_path is not None:
            extra["MLX_BACKEND_PATH"] = backend_path
        full_env = self._environment(extra)
        if warm:
            self.runs += 1
            proc = self.forkserver.run(
                code, full_env, REPO, self.scratch / f"run-{self.runs}", timeout=300
            )
        else:
            proc = subprocess.run(
                [sys.executable, "-c", code],
                cwd=REPO,
                env=full_env,
                capture_output=True,
                text=True,
                timeout=300,
            )
        if check and proc.returncode != 0:
            raise AssertionError(
                f"scenario failed (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
            )
        result = None
        for line in proc.stdout.splitlines():
            if line.startswith("@@RESULT@@"):
                result = json.loads(line[len("@@RESULT@@") :])
        return result, proc

    def _environment(self, extra: dict) -> dict:
        env = {k: v for k, v in os.environ.items() if k != "MLX_BACKEND_PATH"}
        env["MLX_DELEGATE_HOST_LIB"] = str(self.build / "libmlx_delegate_host.so")
        env["PYTHONPATH"] = str(REPO)
        env.update(extra)
        return env


@pytest.fixture(scope="session")
def scenario(runtime_build: Path, tmp_path_factory) -> Scenario:
    scenario = Scenario(runtime_build, tmp_path_factory.mktemp("scenarios"))
    yield scenario
    scenario.forkserver.close()
