"""Loads the generated modules (from schema/*.fbs) once, without importing torch:
the runtime API (backends.py, runtime.py) needs some of them too.

This module is also the package the generated modules are imported from
(`mlx_delegate.formats._generated.<stem>`), so that a reader finds the dataclasses beside
it (`<stem>_reader.py` imports `from . import <stem>`), and every module is
loaded once, under whichever names it is asked for.

generated/ is committed at the repository root rather than inside this package; an installed
wheel carries it inside the package (_layout.py)."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from .. import _layout

GENERATED_PYTHON = _layout.GENERATED_DIR / "python"
# A package: its submodules are the generated modules (so no function here may
# be named like one: importing a submodule sets the attribute of its name).
__path__ = [str(GENERATED_PYTHON)]


def load(module_name: str, file_name: str) -> ModuleType:
    """The generated module `file_name`, also known as `module_name`."""
    if module_name in sys.modules:
        return sys.modules[module_name]
    module = generated(file_name.removesuffix(".py"))
    sys.modules[module_name] = module
    return module


def generated(stem: str) -> ModuleType:
    """generated/python/<stem>.py, imported as `mlx_delegate.formats._generated.<stem>`."""
    try:
        return importlib.import_module(f"{__name__}.{stem}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{stem}":
            raise
        raise ImportError(f"generated module {GENERATED_PYTHON / stem}.py is missing") from None


def dtypes() -> ModuleType:
    """The IR's dtype table (`DTYPES`: code, size, torch/numpy/MLX/ExecuTorch names)."""
    return load("mlx_delegate.formats.ir.dtypes", "schema_dtypes.py")


def payload() -> ModuleType:
    """The delegate payload's header facts (`MAGIC`, `HEADER`, `ALIGNMENT`, `BACKEND_ID`)."""
    return load("mlx_delegate.formats.ir.payload", "schema_payload.py")


def declared() -> ModuleType:
    """The ops the schema declares one-to-one onto an MLX function (`DECLARED_OPS`)."""
    return load("mlx_delegate.formats.ir.declared", "schema_declared.py")


def tensor_file_format() -> tuple[ModuleType, ModuleType]:
    """The .bin tensor file's dataclasses and encoder, and its reader (schema/tensor_file.fbs)."""
    return generated("tensor_file"), generated("tensor_file_reader")
