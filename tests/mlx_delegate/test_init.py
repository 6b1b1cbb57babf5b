"""What `import mlx_delegate` gives (mlx_delegate/__init__.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
    from mlx_delegate.partitioner import MLXPartitioner as defined

    assert MLXPartitioner is defined
    assert "MLXPartitioner" in dir(mlx_delegate)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchName'"):
        getattr(mlx_delegate, "NoSuchName")
    with pytest.raises(ImportError, match="cannot import name 'NoSuchName'"):
        from mlx_delegate import NoSuchName  # noqa: F401


def test_submodules_still_import_by_name():
    from mlx_delegate import backends

    assert backends.__name__ == "mlx_delegate.backends"
