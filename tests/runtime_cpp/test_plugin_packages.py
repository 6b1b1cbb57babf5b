"""Plugin packages (packages/mlx-delegate-cuda/README.md): an installed distribution that
declares an entry point in the group `mlx_delegate.backends` gets its plugin folder searched,
with no environment variable. Here a fake distribution, installed into a scratch
site-packages, carries a copy of the CPU plugin (front `libmlx-pkgcpu.so`, the CPU
implementation it loads next to it) and runs a program on it through ExecuTorch."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import torch

import delegate_pte as d
from conftest import REPO
from mlx_delegate.formats.tensor_bin import read_tensors, write_tensors

# SITE goes on sys.path as PYTHONPATH would put it (these processes are forked from a warm one).
RUN = """
import sys
sys.path.append(SITE)
from mlx_delegate.host import _native
result = {"dirs": [str(p) for p in _native.plugin_package_dirs()],
          "search_paths": backends.search_paths()}
backends.load_all(allowed=["pkgcpu"])
result["backends"] = [[b.name, b.path] for b in backends.list()]
import mlx_delegate.runtime
from executorch.runtime import Runtime
from mlx_delegate.formats.tensor_bin import read_tensors, write_tensors
method = Runtime.get().load_program(PTE).load_method("forward")
write_tensors(OUT, list(method.execute(read_tensors(IN))))
"""


@pytest.fixture
def plugin_package(test_plugin_dir: Path, backend_dir: Path, tmp_path: Path) -> Path:
    """A scratch site-packages with the distribution mlxd-fake-backend installed in it."""
    site = tmp_path / "site"
    package = site / "mlxd_fake_backend"
    (package / "backends").mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from pathlib import Path\n\n\n"
        "def backend_dir():\n"
        '    return Path(__file__).parent / "backends"\n'
    )
    shutil.copy(test_plugin_dir / "package" / "libmlx-pkgcpu.so", package / "backends")
    shutil.copy(backend_dir / "libmlxd_impl_cpu.so", package / "backends")
    dist_info = site / "mlxd_fake_backend-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: mlxd-fake-backend\nVersion: 1.0\n"
    )
    (dist_info / "entry_points.txt").write_text(
        "[mlx_delegate.backends]\npkgcpu = mlxd_fake_backend:backend_dir\n"
    )
    return site


def run(scenario, site: Path, tmp_path: Path):
    a, b = torch.randn(2, 3), torch.randn(2, 3)
    pte, inputs, out = tmp_path / "add.pte", tmp_path / "in.bin", tmp_path / "out.bin"
    pte.write_bytes(d.add_pte((2, 3)))
    write_tensors(inputs, [a, b])
    body = f"PTE = {str(pte)!r}\nIN = {str(inputs)!r}\nOUT = {str(out)!r}\nSITE = {str(site)!r}\n"
    result, proc = scenario.run(body + RUN, warm=True, check=False)
    return result, proc, (out, a + b)


def test_entry_point_folder_is_searched_and_runs_a_program(scenario, plugin_package, tmp_path):
    result, proc, (out, expected) = run(scenario, plugin_package, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    folder = str(plugin_package / "mlxd_fake_backend" / "backends")
    assert result["dirs"] == [folder]
    assert result["search_paths"][-1] == folder  # after the host's own backends/
    assert result["backends"] == [["pkgcpu", folder + "/libmlx-pkgcpu.so"]]
    assert torch.equal(read_tensors(out)[0], expected)


def test_mlx_backend_path_alone_decides(scenario, plugin_package, test_plugin_dir):
    result, _ = scenario.run(
        """
        from mlx_delegate.host import _native
        result = {"dirs": [str(p) for p in _native.plugin_package_dirs()],
                  "search_paths": backends.search_paths()}
        """,
        env={"PYTHONPATH": f"{REPO}:{plugin_package}"},
        backend_path=str(test_plugin_dir),
    )
    assert result["dirs"] == [str(plugin_package / "mlxd_fake_backend" / "backends")]
    assert result["search_paths"] == [str(test_plugin_dir)]


def test_broken_entry_point_is_a_warning(scenario, plugin_package, tmp_path):
    dist_info = plugin_package / "mlxd_fake_backend-1.0.dist-info"
    (dist_info / "entry_points.txt").write_text(
        "[mlx_delegate.backends]\nbroken = no_such_module:backend_dir\n"
        "pkgcpu = mlxd_fake_backend:backend_dir\n"
    )
    result, proc, (out, expected) = run(scenario, plugin_package, tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "entry point broken = no_such_module:backend_dir failed" in proc.stderr
    assert torch.equal(read_tensors(out)[0], expected)
