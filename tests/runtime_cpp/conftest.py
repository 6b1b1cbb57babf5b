"""Fixtures for the C++ runtime tests: build the runtime (and the test-only
plugins) once per session, and run registry scenarios in fresh processes
(loaded backends are never unloaded, so each scenario needs its own)."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD_DIR = Path(os.environ.get("MLXD_TEST_BUILD_DIR", REPO / "build" / "runtime"))


@pytest.fixture(scope="session")
def runtime_build() -> Path:
    """Builds build/runtime (host, plugins, test plugins) with runtime_cpp/build.sh."""
    BUILD_DIR.parent.mkdir(parents=True, exist_ok=True)
    lock_path = BUILD_DIR.parent / ".runtime_build.lock"
    env = dict(os.environ, BUILD_DIR=str(BUILD_DIR), PYTHON=sys.executable)
    env.setdefault("JOBS", "2")
    with open(lock_path, "w") as lock:  # pytest-xdist workers build one at a time
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = subprocess.run(
            ["bash", str(REPO / "runtime_cpp" / "build.sh"), "--test-plugins"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
        )
    if proc.returncode != 0:
        pytest.fail(f"runtime build failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return BUILD_DIR


@pytest.fixture(scope="session")
def test_plugin_dir(runtime_build: Path) -> Path:
    return runtime_build / "test_plugins"


@pytest.fixture(scope="session")
def backend_dir(runtime_build: Path) -> Path:
    return runtime_build / "backends"


class Scenario:
    def __init__(self, runtime_build: Path):
        self.build = runtime_build

    def run(
        self,
        body: str,
        backend_path: str | None = None,
        env: dict | None = None,
        check: bool = True,
    ):
        """Runs `body` in a fresh Python with `from mlx_delegate import backends`;
        whatever it assigns to `result` comes back (JSON)."""
        code = (
            "import json, sys\n"
            "from mlx_delegate import backends\n"
            "result = None\n"
            + textwrap.dedent(body)
            + "\nprint('@@RESULT@@' + json.dumps(result))\n"
        )
        full_env = {k: v for k, v in os.environ.items() if k != "MLX_BACKEND_PATH"}
        full_env["MLX_DELEGATE_HOST_LIB"] = str(self.build / "libmlx_delegate_host.so")
        full_env["PYTHONPATH"] = str(REPO)
        if backend_path is not None:
            full_env["MLX_BACKEND_PATH"] = backend_path
        full_env.update(env or {})
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


@pytest.fixture(scope="session")
def scenario(runtime_build: Path) -> Scenario:
    return Scenario(runtime_build)
