"""The precompiled header of MLX's CPU JIT (mlx_delegate/tools/mlx_jit.py): made with
the flags read from MLX's library, and used by g++ when it compiles a kernel
the way MLX does (`-H` marks a precompiled header it used with "!")."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from mlx_delegate.tools import mlx_jit

KERNEL = '#include "mlx/backend/cpu/compiled_preamble.h"\nextern "C" void kernel() {}\n'


def headers_used(include_dir: Path, tmp_path: Path) -> str:
    """g++'s header listing for a kernel compiled as MLX's JIT compiles it."""
    source = tmp_path / "kernel.cpp"
    source.write_text(KERNEL)
    command = ["g++", *mlx_jit.jit_flags(), "-shared", "-I", str(include_dir), str(source)]
    done = subprocess.run(
        [*command, "-H", "-o", str(tmp_path / "kernel.so")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stderr


def test_the_flags_are_mlxs_own():
    flags = mlx_jit.jit_flags()
    assert "-std=c++17" in flags and "-fPIC" in flags
    assert all(f.startswith("-") for f in flags)


def test_set_up_made_the_header_that_mlxs_jit_uses(tmp_path):
    include_dir = mlx_jit.mlx_root() / "include"
    pch = include_dir / "mlx/backend/cpu/compiled_preamble.h.gch"
    assert pch.is_file(), "make setup runs `python -m mlx_delegate precompile-jit`"
    assert f"! {pch}" in headers_used(include_dir, tmp_path)


def test_a_header_is_made_once_and_remade_on_request(tmp_path):
    include_dir = tmp_path / "include"
    shutil.copytree(
        mlx_jit.mlx_root() / "include", include_dir, ignore=shutil.ignore_patterns("*.gch")
    )
    assert f"! {include_dir}" not in headers_used(include_dir, tmp_path)
    made = mlx_jit.precompile(include_dir)
    assert made == include_dir / "mlx/backend/cpu/compiled_preamble.h.gch"
    assert f"! {made}" in headers_used(include_dir, tmp_path)
    assert mlx_jit.precompile(include_dir) is None  # up to date
    assert mlx_jit.precompile(include_dir, force=True) == made
    assert not list(include_dir.rglob("*.partial"))


def test_a_folder_without_mlxs_header_is_refused(tmp_path):
    with pytest.raises(mlx_jit.JitHeaderError, match="compiled_preamble.h: no such header"):
        mlx_jit.precompile(tmp_path)
