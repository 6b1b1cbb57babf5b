"""The generated IR modules (from schema/schema.fbs), importable as
`mlx_delegate.formats.ir.schema`, `mlx_delegate.formats.ir.inspector` and `mlx_delegate.formats.ir.dtypes`.
"""

from __future__ import annotations

import torch

from ._generated import dtypes as _dtypes
from ._generated import load

schema = load("mlx_delegate.formats.ir.schema", "schema.py")
inspector = load("mlx_delegate.formats.ir.inspector", "schema_inspector.py")
dtypes = _dtypes()

# torch dtype of each IR DType code: the one map between the two, used by the
# compiler and the .bin tensor files.
TORCH_DTYPES: dict[int, torch.dtype] = {
    schema.DType(d.code): getattr(torch, d.torch) for d in dtypes.DTYPES
}
