"""The generated IR modules (from schema/schema.fbs), importable as
`mlx_delegate.ir.schema` and `mlx_delegate.ir.inspector`.

generated/ is committed at the repository root rather than inside this package,
so its modules are loaded from there by path, once."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

GENERATED_PYTHON = Path(__file__).resolve().parent.parent / "generated" / "python"


def _load(module_name: str, file_name: str) -> ModuleType:
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, GENERATED_PYTHON / file_name)
    if spec is None or spec.loader is None:
        raise ImportError(f"generated module {GENERATED_PYTHON / file_name} is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


schema = _load("mlx_delegate.ir.schema", "schema.py")
inspector = _load("mlx_delegate.ir.inspector", "schema_inspector.py")
