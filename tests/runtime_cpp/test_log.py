"""MLX_DELEGATE_LOG, the one logging switch (runtime_cpp/src/common/mlxd_log.h):
the host, the delegate and the plugins log at the level it names, as the
compiler reads it (mlx_delegate/_logging.py). Seen through mlxd-run: over the
test plugins the host logs at every level (loaded: info; dlopen, init:
warning; abi, api_version: error; score, outscored: debug) and the delegate at
info (plugins loaded) and error (the fake CPU backend refuses the program);
over the real plugins the plugin logs its compiled segments at info."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import torch

import delegate_pte as d
from mlx_delegate import _logging
from mlx_delegate.formats.tensor_bin import write_tensors

ORDER = ("debug", "info", "warning", "error")
HOST_LINE = re.compile(r"^\[mlx-delegate (debug|info|warning|error)\] (?!MLX_DELEGATE_LOG=)")
DELEGATE_INFO = "MLXDelegateBackend: loaded"
DELEGATE_ERROR = "MLXDelegateBackend: backend 'fakecpu' rejected the program"
PLUGIN_INFO = "compiled segments hold"


@pytest.fixture(scope="module")
def add_files(runtime_build: Path, tmp_path_factory) -> tuple[Path, Path, Path]:
    folder = tmp_path_factory.mktemp("log")
    (folder / "add.pte").write_bytes(d.add_pte((2, 3)))
    write_tensors(folder / "in.bin", [torch.randn(2, 3), torch.randn(2, 3)])
    return runtime_build / "mlxd-run", folder / "add.pte", folder / "in.bin"


def _run(add_files, value: str | None, backend_path: Path) -> str:
    """mlxd-run's stderr with MLX_DELEGATE_LOG=value (None: unset)."""
    runner, pte, inputs = add_files
    env = {
        k: v for k, v in os.environ.items() if k not in ("MLX_DELEGATE_LOG", "MLX_DELEGATE_DEVICE")
    }
    env["MLX_BACKEND_PATH"] = str(backend_path)
    if value is not None:
        env["MLX_DELEGATE_LOG"] = value
    args = [runner, pte, "--inputs", inputs, "--outputs", inputs.with_name("out.bin"), "--quiet"]
    proc = subprocess.run(
        [str(a) for a in args + ["--device", "cpu"]],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode >= 0, proc.stderr
    return proc.stderr


def _shown(level: str) -> set[str]:
    """The levels logged at `level`."""
    return set() if level == "off" else set(ORDER[ORDER.index(level) :])


@pytest.mark.parametrize(
    "value", [None, "", "debug", "DEBUG", "info", "1", "warning", "0", "error", "off", "Off"]
)
def test_every_part_logs_at_the_level_named(
    add_files, runtime_build, test_plugin_dir, monkeypatch, value
):
    if value is None:
        monkeypatch.delenv("MLX_DELEGATE_LOG", raising=False)
    else:
        monkeypatch.setenv("MLX_DELEGATE_LOG", value)
    shown = _shown(_logging.log_level())

    err = _run(add_files, value, test_plugin_dir)
    host = {m[1] for line in err.splitlines() if (m := HOST_LINE.match(line))}
    assert host == shown, err
    assert (DELEGATE_INFO in err) == ("info" in shown), err
    assert (DELEGATE_ERROR in err) == ("error" in shown), err

    err = _run(add_files, value, runtime_build / "backends")
    assert (PLUGIN_INFO in err) == ("info" in shown), err


def test_off_silences_the_delegate(add_files, test_plugin_dir):
    """The delegate read MLX_DELEGATE_LOG as on/off: `off` switched its log on."""
    err = _run(add_files, "off", test_plugin_dir)
    assert "MLXDelegateBackend:" not in err.replace(
        "Init failed for backend MLXDelegateBackend", ""
    ), err
    assert "[mlx-delegate" not in err, err


def test_a_value_that_names_no_level_is_said_and_logs_at_warning(add_files, test_plugin_dir):
    err = _run(add_files, "verbose", test_plugin_dir)
    assert "MLX_DELEGATE_LOG=verbose names no level" in err, err
    host = {m[1] for line in err.splitlines() if (m := HOST_LINE.match(line))}
    assert host == {"warning", "error"}, err
    assert DELEGATE_INFO not in err and DELEGATE_ERROR in err, err
