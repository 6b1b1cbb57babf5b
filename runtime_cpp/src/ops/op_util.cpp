#include "op_util.h"

#include <cctype>
#include <limits>
#include <string_view>

#include <mlx/primitives.h>

#include "cpu_kernels.h"
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

namespace {
QuantizedMatmulKernel installed_quantized_matmul = nullptr;
HalfMatmulKernel installed_half_matmul = nullptr;
ActivationKernel installed_activation = nullptr;
SoftmaxKernel installed_softmax = nullptr;
AttentionKernel installed_attention = nullptr;
NormKernel installed_norm = nullptr;
RopeKernel installed_rope = nullptr;
}  // namespace

void set_cpu_quantized_matmul(QuantizedMatmulKernel kernel) { installed_quantized_matmul = kernel; }
QuantizedMatmulKernel cpu_quantized_matmul() { return installed_quantized_matmul; }
void set_cpu_half_matmul(HalfMatmulKernel kernel) { installed_half_matmul = kernel; }
HalfMatmulKernel cpu_half_matmul() { return installed_half_matmul; }
void set_cpu_activation(ActivationKernel kernel) { installed_activation = kernel; }
ActivationKernel cpu_activation() { return installed_activation; }
void set_cpu_softmax(SoftmaxKernel kernel) { installed_softmax = kernel; }
SoftmaxKernel cpu_softmax() { return installed_softmax; }
void set_cpu_attention(AttentionKernel kernel) { installed_attention = kernel; }
AttentionKernel cpu_attention() { return installed_attention; }
void set_cpu_norm(NormKernel kernel) { installed_norm = kernel; }
NormKernel cpu_norm() { return installed_norm; }
void set_cpu_rope(RopeKernel kernel) { installed_rope = kernel; }
RopeKernel cpu_rope() { return installed_rope; }

bool widens_on_cpu(const mx::array& a, StreamOrDevice s) {
  return (a.dtype() == mx::bfloat16 || a.dtype() == mx::float16) &&
         mx::to_stream(s).device.type == mx::Device::DeviceType::cpu;
}

mx::array widened(const mx::array& a, bool widen, StreamOrDevice s) {
  return widen ? mx::astype(a, mx::float32, s) : a;
}

mx::array narrowed(const mx::array& a, mx::Dtype dtype, bool widen, StreamOrDevice s) {
  return widen ? mx::astype(a, dtype, s) : a;
}

std::optional<mx::array> unsigned_origin(const mx::array& indices, StreamOrDevice s) {
  auto made_by = [](const mx::array& a, std::string_view primitive) {
    return a.has_primitive() && a.inputs().size() == 1 && a.primitive().name() == primitive;
  };
  const bool reshaped = made_by(indices, "Reshape");
  const mx::array& cast = reshaped ? indices.inputs()[0] : indices;
  // widened only (to int64 or uint64): a uint32 cast to int32 may have turned negative
  const bool widened = cast.dtype() == mx::int64 || cast.dtype() == mx::uint64;
  if (!made_by(cast, "AsType") || !widened || cast.inputs()[0].dtype() != mx::uint32) {
    return std::nullopt;
  }
  const mx::array& origin = cast.inputs()[0];
  return reshaped ? mx::reshape(origin, indices.shape(), s) : origin;
}

// Floating x: -x sorted ascending, one fused key and one sort (a step's MoE
// router sorts its scores: five kernels became two). NaN, which MLX sorts
// last and a descending torch.sort first, becomes -inf (it ties with +inf, in
// index order). Else x reversed along `axis` sorted ascending (equal values
// then come last-first), that order reversed, positions mapped back to x.
mx::array descending_order(const mx::array& x, int axis, StreamOrDevice s) {
  if (mx::issubdtype(x.dtype(), mx::floating)) {
    mx::array lowest(-std::numeric_limits<float>::infinity(), x.dtype());
    return mx::argsort(mx::where(mx::isnan(x, s), lowest, mx::negative(x, s), s), axis, s);
  }
  int len = x.shape(axis);
  mx::array reversed = mx::arange(len - 1, -1, -1, s);
  mx::array order = mx::argsort(mx::take(x, reversed, axis, s), axis, s);
  return mx::subtract(mx::array(len - 1, mx::uint32), mx::take(order, reversed, axis, s), s);
}

namespace {

// MLX's name of each mode: the schema's QuantMode name lower-cased, made once
// (the products of every decode step ask for it).
const std::vector<std::string>& mode_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> lowered;
    // flatc's list ends with a null pointer
    for (const char* const* name = ir::EnumNamesQuantMode(); *name != nullptr; ++name) {
      std::string lower(*name);
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      lowered.push_back(lower);
    }
    return lowered;
  }();
  return names;
}

}  // namespace

QuantizedScales quantized_scales(ir::QuantMode mode, const Tid& scales,
                                 const std::optional<Tid>& biases, const ExecutionState& st,
                                 bool widen, StreamOrDevice s, const char* op) {
  const auto& names = mode_names();
  auto index = static_cast<size_t>(mode);
  if (index >= names.size() || names[index].empty()) {
    throw ExecutionError(std::string(op) + ": unknown quantization mode " +
                         std::to_string(static_cast<int>(mode)));
  }
  const std::string& lower = names[index];
  bool affine = mode == ir::QuantMode_Affine;
  if (affine != biases.has_value()) {
    throw ExecutionError(std::string(op) + ": " + lower +
                         (affine ? " quantization needs biases" : " quantization takes no biases"));
  }
  if (!affine) return {lower, st.tensor(scales), std::nullopt};
  return {lower, widened(st.tensor(scales), widen, s), widened(st.tensor(*biases), widen, s)};
}

bool dequantizes_on_cuda(ir::QuantMode mode, bool transpose, const mx::array& x, StreamOrDevice s) {
  static const bool cuda = mx::cu::is_available();
  bool half = x.dtype() == mx::bfloat16 || x.dtype() == mx::float16;
  return cuda && half && mode == ir::QuantMode_Affine && transpose &&
         mx::to_stream(s).device.type == mx::Device::DeviceType::gpu;
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
