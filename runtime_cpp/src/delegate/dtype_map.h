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
#define MLXD_DTYPE_FROM_SCALAR_TYPE(name, code, bytes, torch, mlx, executorch) \
  case ScalarType::executorch:                                                 \
    *out = DType::name;                                                        \
    return true;
    MLXD_FOR_EACH_DTYPE(MLXD_DTYPE_FROM_SCALAR_TYPE)
#undef MLXD_DTYPE_FROM_SCALAR_TYPE
    default:
      return false;
  }
}

// false for a value outside the DType enum.
inline bool to_scalar_type(DType d, ScalarType* out) noexcept {
  switch (d) {
#define MLXD_DTYPE_TO_SCALAR_TYPE(name, code, bytes, torch, mlx, executorch) \
  case DType::name:                                                          \
    *out = ScalarType::executorch;                                           \
    return true;
    MLXD_FOR_EACH_DTYPE(MLXD_DTYPE_TO_SCALAR_TYPE)
#undef MLXD_DTYPE_TO_SCALAR_TYPE
  }
  return false;
}

}  // namespace mlxd::delegate
