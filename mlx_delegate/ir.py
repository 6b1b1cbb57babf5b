"""The generated IR modules (from schema/schema.fbs), importable as
`mlx_delegate.ir.schema` and `mlx_delegate.ir.inspector`.

generated/ is committed at the repository root rather than inside this package,
so its modules are loaded from there by path, once."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import torch

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


# torch dtype of each IR DType code: the one map between the two, used by the
# compiler and the .bin tensor files.
TORCH_DTYPES: dict[int, torch.dtype] = {
    schema.DType.Float32: torch.float32,
    schema.DType.Float16: torch.float16,
    schema.DType.BFloat16: torch.bfloat16,
    schema.DType.Int32: torch.int32,
    schema.DType.Int64: torch.int64,
    schema.DType.Int8: torch.int8,
    schema.DType.UInt8: torch.uint8,
    schema.DType.Bool: torch.bool,
    schema.DType.Int16: torch.int16,
    schema.DType.UInt16: torch.uint16,
    schema.DType.UInt32: torch.uint32,
    schema.DType.UInt64: torch.uint64,
    schema.DType.Float64: torch.float64,
}
