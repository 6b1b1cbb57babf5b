#include "op_util.h"

#include <cctype>

#include "mlx_backend.h"

namespace mlxd::ops {

// The loader's ir::DType (flatc's enum) and the plugin interface's DType are
// both generated from the schema's `DType`; the assertions keep them one.
#define MLXD_SAME_DTYPE_CODE(name, code, bytes, torch, mlx, executorch)                    \
  static_assert(                                                                           \
      static_cast<int>(ir::DType_##name) == code && static_cast<int>(DType::name) == code, \
      "ir::DType and mlxd::DType disagree on " #name);
MLXD_FOR_EACH_DTYPE(MLXD_SAME_DTYPE_CODE)
#undef MLXD_SAME_DTYPE_CODE

mx::Dtype to_mlx_dtype(ir::DType t) { return plugin::to_mlx(static_cast<DType>(t)); }

bool widens_on_cpu(const mx::array& a, StreamOrDevice s) {
  return (a.dtype() == mx::bfloat16 || a.dtype() == mx::float16) &&
         mx::to_stream(s).device.type == mx::Device::DeviceType::cpu;
}

mx::array widened(const mx::array& a, bool widen, StreamOrDevice s) {
  return widen ? mx::astype(a, mx::float32, s) : a;
}

QuantizedScales quantized_scales(ir::QuantMode mode, const Tid& scales,
                                 const std::optional<Tid>& biases, const ExecutionState& st,
                                 bool widen, StreamOrDevice s, const char* op) {
  const char* name = ir::EnumNameQuantMode(mode);
  if (name == nullptr || *name == '\0') {
    throw ExecutionError(std::string(op) + ": unknown quantization mode " +
                         std::to_string(static_cast<int>(mode)));
  }
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool affine = mode == ir::QuantMode_Affine;
  if (affine != biases.has_value()) {
    throw ExecutionError(std::string(op) + ": " + lower +
                         (affine ? " quantization needs biases" : " quantization takes no biases"));
  }
  if (!affine) return {lower, st.tensor(scales), std::nullopt};
  return {lower, widened(st.tensor(scales), widen, s), widened(st.tensor(*biases), widen, s)};
}

int normalize_axis(int axis, int ndim, const char* op) {
  int a = axis < 0 ? axis + ndim : axis;
  if (a < 0 || a >= ndim) {
    throw ExecutionError(std::string(op) + ": axis " + std::to_string(axis) + " out of range for " +
                         std::to_string(ndim) + " dimensions");
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
