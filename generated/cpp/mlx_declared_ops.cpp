// generated from schema/schema.fbs by templates/ir/cpp/mlx_declared_ops.cpp.j2, do not edit
//
// The `exec_*` functions of the ops the schema declares one-to-one onto an MLX
// function (`mlx: "..."` on the op table).
#include "mlx_dispatch.h"

namespace mlxd {

void exec_multiply(const MultiplyNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::multiply(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_power(const PowerNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::power(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_maximum(const MaximumNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::maximum(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_minimum(const MinimumNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::minimum(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_equal(const EqualNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::equal(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_not_equal(const NotEqualNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::not_equal(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_less(const LessNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::less(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_less_equal(const LessEqualNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::less_equal(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_greater(const GreaterNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::greater(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_greater_equal(const GreaterEqualNode& node, ExecutionState& state,
                        StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::greater_equal(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_logical_and(const LogicalAndNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::logical_and(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_logical_or(const LogicalOrNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::logical_or(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_neg(const NegNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::negative(state.tensor(node.x), stream));
}

void exec_abs(const AbsNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::abs(state.tensor(node.x), stream));
}

void exec_log(const LogNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::log(state.tensor(node.x), stream));
}

void exec_sqrt(const SqrtNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::sqrt(state.tensor(node.x), stream));
}

void exec_rsqrt(const RsqrtNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::rsqrt(state.tensor(node.x), stream));
}

void exec_sin(const SinNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::sin(state.tensor(node.x), stream));
}

void exec_cos(const CosNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::cos(state.tensor(node.x), stream));
}

void exec_reciprocal(const ReciprocalNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::reciprocal(state.tensor(node.x), stream));
}

void exec_logical_not(const LogicalNotNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::logical_not(state.tensor(node.x), stream));
}

void exec_sum(const SumNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::sum(state.tensor(node.x), node.axes, node.keepdims, stream));
}

void exec_mean(const MeanNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::mean(state.tensor(node.x), node.axes, node.keepdims, stream));
}

void exec_max(const MaxNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::max(state.tensor(node.x), node.axes, node.keepdims, stream));
}

void exec_min(const MinNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::min(state.tensor(node.x), node.axes, node.keepdims, stream));
}

void exec_prod(const ProdNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::prod(state.tensor(node.x), node.axes, node.keepdims, stream));
}

void exec_any(const AnyNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::any(state.tensor(node.x), node.axes, node.keepdims, stream));
}

void exec_all(const AllNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::all(state.tensor(node.x), node.axes, node.keepdims, stream));
}

void exec_tan(const TanNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::tan(state.tensor(node.x), stream));
}

void exec_sinh(const SinhNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::sinh(state.tensor(node.x), stream));
}

void exec_cosh(const CoshNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::cosh(state.tensor(node.x), stream));
}

void exec_arc_sin(const ArcSinNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::arcsin(state.tensor(node.x), stream));
}

void exec_arc_cos(const ArcCosNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::arccos(state.tensor(node.x), stream));
}

void exec_arc_tan(const ArcTanNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::arctan(state.tensor(node.x), stream));
}

void exec_arc_sinh(const ArcSinhNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::arcsinh(state.tensor(node.x), stream));
}

void exec_arc_cosh(const ArcCoshNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::arccosh(state.tensor(node.x), stream));
}

void exec_arc_tanh(const ArcTanhNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::arctanh(state.tensor(node.x), stream));
}

void exec_log2(const Log2Node& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::log2(state.tensor(node.x), stream));
}

void exec_log10(const Log10Node& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::log10(state.tensor(node.x), stream));
}

void exec_log1p(const Log1pNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::log1p(state.tensor(node.x), stream));
}

void exec_expm1(const Expm1Node& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::expm1(state.tensor(node.x), stream));
}

void exec_sign(const SignNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::sign(state.tensor(node.x), stream));
}

void exec_square(const SquareNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::square(state.tensor(node.x), stream));
}

void exec_is_nan(const IsNanNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::isnan(state.tensor(node.x), stream));
}

void exec_is_inf(const IsInfNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::isinf(state.tensor(node.x), stream));
}

void exec_arc_tan2(const ArcTan2Node& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::arctan2(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_log_add_exp(const LogAddExpNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::logaddexp(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_logical_xor(const LogicalXorNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out,
                   mlx::core::logical_xor(state.tensor(node.a), state.tensor(node.b), stream));
}

void exec_is_pos_inf(const IsPosInfNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::isposinf(state.tensor(node.x), stream));
}

void exec_is_neg_inf(const IsNegInfNode& node, ExecutionState& state, StreamOrDevice stream) {
  state.set_tensor(node.out, mlx::core::isneginf(state.tensor(node.x), stream));
}

}  // namespace mlxd
