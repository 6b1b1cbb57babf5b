"""Loads the generated IR modules (from schema/schema.fbs) by path, once, without
importing torch: the runtime API (backends.py, runtime.py) needs some of them too.

generated/ is committed at the repository root rather than inside this package; an installed
wheel carries it inside the package (_layout.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from . import _layout

GENERATED_PYTHON = _layout.GENERATED_DIR / "python"


def load(module_name: str, file_name: str) -> ModuleType:
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, GENERATED_PYTHON / file_name)
    if spec is None or spec.loader is None:
        raise ImportError(f"generated module {GENERATED_PYTHON / file_name} is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def dtypes() -> ModuleType:
    """The IR's dtype table (`DTYPES`: code, size, torch/numpy/MLX/ExecuTorch names)."""
    return load("mlx_delegate.ir.dtypes", "schema_dtypes.py")


def payload() -> ModuleType:
    """The delegate payload's header facts (`MAGIC`, `HEADER`, `ALIGNMENT`, `BACKEND_ID`)."""
    return load("mlx_delegate.ir.payload", "schema_payload.py")


def declared() -> ModuleType:
    """The ops the schema declares one-to-one onto an MLX function (`DECLARED_OPS`)."""
    return load("mlx_delegate.ir.declared", "schema_declared.py")
