"""The installed CMake package: `cmake --install` of the test build into a prefix, then a
project outside the repository finds it with find_package(mlx_delegate CONFIG), links the
delegate and the host, and runs: the installed host finds the installed plugins next to it;
the installed mlxd-run runs a program."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import torch

import delegate_pte as d
from conftest import build_lock
from cpu_report import best_cpu_plugin
from mlx_delegate.formats.tensor_bin import read_tensors, write_tensors

CMAKE = str(Path(sys.executable).parent / "cmake")
CONSUMER = Path(__file__).resolve().parent / "cmake_consumer"


def run(*args, **kwargs) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    assert proc.returncode == 0, f"{args}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def test_find_package_consumer_links_and_runs(runtime_build, tmp_path):
    prefix = tmp_path / "prefix"
    with build_lock(runtime_build):  # another worker's build.sh configures the same tree
        run(CMAKE, "-DMLXD_WHEEL_LAYOUT=OFF", runtime_build)
        run(CMAKE, "--install", runtime_build, "--prefix", prefix)
    lib = prefix / "lib"
    for name in [
        "libmlx_delegate_host.so",
        "libmlx_delegate.so",
        "backends/libmlx-cpu.so",
        "backends/libmlxd_impl_cpu.so",
        "cmake/mlx_delegate/mlx_delegateConfig.cmake",
        "cmake/mlx_delegate/mlx_delegateConfigVersion.cmake",
    ]:
        assert (lib / name).is_file(), name
    assert (prefix / "bin" / "mlxd-run").is_file()
    assert (prefix / "include" / "mlx_delegate" / "schema" / "mlx_dtypes.h").is_file()

    build = tmp_path / "consumer"
    run(CMAKE, "-S", CONSUMER, "-B", build, f"-DCMAKE_PREFIX_PATH={prefix}")
    run(CMAKE, "--build", build)
    env = {k: v for k, v in os.environ.items() if k != "MLX_BACKEND_PATH"}
    out = run(build / "consumer", env=env).stdout.splitlines()
    fields = dict(line.split(" ", 1) for line in out)
    assert fields["registered"] == "1"
    assert fields["version"] == "0.1.0"
    backends = json.loads(fields["backends"])
    paths = sorted(b["path"] for b in backends)
    # The best of the cpu group (OpenBLAS, or the variant of this processor built on it)
    # loaded from the installed backends/, not the build.
    assert [Path(p).name for p in paths] == [f"libmlx-{best_cpu_plugin(lib / 'backends')}.so"]
    assert all(Path(p).parent.resolve() == (lib / "backends").resolve() for p in paths)

    # The installed runner finds the installed libraries (its RPATH) and runs a program.
    a, b = torch.randn(2, 3), torch.randn(2, 3)
    pte, inputs, outputs = tmp_path / "add.pte", tmp_path / "in.bin", tmp_path / "out.bin"
    pte.write_bytes(d.add_pte((2, 3)))
    write_tensors(inputs, [a, b])
    run(prefix / "bin" / "mlxd-run", pte, "--inputs", inputs, "--outputs", outputs, env=env)
    assert torch.equal(read_tensors(outputs)[0], a + b)
