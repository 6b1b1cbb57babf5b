// generated from schema/schema.fbs by templates/ir/cpp/mlx_dtypes.h.j2, do not edit
//
// The IR's element types, one X(...) per `DType` value:
//   X(Name, code, bytes, "torch name", mlx::core Dtype, ExecuTorch ScalarType)
// Each map between dtype codes and MLX's or ExecuTorch's types expands this list
// where those libraries' headers are included; this header includes none.
#pragma once

#define MLXD_FOR_EACH_DTYPE(X)                      \
  X(Float32, 0, 4, "float32", float32, Float)       \
  X(Float16, 1, 2, "float16", float16, Half)        \
  X(BFloat16, 2, 2, "bfloat16", bfloat16, BFloat16) \
  X(Int32, 3, 4, "int32", int32, Int)               \
  X(Int64, 4, 8, "int64", int64, Long)              \
  X(Int8, 5, 1, "int8", int8, Char)                 \
  X(UInt8, 6, 1, "uint8", uint8, Byte)              \
  X(Bool, 7, 1, "bool", bool_, Bool)                \
  X(Int16, 8, 2, "int16", int16, Short)             \
  X(UInt16, 9, 2, "uint16", uint16, UInt16)         \
  X(UInt32, 10, 4, "uint32", uint32, UInt32)        \
  X(UInt64, 11, 8, "uint64", uint64, UInt64)        \
  X(Float64, 12, 8, "float64", float64, Double)
