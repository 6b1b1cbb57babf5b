// Elementwise binary and unary ops, activations, where, casts.
#include <cmath>

#include "cpu_kernels.h"
#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

#define MLXD_BINARY(fn, Node, expr)                              \
  void fn(const Node& n, ExecutionState& st, StreamOrDevice s) { \
    const mx::array& a = st.tensor(n.a);                         \
    const mx::array& b = st.tensor(n.b);                         \
    st.set_tensor(n.out, expr);                                  \
  }

MLXD_BINARY(exec_add, AddNode, mx::add(a, b, s))
MLXD_BINARY(exec_subtract, SubtractNode, mx::subtract(a, b, s))
// On bool, PyTorch's bitwise ops are the logical ones (MLX has no bool bitwise).
MLXD_BINARY(exec_bitwise_and, BitwiseAndNode,
            a.dtype() == mx::bool_ ? mx::logical_and(a, b, s) : mx::bitwise_and(a, b, s))
MLXD_BINARY(exec_bitwise_or, BitwiseOrNode,
            a.dtype() == mx::bool_ ? mx::logical_or(a, b, s) : mx::bitwise_or(a, b, s))
MLXD_BINARY(exec_bitwise_xor, BitwiseXorNode,
            a.dtype() == mx::bool_ ? mx::not_equal(a, b, s) : mx::bitwise_xor(a, b, s))
#undef MLXD_BINARY

void exec_remainder(const RemainderNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& a = st.tensor(n.a);
  const mx::array& b = st.tensor(n.b);
  mx::array r = mx::remainder(a, b, s);
  mx::Dtype t = r.dtype();
  if (mx::issubdtype(t, mx::unsignedinteger) || t == mx::bool_) {
    st.set_tensor(n.out, r);
    return;
  }
  // Whatever sign convention the kernel follows, move a nonzero remainder
  // whose sign differs from the divisor's by one divisor.
  mx::array zero(0, t);
  mx::array differs = mx::logical_and(
      mx::not_equal(r, zero, s), mx::not_equal(mx::less(r, zero, s), mx::less(b, zero, s), s), s);
  st.set_tensor(n.out, mx::where(differs, mx::add(r, b, s), r, s));
}

void exec_divide(const DivideNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& a = st.tensor(n.a);
  const mx::array& b = st.tensor(n.b);
  switch (n.rounding) {
    case ir::DivRounding_None:
      st.set_tensor(n.out, mx::divide(a, b, s));
      return;
    case ir::DivRounding_Floor:
      st.set_tensor(n.out, mx::floor_divide(a, b, s));
      return;
    case ir::DivRounding_Trunc: {
      mx::Dtype t = mx::promote_types(a.dtype(), b.dtype());
      if (mx::issubdtype(t, mx::inexact)) {
        st.set_tensor(n.out, mx::astype(mx::trunc(mx::divide(a, b, s), s), t, s));
      } else {
        // Integer division rounding toward zero: |a| // |b| with the sign of a*b.
        mx::array q = mx::floor_divide(mx::abs(a, s), mx::abs(b, s), s);
        mx::array neg =
            mx::not_equal(mx::less(a, mx::array(0, t), s), mx::less(b, mx::array(0, t), s), s);
        st.set_tensor(n.out, mx::astype(mx::where(neg, mx::negative(q, s), q, s), t, s));
      }
      return;
    }
  }
  throw ExecutionError("divide: unknown rounding mode " + std::to_string(int(n.rounding)));
}

#define MLXD_UNARY(fn, Node, expr)                               \
  void fn(const Node& n, ExecutionState& st, StreamOrDevice s) { \
    const mx::array& x = st.tensor(n.x);                         \
    st.set_tensor(n.out, expr);                                  \
  }

MLXD_UNARY(exec_floor, FloorNode, mx::floor(x, s))
MLXD_UNARY(exec_ceil, CeilNode, mx::ceil(x, s))
MLXD_UNARY(exec_round, RoundNode, mx::round(x, n.decimals, s))
MLXD_UNARY(exec_relu, ReluNode, mx::maximum(x, mx::array(0, x.dtype()), s))
MLXD_UNARY(exec_copy, CopyNode, mx::copy(x, s))
MLXD_UNARY(exec_as_type, AsTypeNode, mx::astype(x, to_mlx_dtype(n.dtype), s))
MLXD_UNARY(exec_trunc, TruncNode, mx::trunc(x, s))
MLXD_UNARY(exec_bitwise_not, BitwiseNotNode,
           x.dtype() == mx::bool_ ? mx::logical_not(x, s) : mx::bitwise_invert(x, s))
#undef MLXD_UNARY

// ---- transcendental activations --------------------------------------------
// A CPU plugin built with our kernels computes these in vectorised passes of its
// own on large tensors (cpu_kernels.h); elsewhere, MLX's ops.

namespace {

template <typename MlxOps>
void set_activation(Tid out, Activation f, const mx::array& x, ExecutionState& st, StreamOrDevice s,
                    MlxOps mlx_ops) {
  if (ActivationKernel kernel = cpu_activation()) {
    if (std::optional<mx::array> y = kernel(f, x, s)) {
      st.set_tensor(out, *y);
      return;
    }
  }
  st.set_tensor(out, mlx_ops());
}

}  // namespace

#define MLXD_ACTIVATION(fn, Node, f, expr)                                \
  void fn(const Node& n, ExecutionState& st, StreamOrDevice s) {          \
    const mx::array& x = st.tensor(n.x);                                  \
    set_activation(n.out, Activation::f, x, st, s, [&] { return expr; }); \
  }

MLXD_ACTIVATION(exec_exp, ExpNode, exp, mx::exp(x, s))
MLXD_ACTIVATION(exec_tanh, TanhNode, tanh, mx::tanh(x, s))
MLXD_ACTIVATION(exec_sigmoid, SigmoidNode, sigmoid, mx::sigmoid(x, s))
MLXD_ACTIVATION(exec_erf, ErfNode, erf, mx::erf(x, s))
MLXD_ACTIVATION(exec_silu, SiluNode, silu, mx::multiply(x, mx::sigmoid(x, s), s))
#undef MLXD_ACTIVATION

void exec_gelu(const GeluNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  mx::Dtype t = x.dtype();
  auto c = [&](double v) { return mx::array(v, t); };
  if (n.approximation == ir::GeluApproximation_Tanh) {
    // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    set_activation(n.out, Activation::gelu_tanh, x, st, s, [&] {
      mx::array inner = mx::multiply(
          c(std::sqrt(2.0 / M_PI)),
          mx::add(x, mx::multiply(c(0.044715), mx::multiply(x, mx::multiply(x, x, s), s), s), s),
          s);
      return mx::multiply(mx::multiply(c(0.5), x, s), mx::add(c(1.0), mx::tanh(inner, s), s), s);
    });
  } else {
    // 0.5 x (1 + erf(x / sqrt(2)))
    set_activation(n.out, Activation::gelu, x, st, s, [&] {
      return mx::multiply(mx::multiply(c(0.5), x, s),
                          mx::add(c(1.0), mx::erf(mx::multiply(x, c(M_SQRT1_2), s), s), s), s);
    });
  }
}

void exec_leaky_relu(const LeakyReluNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  mx::array zero(0, x.dtype());
  st.set_tensor(n.out, mx::where(mx::greater(x, zero, s), x,
                                 mx::multiply(x, mx::array(n.negative_slope, x.dtype()), s), s));
}

void exec_clip(const ClipNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  std::optional<mx::array> lo, hi;
  if (n.min) lo = st.operand(*n.min, x.dtype());
  if (n.max) hi = st.operand(*n.max, x.dtype());
  if (!lo && !hi) {
    st.set_tensor(n.out, x);
    return;
  }
  st.set_tensor(n.out, mx::clip(x, lo, hi, s));
}

void exec_where(const WhereNode& n, ExecutionState& st, StreamOrDevice s) {
  st.set_tensor(n.out, mx::where(st.tensor(n.condition), st.tensor(n.a), st.tensor(n.b), s));
}

}  // namespace mlxd
