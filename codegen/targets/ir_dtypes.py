"""Element-type tables of the IR schema: the facts that the `DType` enum's values
carry as attributes (size, and the name of the type in torch, numpy, MLX and
ExecuTorch), as a C++ X-macro and as a Python table. Every map between dtype
codes and another library's types is derived from these, in each language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import jinja2

from ..diagnostics import SchemaError
from ..model import EnumValue, Schema
from ..naming import schema_stem
from .ir_view import ir_view, render_each, required_declaration

DTYPE_ENUM = "DType"
REQUIRED = ("bytes", "torch", "mlx", "executorch")


@dataclass(frozen=True)
class DTypeFacts:
    name: str  # the enumerator: `Float32`
    code: int
    bytes: int
    torch: str  # `torch.<torch>`; also the display name
    numpy: Optional[str]  # None where numpy has no such type
    mlx: str  # `mlx::core::<mlx>`
    executorch: str  # `ScalarType::<executorch>`


def render(schema: Schema, env: jinja2.Environment) -> dict[str, str]:
    view = ir_view(schema)
    if view is None:
        return {}
    enum = required_declaration(view, schema.enums, DTYPE_ENUM, "an enum")
    outputs = {
        "cpp/mlx_dtypes.h": "ir/cpp/mlx_dtypes.h.j2",
        f"python/{schema_stem(schema.path)}_dtypes.py": "ir/dtypes.py.j2",
    }
    dtypes = tuple(_facts(value) for value in enum.values)
    return render_each(env, outputs, schema=schema, enum=enum, dtypes=dtypes)


def _facts(value: EnumValue) -> DTypeFacts:
    for name in REQUIRED:
        if value.attribute(name) is None:
            raise SchemaError.at(
                value.location, f"dtype '{value.name}' needs the attribute `{name}`"
            )
    size = value.attribute("bytes")
    if not size.isdigit() or int(size) not in (1, 2, 4, 8):
        raise SchemaError.at(value.location, f"dtype '{value.name}': bytes must be 1, 2, 4 or 8")
    return DTypeFacts(
        name=value.name,
        code=value.value,
        bytes=int(size),
        torch=value.attribute("torch"),
        numpy=value.attribute("numpy"),
        mlx=value.attribute("mlx"),
        executorch=value.attribute("executorch"),
    )
