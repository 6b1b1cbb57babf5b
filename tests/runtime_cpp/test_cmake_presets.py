"""runtime_cpp/CMakePresets.json: the release and debug presets configure (into a scratch
folder here) against the wheels of the Python named by MLXD_PYTHON, and only debug compiles
per-op logging in."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CMAKE = str(Path(sys.executable).parent / "cmake")


def cache(build: Path) -> dict:
    entries = {}
    for line in (build / "CMakeCache.txt").read_text().splitlines():
        if "=" in line and not line.startswith(("#", "//")):
            key, value = line.split("=", 1)
            entries[key.split(":")[0]] = value
    return entries


@pytest.mark.parametrize(
    "preset, build_type, op_logging", [("release", "Release", False), ("debug", "Debug", True)]
)
def test_preset_configures(tmp_path, preset, build_type, op_logging):
    build = tmp_path / preset
    proc = subprocess.run(
        [CMAKE, "--preset", preset, "-B", str(build)],
        cwd=REPO / "runtime_cpp",
        env=dict(os.environ, MLXD_PYTHON=sys.executable),
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    entries = cache(build)
    assert entries["CMAKE_BUILD_TYPE"] == build_type
    assert entries["MLXD_PYTHON"] == sys.executable
    assert "mlx-delegate: executorch found" in proc.stdout
    flags = (build / "CMakeFiles" / "mlxd_mlx_common.dir" / "flags.make").read_text()
    assert ("-DMLXD_OP_LOGGING=1" in flags) == op_logging
