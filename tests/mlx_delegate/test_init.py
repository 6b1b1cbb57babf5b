"""What `import mlx_delegate` gives (mlx_delegate/__init__.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

import mlx_delegate

ROOT = Path(__file__).resolve().parents[2]


def test_import_mlx_delegate_imports_neither_torch_nor_executorch():
    code = (
        "import sys, mlx_delegate, mlx_delegate.__main__\n"
        "print(sorted(m for m in ('torch', 'executorch', 'torchao') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_mlx_partitioner_is_the_partitioners_class():
    from mlx_delegate import MLXPartitioner
    from mlx_delegate.compiler.partitioner import MLXPartitioner as defined

    assert MLXPartitioner is defined
    assert "MLXPartitioner" in dir(mlx_delegate)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchName'"):
        getattr(mlx_delegate, "NoSuchName")
    with pytest.raises(ImportError, match="cannot import name 'NoSuchName'"):
        from mlx_delegate import NoSuchName  # noqa: F401


def test_submodules_still_import_by_name():
    from mlx_delegate.host import backends

    assert backends.__name__ == "mlx_delegate.host.backends"


# The lines torchao and torch print when ExecuTorch imports torchao, and when
# torch.export copies its own pytree specs (mlx_delegate/_quiet.py).
NOISE = ("_C_mxfp8", "_C_cutlass_90a", "KernelPreference", "LeafSpec")
# What the user's script says besides: a warning and a torchao line of no
# concern to us, which must still show.
UNRELATED = """
import logging, warnings
warnings.warn("an unrelated deprecation", FutureWarning)
logging.getLogger("torchao").warning("an unrelated torchao line")
"""


class Add(torch.nn.Module):
    def forward(self, a, b):
        return a + b


@pytest.fixture(scope="module")
def add_pte(tmp_path_factory) -> Path:
    from executorch.exir import to_edge_transform_and_lower

    from mlx_delegate import MLXPartitioner

    args = (torch.randn(2, 3), torch.randn(2, 3))
    edge = to_edge_transform_and_lower(
        torch.export.export(Add(), args), partitioner=[MLXPartitioner()]
    )
    path = tmp_path_factory.mktemp("quiet") / "add.pte"
    path.write_bytes(edge.to_executorch().buffer)
    return path


def _stderr(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_running_a_pte_after_importing_the_runtime_prints_no_noise(add_pte):
    """The README's way: `import mlx_delegate.runtime`, then ExecuTorch's Runtime."""
    err = _stderr(
        "import mlx_delegate.runtime\n"
        "import torch\n"
        "from executorch.runtime import Runtime\n"
        f"program = Runtime.get().load_program({str(add_pte)!r})\n"
        "(out,) = program.load_method('forward').execute([torch.ones(2, 3), torch.ones(2, 3)])\n"
        "assert bool((out == 2).all())\n" + UNRELATED
    )
    assert not [n for n in NOISE if n in err], err
    assert "an unrelated deprecation" in err and "an unrelated torchao line" in err, err


def test_lowering_after_importing_the_partitioner_prints_no_noise():
    err = _stderr(
        "from mlx_delegate import MLXPartitioner\n"
        "import torch\n"
        "from executorch.exir import to_edge_transform_and_lower\n"
        "class Add(torch.nn.Module):\n"
        "    def forward(self, a, b):\n"
        "        return a + b\n"
        "args = (torch.randn(2, 3), torch.randn(2, 3))\n"
        "edge = to_edge_transform_and_lower(torch.export.export(Add(), args),\n"
        "                                   partitioner=[MLXPartitioner()])\n"
        "edge.to_executorch()\n" + UNRELATED
    )
    assert not [n for n in NOISE if n in err], err
    assert "an unrelated deprecation" in err and "an unrelated torchao line" in err, err
