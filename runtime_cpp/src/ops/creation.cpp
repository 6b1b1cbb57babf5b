// Creation ops and runtime values.
#include <cmath>

#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

void exec_arange(const ArangeNode& n, ExecutionState& st, StreamOrDevice s) {
  double start = n.start ? st.resolve(*n.start) : 0.0;
  double stop = st.resolve(n.stop);
  double step = n.step ? st.resolve(*n.step) : 1.0;
  if (step == 0.0) throw ExecutionError("arange: step is 0");
  st.set_tensor(n.out, mx::arange(start, stop, step, to_mlx_dtype(n.dtype), s));
}

void exec_full(const FullNode& n, ExecutionState& st, StreamOrDevice s) {
  mx::Dtype t = to_mlx_dtype(n.dtype);
  st.set_tensor(n.out,
                mx::full(resolve_shape(n.shape, st), mx::array(st.resolve(n.value), t), t, s));
}

void exec_full_like(const FullLikeNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  mx::Dtype t = n.dtype ? to_mlx_dtype(*n.dtype) : x.dtype();
  st.set_tensor(n.out, mx::full(x.shape(), mx::array(n.value, t), t, s));
}

void exec_sym_size(const SymSizeNode& n, ExecutionState& st, StreamOrDevice) {
  const mx::array& x = st.tensor(n.x);
  st.set_value(n.out, int64_t{x.shape(normalize_axis(n.dim, x.ndim(), "sym_size"))});
}

void exec_item(const ItemNode& n, ExecutionState& st, StreamOrDevice) {
  const mx::array& x = st.tensor(n.x);
  if (x.dtype() == mx::bool_) {
    st.set_value(n.out, host_scalar<bool>(x, "item"));
  } else if (mx::issubdtype(x.dtype(), mx::inexact)) {
    st.set_value(n.out, static_cast<double>(host_scalar<float>(x, "item")));
  } else {
    st.set_value(n.out, host_scalar<int64_t>(x, "item"));
  }
}

void exec_int_binary(const IntBinaryNode& n, ExecutionState& st, StreamOrDevice) {
  int64_t a = st.resolve(n.a);
  int64_t b = st.resolve(n.b);
  int64_t r = 0;
  switch (n.op) {
    case ir::IntBinaryOp_Add:
      r = a + b;
      break;
    case ir::IntBinaryOp_Sub:
      r = a - b;
      break;
    case ir::IntBinaryOp_Mul:
      r = a * b;
      break;
    case ir::IntBinaryOp_FloorDiv:
    case ir::IntBinaryOp_Mod: {
      if (b == 0) throw ExecutionError("integer division by zero");
      int64_t q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;  // Python floor division
      r = n.op == ir::IntBinaryOp_FloorDiv ? q : a - q * b;
      break;
    }
    case ir::IntBinaryOp_Min:
      r = std::min(a, b);
      break;
    case ir::IntBinaryOp_Max:
      r = std::max(a, b);
      break;
    default:
      throw ExecutionError("int_binary: unknown op " + std::to_string(int(n.op)));
  }
  st.set_value(n.out, r);
}

}  // namespace mlxd
