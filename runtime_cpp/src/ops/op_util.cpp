#include "op_util.h"

namespace mlxd::ops {

mx::Dtype to_mlx_dtype(ir::DType t) {
  switch (t) {
    case ir::DType_Float32: return mx::float32;
    case ir::DType_Float16: return mx::float16;
    case ir::DType_BFloat16: return mx::bfloat16;
    case ir::DType_Int32: return mx::int32;
    case ir::DType_Int64: return mx::int64;
    case ir::DType_Int8: return mx::int8;
    case ir::DType_UInt8: return mx::uint8;
    case ir::DType_Bool: return mx::bool_;
    case ir::DType_Int16: return mx::int16;
    case ir::DType_UInt16: return mx::uint16;
    case ir::DType_UInt32: return mx::uint32;
    case ir::DType_UInt64: return mx::uint64;
    case ir::DType_Float64: return mx::float64;
  }
  throw ExecutionError("unknown dtype " + std::to_string(static_cast<int>(t)));
}

int normalize_axis(int axis, int ndim, const char* op) {
  int a = axis < 0 ? axis + ndim : axis;
  if (a < 0 || a >= ndim) {
    throw ExecutionError(std::string(op) + ": axis " + std::to_string(axis) +
                         " out of range for " + std::to_string(ndim) + " dimensions");
  }
  return a;
}

std::vector<int> reduce_axes(const std::vector<int32_t>& axes, int ndim, const char* op) {
  std::vector<int> out;
  if (axes.empty()) {
    for (int i = 0; i < ndim; ++i) out.push_back(i);
    return out;
  }
  for (int32_t a : axes) out.push_back(normalize_axis(a, ndim, op));
  return out;
}

mx::Shape resolve_shape(const std::vector<IntOrVid>& shape, const ExecutionState& st) {
  mx::Shape out;
  for (const auto& d : shape) out.push_back(to_i32(st.resolve(d), "dimension"));
  return out;
}

}  // namespace mlxd::ops
