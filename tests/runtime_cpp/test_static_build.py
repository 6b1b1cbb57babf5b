"""The static build (MLXD_STATIC_BACKENDS=cpu, built by `build.sh --test-plugins`):
static/libmlx_delegate.so holds the host, the delegate and the CPU backend and loads no
plugin. The same `.pte`, compiled by MLXPartitioner, gives the same outputs, bit for bit, as
through the dlopen'd libmlx-cpu plugin; each run in its own process."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import torch

from mlx_delegate.formats.tensor_bin import read_tensors, write_tensors

# Runs PTE on IN's tensors through executorch.runtime after `import mlx_delegate.runtime`, with
# the plain CPU backend (the static library has only that one; the plugin build is told to
# load only that one, so both run the same MLX with the same BLAS).
RUN = """
from mlx_delegate.host import backends
backends.load_all(blocked=["cpu-openblas", "cpu-avx2", "cpu-avx512"])
import mlx_delegate.runtime as mr
from executorch.runtime import Runtime
from mlx_delegate.formats.tensor_bin import read_tensors, write_tensors
method = Runtime.get().load_program(PTE).load_method("forward")
write_tensors(OUT, list(method.execute(read_tensors(IN))))
result = {"backends": [[b.name, b.path] for b in backends.list()],
          "search_paths": backends.search_paths(), "library": str(mr.library_path())}
"""


@pytest.fixture(scope="session")
def static_lib(runtime_build: Path) -> Path:
    lib = runtime_build / "static" / "libmlx_delegate.so"
    assert lib.is_file(), f"{lib} was not built (build.sh --test-plugins builds it)"
    return lib


def _model_pte(path: Path) -> torch.nn.Module:
    from executorch.exir import to_edge_transform_and_lower

    from mlx_delegate import MLXPartitioner

    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.up = torch.nn.Linear(32, 64)
            self.down = torch.nn.Linear(64, 16)

        def forward(self, x):
            return torch.softmax(self.down(torch.nn.functional.silu(self.up(x))), dim=-1)

    torch.manual_seed(0)
    model, args = Model().eval(), (torch.randn(8, 32),)
    program = to_edge_transform_and_lower(
        torch.export.export(model, args), partitioner=[MLXPartitioner()]
    ).to_executorch()
    path.write_bytes(program.buffer)
    return model


def test_static_library_loads_no_plugin(static_lib):
    symbols = subprocess.run(
        ["nm", "-D", "--undefined-only", str(static_lib)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert "dlopen" not in symbols and "dlsym" not in symbols
    linked = subprocess.run(
        ["nm", "-D", "--defined-only", str(static_lib)], capture_output=True, text=True, check=True
    ).stdout
    assert "mlxd_impl_create_cpu" in linked and "mlxd_load_all" in linked


def test_same_pte_same_outputs_plugin_and_static(scenario, runtime_build, static_lib, tmp_path):
    pte, inputs = tmp_path / "model.pte", tmp_path / "in.bin"
    model = _model_pte(pte)
    x = torch.randn(8, 32, generator=torch.Generator().manual_seed(1))
    write_tensors(inputs, [x])
    empty = tmp_path / "no_plugins"
    empty.mkdir()
    runs = {
        "plugin": {},
        # MLX_BACKEND_PATH names a folder without plugins: the static build does not look.
        "static": {
            "MLX_DELEGATE_LIB": str(static_lib),
            "MLX_DELEGATE_HOST_LIB": str(static_lib),
            "MLX_BACKEND_PATH": str(empty),
        },
    }
    outputs, results = {}, {}
    for mode, env in runs.items():
        out = tmp_path / f"out_{mode}.bin"
        body = f"PTE = {str(pte)!r}\nIN = {str(inputs)!r}\nOUT = {str(out)!r}\n" + RUN
        results[mode], _ = scenario.run(body, env=env, warm=True)
        outputs[mode] = read_tensors(out)

    assert results["plugin"]["backends"] == [
        ["cpu", str(runtime_build / "backends" / "libmlx-cpu.so")]
    ]
    assert results["static"]["backends"] == [["cpu", "linked:cpu"]]
    assert results["static"]["search_paths"] == []
    assert results["static"]["library"] == str(static_lib)
    (plugin,), (static,) = outputs["plugin"], outputs["static"]
    assert torch.equal(plugin, static)
    with torch.no_grad():
        torch.testing.assert_close(static, model(x), rtol=1e-5, atol=1e-6)


def test_static_build_loads_nothing_by_path(scenario, runtime_build, static_lib):
    result, _ = scenario.run(
        f"""
        try:
            backends.load({str(runtime_build / "backends" / "libmlx-cpu.so")!r})
            result = "loaded"
        except backends.BackendError as e:
            result = str(e)
        """,
        env={"MLX_DELEGATE_HOST_LIB": str(static_lib)},
    )
    assert "static build" in result
