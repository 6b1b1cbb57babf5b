// generated from schema/schema.fbs by templates/ir/cpp/mlx_dispatch.h.j2, do not edit
//
// The interpreter's op dispatch. Every `exec_*` function declared here is
// hand-written in runtime_cpp/src/ops/ or generated for a declared op
// (mlx_declared_ops.cpp); one that is missing fails the plugin's link
// (--no-undefined) with an undefined reference naming it.
#pragma once

#include <mlx/mlx.h>

#include <cstdint>
#include <vector>

#include "mlx_delegate/execution_state.h"
#include "mlx_program.h"

namespace mlxd {

using StreamOrDevice = mlx::core::StreamOrDevice;

void exec_add(const AddNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_subtract(const SubtractNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_multiply(const MultiplyNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_divide(const DivideNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_power(const PowerNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_maximum(const MaximumNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_minimum(const MinimumNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_equal(const EqualNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_not_equal(const NotEqualNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_less(const LessNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_less_equal(const LessEqualNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_greater(const GreaterNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_greater_equal(const GreaterEqualNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_logical_and(const LogicalAndNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_logical_or(const LogicalOrNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_neg(const NegNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_abs(const AbsNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_exp(const ExpNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_log(const LogNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_sqrt(const SqrtNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_rsqrt(const RsqrtNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_sin(const SinNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_cos(const CosNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_tanh(const TanhNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_sigmoid(const SigmoidNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_erf(const ErfNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_floor(const FloorNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_ceil(const CeilNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_round(const RoundNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_reciprocal(const ReciprocalNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_logical_not(const LogicalNotNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_relu(const ReluNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_silu(const SiluNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_gelu(const GeluNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_leaky_relu(const LeakyReluNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_clip(const ClipNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_where(const WhereNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_as_type(const AsTypeNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_copy(const CopyNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_sum(const SumNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_mean(const MeanNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_max(const MaxNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_min(const MinNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_prod(const ProdNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_any(const AnyNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_all(const AllNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_var(const VarNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_std(const StdNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_arg_max(const ArgMaxNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_arg_min(const ArgMinNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_cum_sum(const CumSumNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_softmax(const SoftmaxNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_log_softmax(const LogSoftmaxNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_linear(const LinearNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_addmm(const AddmmNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_matmul(const MatmulNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_layer_norm(const LayerNormNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_rms_norm(const RmsNormNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_conv(const ConvNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_scaled_dot_product_attention(const ScaledDotProductAttentionNode& node,
                                       ExecutionState& state, StreamOrDevice stream);
void exec_reshape(const ReshapeNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_transpose(const TransposeNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_expand_dims(const ExpandDimsNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_squeeze(const SqueezeNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_broadcast_to(const BroadcastToNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_slice(const SliceNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_select(const SelectNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_concatenate(const ConcatenateNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_stack(const StackNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_split(const SplitNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_tile(const TileNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_flip(const FlipNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_pad(const PadNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_tril(const TrilNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_triu(const TriuNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_take(const TakeNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_take_along_axis(const TakeAlongAxisNode& node, ExecutionState& state,
                          StreamOrDevice stream);
void exec_index(const IndexNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_scatter_add(const ScatterAddNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_slice_update(const SliceUpdateNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_arange(const ArangeNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_full(const FullNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_full_like(const FullLikeNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_sym_size(const SymSizeNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_item(const ItemNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_int_binary(const IntBinaryNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_index_put(const IndexPutNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_tan(const TanNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_sinh(const SinhNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_cosh(const CoshNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_arc_sin(const ArcSinNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_arc_cos(const ArcCosNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_arc_tan(const ArcTanNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_arc_sinh(const ArcSinhNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_arc_cosh(const ArcCoshNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_arc_tanh(const ArcTanhNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_log2(const Log2Node& node, ExecutionState& state, StreamOrDevice stream);
void exec_log10(const Log10Node& node, ExecutionState& state, StreamOrDevice stream);
void exec_log1p(const Log1pNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_expm1(const Expm1Node& node, ExecutionState& state, StreamOrDevice stream);
void exec_sign(const SignNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_trunc(const TruncNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_square(const SquareNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_is_nan(const IsNanNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_is_inf(const IsInfNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_bitwise_not(const BitwiseNotNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_bitwise_and(const BitwiseAndNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_bitwise_or(const BitwiseOrNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_bitwise_xor(const BitwiseXorNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_arc_tan2(const ArcTan2Node& node, ExecutionState& state, StreamOrDevice stream);
void exec_log_add_exp(const LogAddExpNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_remainder(const RemainderNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_log_sum_exp(const LogSumExpNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_cum_prod(const CumProdNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_sort(const SortNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_roll(const RollNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_pool(const PoolNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_upsample(const UpsampleNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_logical_xor(const LogicalXorNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_cond(const CondNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_while(const WhileNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_is_pos_inf(const IsPosInfNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_is_neg_inf(const IsNegInfNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_quantized_linear(const QuantizedLinearNode& node, ExecutionState& state,
                           StreamOrDevice stream);
void exec_dequantize(const DequantizeNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_rope(const RopeNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_gather_mm(const GatherMMNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_gather_qmm(const GatherQMMNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_scatter(const ScatterNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_sample(const SampleNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_all_sum(const AllSumNode& node, ExecutionState& state, StreamOrDevice stream);
void exec_all_gather(const AllGatherNode& node, ExecutionState& state, StreamOrDevice stream);

/// Runs one instruction by calling the `exec_*` function of its op.
void dispatch(const Instruction& instruction, ExecutionState& state, StreamOrDevice stream);

/// The slots an instruction reads and writes (slot fields marked `output` are
/// written, the others read), for the analyses of the compiled executor.
struct SlotUses {
  std::vector<uint32_t> tensor_reads;
  std::vector<uint32_t> tensor_writes;
  std::vector<uint32_t> value_reads;
  std::vector<uint32_t> value_writes;
};
SlotUses slot_uses(const Instruction& instruction);

}  // namespace mlxd
