"""Every op of the generated dispatch has its exec_* function, and the linker
checks it: the plugin implementations link with --no-undefined, so a missing
one fails the build with an undefined reference naming it. Shown by linking
the CPU plugin's objects (libmlxd_mlx_common.a, its MLX backend and its portable
CPU kernels) without the object that defines exec_softmax."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

MLX_LIB = Path(list(importlib.util.find_spec("mlx").submodule_search_locations)[0]) / "lib"


def _link(objects: list[Path], out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [shutil.which("g++") or "c++", "-shared", "-o", str(out), *map(str, objects),
         "-Wl,--no-undefined", f"-L{MLX_LIB}", "-lmlx", "-ldl", "-lpthread"],
        capture_output=True, text=True,
    )  # fmt: skip


def _objects(runtime_build: Path, tmp_path: Path) -> list[Path]:
    folder = tmp_path / "objects"
    folder.mkdir()
    archive = str(runtime_build / "libmlxd_mlx_common.a")
    # Members may share a name (each target's unity batches are unity_0_cxx.cxx.o...):
    # each taken by its count among its namesakes (ar's N), under a name of its own.
    members = subprocess.run(["ar", "t", archive], capture_output=True, text=True, check=True)
    seen: Counter = Counter()
    for name in members.stdout.split():
        seen[name] += 1
        subprocess.run(["ar", "xN", str(seen[name]), archive, name], cwd=folder, check=True)
        (folder / name).rename(folder / f"{seen[name]}-{name}")
    # The CPU plugin's own objects (the MLX backend the op library calls back into), as
    # CMake links the plugin (unity batches, or one a file), and the kernels it installs,
    # an archive the linker takes as the plugin does.
    link = (runtime_build / "CMakeFiles" / "mlxd_impl_cpu.dir" / "link.txt").read_text()
    backend = [runtime_build / word for word in link.split() if word.endswith(".o")]
    assert backend, link
    kernels = runtime_build / "libmlxd_cpu_kernels_portable.a"
    return sorted(folder.glob("*.o")) + backend + [kernels]


def _defines(obj: Path, symbol: str) -> bool:
    listing = subprocess.run(["nm", "-C", "--defined-only", str(obj)], capture_output=True,
                             text=True, check=True).stdout  # fmt: skip
    return symbol in listing


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="GNU ld's --no-undefined")
def test_the_linker_names_a_missing_exec_function(runtime_build, tmp_path):
    objects = _objects(runtime_build, tmp_path)
    assert _link(objects, tmp_path / "whole.so").returncode == 0  # everything defined
    without = [o for o in objects if o.suffix != ".o" or not _defines(o, "mlxd::exec_softmax(")]
    assert len(without) == len(objects) - 1
    result = _link(without, tmp_path / "missing.so")
    assert result.returncode != 0
    assert "undefined reference to `mlxd::exec_softmax(mlxd::SoftmaxNode const&" in result.stderr


def test_the_plugin_implementations_link_with_no_undefined():
    cmake = (Path(__file__).resolve().parents[2] / "runtime_cpp" / "CMakeLists.txt").read_text()
    assert 'target_link_options(${P_IMPL} PRIVATE "LINKER:--no-undefined")' in cmake
