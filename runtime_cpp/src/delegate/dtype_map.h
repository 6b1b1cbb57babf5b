// Element type mapping between ExecuTorch's ScalarType and the IR / plugin
// DType numbering (mlxd::DType, equal to schema.fbs's `DType`). Shared by the
// delegate backend and the mlxd-run runner.
#pragma once

#include <executorch/runtime/core/exec_aten/exec_aten.h>

#include "mlx_delegate/backend_interface.h"

namespace mlxd::delegate {

using ScalarType = executorch::aten::ScalarType;

// false for a ScalarType the IR has no DType for (complex, quantized, ...).
inline bool to_ir_dtype(ScalarType s, DType* out) noexcept {
  switch (s) {
    case ScalarType::Float:
      *out = DType::Float32;
      return true;
    case ScalarType::Half:
      *out = DType::Float16;
      return true;
    case ScalarType::BFloat16:
      *out = DType::BFloat16;
      return true;
    case ScalarType::Int:
      *out = DType::Int32;
      return true;
    case ScalarType::Long:
      *out = DType::Int64;
      return true;
    case ScalarType::Char:
      *out = DType::Int8;
      return true;
    case ScalarType::Byte:
      *out = DType::UInt8;
      return true;
    case ScalarType::Bool:
      *out = DType::Bool;
      return true;
    case ScalarType::Short:
      *out = DType::Int16;
      return true;
    case ScalarType::UInt16:
      *out = DType::UInt16;
      return true;
    case ScalarType::UInt32:
      *out = DType::UInt32;
      return true;
    case ScalarType::UInt64:
      *out = DType::UInt64;
      return true;
    case ScalarType::Double:
      *out = DType::Float64;
      return true;
    default:
      return false;
  }
}

// false for a value outside the DType enum.
inline bool to_scalar_type(DType d, ScalarType* out) noexcept {
  switch (d) {
    case DType::Float32:
      *out = ScalarType::Float;
      return true;
    case DType::Float16:
      *out = ScalarType::Half;
      return true;
    case DType::BFloat16:
      *out = ScalarType::BFloat16;
      return true;
    case DType::Int32:
      *out = ScalarType::Int;
      return true;
    case DType::Int64:
      *out = ScalarType::Long;
      return true;
    case DType::Int8:
      *out = ScalarType::Char;
      return true;
    case DType::UInt8:
      *out = ScalarType::Byte;
      return true;
    case DType::Bool:
      *out = ScalarType::Bool;
      return true;
    case DType::Int16:
      *out = ScalarType::Short;
      return true;
    case DType::UInt16:
      *out = ScalarType::UInt16;
      return true;
    case DType::UInt32:
      *out = ScalarType::UInt32;
      return true;
    case DType::UInt64:
      *out = ScalarType::UInt64;
      return true;
    case DType::Float64:
      *out = ScalarType::Double;
      return true;
  }
  return false;
}

}  // namespace mlxd::delegate
