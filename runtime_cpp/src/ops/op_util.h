// Helpers shared by the exec_* implementations.
#pragma once

#include <mlx/mlx.h>

#include <optional>
#include <string>
#include <vector>

#include "mlx_delegate/backend_interface.h"
#include "mlx_delegate/execution_state.h"
#include "mlx_dispatch.h"

namespace mlxd::ops {

namespace mx = mlx::core;

mx::Dtype to_mlx_dtype(ir::DType t);

// `axis` in [-ndim, ndim) → [0, ndim); throws otherwise.
int normalize_axis(int axis, int ndim, const char* op);

// Axes to reduce: all of them when `axes` is empty.
std::vector<int> reduce_axes(const std::vector<int32_t>& axes, int ndim, const char* op);

// Resolves a shape of literals and value slots.
mx::Shape resolve_shape(const std::vector<IntOrVid>& shape, const ExecutionState& st);

// MLX 0.32's CPU kernels multiply half precision in half precision (its
// bfloat16 quantized_matmul differed from torchao's float32-accumulated
// product by up to 0.078 on logits of about 1) or not at all (gather_mm takes
// float32 only); its GPU kernels take half precision and accumulate in
// float32. So on the CPU a half-precision product widens its operands to
// float32 and rounds its result once; on the GPU it runs as it is.
bool widens_on_cpu(const mx::array& a, StreamOrDevice s);

// `a` in float32 when `widen`, else `a` itself.
mx::array widened(const mx::array& a, bool widen, StreamOrDevice s);

// A product computed widened (`widen`), rounded once back to `dtype`; else as it is.
mx::array narrowed(const mx::array& a, mx::Dtype dtype, bool widen, StreamOrDevice s);

// `indices` (possibly reshaped) as the uint32 array they were cast from, when
// they were: a sort's order that the program widened to torch's int64. MLX
// indexes with those directly: no cast back, no wrap of negative indices (two
// kernels an index saved in each step of a MoE router). nullopt otherwise.
std::optional<mx::array> unsigned_origin(const mx::array& indices, StreamOrDevice s);

// A stable descending order of `x` along `axis` (uint32 positions).
mx::array descending_order(const mx::array& x, int axis, StreamOrDevice s);

// A quantized weight's scales (and, Affine only, biases) as MLX takes them,
// with MLX's name for the mode (the schema's QuantMode name, lower-cased).
// Float scales and biases are widened with the activations (`widen`); the fp
// modes' uint8 scales are bytes of E8M0/E4M3 numbers and stay as they are.
struct QuantizedScales {
  std::string mode;
  mx::array scales;
  std::optional<mx::array> biases;
};
QuantizedScales quantized_scales(ir::QuantMode mode, const Tid& scales,
                                 const std::optional<Tid>& biases, const ExecutionState& st,
                                 bool widen, StreamOrDevice s, const char* op);

// Whether a product of activations `x` with an affine weight in MLX's layout
// (`transpose`) may dequantize the weight first: on MLX's CUDA backend, in half
// precision, where a quantized product of many rows runs below the dequantized
// one (linalg.cpp and gather_matmul.cpp say from how many rows, and what was
// measured). A float32 product there would take MLX's TF32 default, coarser
// than the packed product.
bool dequantizes_on_cuda(ir::QuantMode mode, bool transpose, const mx::array& x, StreamOrDevice s);

// The affine weight of a quantized product node (QuantizedLinearNode,
// GatherQMMNode) dequantized in `x`'s dtype, for a product that
// dequantizes_on_cuda. The step then asks for a wait
// (ExecutionState::ask_to_evaluate): the dequantized weight lives until the
// device has run its product, and the host builds a prompt's layers ahead of it.
template <typename QuantizedProduct>
mx::array dequantized_weight(const QuantizedProduct& n, const mx::array& x, ExecutionState& st,
                             StreamOrDevice s, const char* op) {
  QuantizedScales q = quantized_scales(n.mode, n.scales, n.biases, st, false, s, op);
  st.ask_to_evaluate();
  return mx::dequantize(st.tensor(n.w), q.scales, q.biases, n.group_size, n.bits, q.mode,
                        std::nullopt, x.dtype(), s);
}

// The one element of `x`, as T, on the host. An array already computed (a
// program input, in host memory) is read where it is: no MLX op, no
// evaluation. Evaluating even a reshape hands it to MLX's CPU stream thread
// and waits: an LLM's decode step that read its position and temperature so
// took 0.79 ms to build on an H200's host (30B-A3B shape, 4 layers), and
// 0.13-0.16 ms without. Another array is computed first.
template <typename T>
T host_scalar(const mx::array& x, const char* op) {
  if (x.size() != 1) {
    throw ExecutionError(std::string(op) + ": tensor has " + std::to_string(x.size()) +
                         " elements, not 1");
  }
  mx::array y = x;
  if (!y.is_available()) mx::eval(y);
  switch (y.dtype().val()) {
    case mx::Dtype::Val::bool_:
      return static_cast<T>(*y.data<bool>());
    case mx::Dtype::Val::uint8:
      return static_cast<T>(*y.data<uint8_t>());
    case mx::Dtype::Val::uint16:
      return static_cast<T>(*y.data<uint16_t>());
    case mx::Dtype::Val::uint32:
      return static_cast<T>(*y.data<uint32_t>());
    case mx::Dtype::Val::uint64:
      return static_cast<T>(*y.data<uint64_t>());
    case mx::Dtype::Val::int8:
      return static_cast<T>(*y.data<int8_t>());
    case mx::Dtype::Val::int16:
      return static_cast<T>(*y.data<int16_t>());
    case mx::Dtype::Val::int32:
      return static_cast<T>(*y.data<int32_t>());
    case mx::Dtype::Val::int64:
      return static_cast<T>(*y.data<int64_t>());
    case mx::Dtype::Val::float16:
      return static_cast<T>(static_cast<float>(*y.data<mx::float16_t>()));
    case mx::Dtype::Val::bfloat16:
      return static_cast<T>(static_cast<float>(*y.data<mx::bfloat16_t>()));
    case mx::Dtype::Val::float32:
      return static_cast<T>(*y.data<float>());
    case mx::Dtype::Val::float64:
      return static_cast<T>(*y.data<double>());
    default:
      throw ExecutionError(std::string(op) + ": a complex tensor has no real value");
  }
}

inline int32_t to_i32(int64_t v, const char* what) {
  if (v < INT32_MIN || v > INT32_MAX) {
    throw ExecutionError(std::string(what) + " " + std::to_string(v) + " does not fit in int32");
  }
  return static_cast<int32_t>(v);
}

}  // namespace mlxd::ops
