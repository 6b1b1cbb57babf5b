# generated from schema/schema.fbs by templates/ir/dtypes.py.j2, do not edit
"""The IR's element types: each `DType` code with its size and its name in
torch, numpy (None where numpy has no such type), MLX and ExecuTorch."""

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class DTypeInfo:
    name: str
    code: int
    bytes: int
    torch: str
    numpy: Optional[str]
    mlx: str
    executorch: str


DTYPES: tuple[DTypeInfo, ...] = (
    DTypeInfo("Float32", 0, 4, "float32", "float32", "float32", "Float"),
    DTypeInfo("Float16", 1, 2, "float16", "float16", "float16", "Half"),
    DTypeInfo("BFloat16", 2, 2, "bfloat16", None, "bfloat16", "BFloat16"),
    DTypeInfo("Int32", 3, 4, "int32", "int32", "int32", "Int"),
    DTypeInfo("Int64", 4, 8, "int64", "int64", "int64", "Long"),
    DTypeInfo("Int8", 5, 1, "int8", "int8", "int8", "Char"),
    DTypeInfo("UInt8", 6, 1, "uint8", "uint8", "uint8", "Byte"),
    DTypeInfo("Bool", 7, 1, "bool", "bool", "bool_", "Bool"),
    DTypeInfo("Int16", 8, 2, "int16", "int16", "int16", "Short"),
    DTypeInfo("UInt16", 9, 2, "uint16", "uint16", "uint16", "UInt16"),
    DTypeInfo("UInt32", 10, 4, "uint32", "uint32", "uint32", "UInt32"),
    DTypeInfo("UInt64", 11, 8, "uint64", "uint64", "uint64", "UInt64"),
    DTypeInfo("Float64", 12, 8, "float64", "float64", "float64", "Double"),
)
