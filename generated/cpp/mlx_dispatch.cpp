// generated from schema/schema.fbs by templates/ir/cpp/mlx_dispatch.cpp.j2, do not edit
#include "mlx_dispatch.h"

#include <optional>
#include <string>
#include <vector>

namespace mlxd {

void dispatch(const Instruction& instruction, ExecutionState& state, StreamOrDevice stream) {
  switch (instruction.op) {
    case OpCode::ADD:
      return exec_add(std::get<AddNode>(instruction.node), state, stream);
    case OpCode::SUBTRACT:
      return exec_subtract(std::get<SubtractNode>(instruction.node), state, stream);
    case OpCode::MULTIPLY:
      return exec_multiply(std::get<MultiplyNode>(instruction.node), state, stream);
    case OpCode::DIVIDE:
      return exec_divide(std::get<DivideNode>(instruction.node), state, stream);
    case OpCode::POWER:
      return exec_power(std::get<PowerNode>(instruction.node), state, stream);
    case OpCode::MAXIMUM:
      return exec_maximum(std::get<MaximumNode>(instruction.node), state, stream);
    case OpCode::MINIMUM:
      return exec_minimum(std::get<MinimumNode>(instruction.node), state, stream);
    case OpCode::EQUAL:
      return exec_equal(std::get<EqualNode>(instruction.node), state, stream);
    case OpCode::NOT_EQUAL:
      return exec_not_equal(std::get<NotEqualNode>(instruction.node), state, stream);
    case OpCode::LESS:
      return exec_less(std::get<LessNode>(instruction.node), state, stream);
    case OpCode::LESS_EQUAL:
      return exec_less_equal(std::get<LessEqualNode>(instruction.node), state, stream);
    case OpCode::GREATER:
      return exec_greater(std::get<GreaterNode>(instruction.node), state, stream);
    case OpCode::GREATER_EQUAL:
      return exec_greater_equal(std::get<GreaterEqualNode>(instruction.node), state, stream);
    case OpCode::LOGICAL_AND:
      return exec_logical_and(std::get<LogicalAndNode>(instruction.node), state, stream);
    case OpCode::LOGICAL_OR:
      return exec_logical_or(std::get<LogicalOrNode>(instruction.node), state, stream);
    case OpCode::NEG:
      return exec_neg(std::get<NegNode>(instruction.node), state, stream);
    case OpCode::ABS:
      return exec_abs(std::get<AbsNode>(instruction.node), state, stream);
    case OpCode::EXP:
      return exec_exp(std::get<ExpNode>(instruction.node), state, stream);
    case OpCode::LOG:
      return exec_log(std::get<LogNode>(instruction.node), state, stream);
    case OpCode::SQRT:
      return exec_sqrt(std::get<SqrtNode>(instruction.node), state, stream);
    case OpCode::RSQRT:
      return exec_rsqrt(std::get<RsqrtNode>(instruction.node), state, stream);
    case OpCode::SIN:
      return exec_sin(std::get<SinNode>(instruction.node), state, stream);
    case OpCode::COS:
      return exec_cos(std::get<CosNode>(instruction.node), state, stream);
    case OpCode::TANH:
      return exec_tanh(std::get<TanhNode>(instruction.node), state, stream);
    case OpCode::SIGMOID:
      return exec_sigmoid(std::get<SigmoidNode>(instruction.node), state, stream);
    case OpCode::ERF:
      return exec_erf(std::get<ErfNode>(instruction.node), state, stream);
    case OpCode::FLOOR:
      return exec_floor(std::get<FloorNode>(instruction.node), state, stream);
    case OpCode::CEIL:
      return exec_ceil(std::get<CeilNode>(instruction.node), state, stream);
    case OpCode::ROUND:
      return exec_round(std::get<RoundNode>(instruction.node), state, stream);
    case OpCode::RECIPROCAL:
      return exec_reciprocal(std::get<ReciprocalNode>(instruction.node), state, stream);
    case OpCode::LOGICAL_NOT:
      return exec_logical_not(std::get<LogicalNotNode>(instruction.node), state, stream);
    case OpCode::RELU:
      return exec_relu(std::get<ReluNode>(instruction.node), state, stream);
    case OpCode::SILU:
      return exec_silu(std::get<SiluNode>(instruction.node), state, stream);
    case OpCode::GELU:
      return exec_gelu(std::get<GeluNode>(instruction.node), state, stream);
    case OpCode::LEAKY_RELU:
      return exec_leaky_relu(std::get<LeakyReluNode>(instruction.node), state, stream);
    case OpCode::CLIP:
      return exec_clip(std::get<ClipNode>(instruction.node), state, stream);
    case OpCode::WHERE:
      return exec_where(std::get<WhereNode>(instruction.node), state, stream);
    case OpCode::AS_TYPE:
      return exec_as_type(std::get<AsTypeNode>(instruction.node), state, stream);
    case OpCode::COPY:
      return exec_copy(std::get<CopyNode>(instruction.node), state, stream);
    case OpCode::SUM:
      return exec_sum(std::get<SumNode>(instruction.node), state, stream);
    case OpCode::MEAN:
      return exec_mean(std::get<MeanNode>(instruction.node), state, stream);
    case OpCode::MAX:
      return exec_max(std::get<MaxNode>(instruction.node), state, stream);
    case OpCode::MIN:
      return exec_min(std::get<MinNode>(instruction.node), state, stream);
    case OpCode::PROD:
      return exec_prod(std::get<ProdNode>(instruction.node), state, stream);
    case OpCode::ANY:
      return exec_any(std::get<AnyNode>(instruction.node), state, stream);
    case OpCode::ALL:
      return exec_all(std::get<AllNode>(instruction.node), state, stream);
    case OpCode::VAR:
      return exec_var(std::get<VarNode>(instruction.node), state, stream);
    case OpCode::STD:
      return exec_std(std::get<StdNode>(instruction.node), state, stream);
    case OpCode::ARG_MAX:
      return exec_arg_max(std::get<ArgMaxNode>(instruction.node), state, stream);
    case OpCode::ARG_MIN:
      return exec_arg_min(std::get<ArgMinNode>(instruction.node), state, stream);
    case OpCode::CUM_SUM:
      return exec_cum_sum(std::get<CumSumNode>(instruction.node), state, stream);
    case OpCode::SOFTMAX:
      return exec_softmax(std::get<SoftmaxNode>(instruction.node), state, stream);
    case OpCode::LOG_SOFTMAX:
      return exec_log_softmax(std::get<LogSoftmaxNode>(instruction.node), state, stream);
    case OpCode::LINEAR:
      return exec_linear(std::get<LinearNode>(instruction.node), state, stream);
    case OpCode::ADDMM:
      return exec_addmm(std::get<AddmmNode>(instruction.node), state, stream);
    case OpCode::MATMUL:
      return exec_matmul(std::get<MatmulNode>(instruction.node), state, stream);
    case OpCode::LAYER_NORM:
      return exec_layer_norm(std::get<LayerNormNode>(instruction.node), state, stream);
    case OpCode::RMS_NORM:
      return exec_rms_norm(std::get<RmsNormNode>(instruction.node), state, stream);
    case OpCode::CONV:
      return exec_conv(std::get<ConvNode>(instruction.node), state, stream);
    case OpCode::SCALED_DOT_PRODUCT_ATTENTION:
      return exec_scaled_dot_product_attention(
          std::get<ScaledDotProductAttentionNode>(instruction.node), state, stream);
    case OpCode::RESHAPE:
      return exec_reshape(std::get<ReshapeNode>(instruction.node), state, stream);
    case OpCode::TRANSPOSE:
      return exec_transpose(std::get<TransposeNode>(instruction.node), state, stream);
    case OpCode::EXPAND_DIMS:
      return exec_expand_dims(std::get<ExpandDimsNode>(instruction.node), state, stream);
    case OpCode::SQUEEZE:
      return exec_squeeze(std::get<SqueezeNode>(instruction.node), state, stream);
    case OpCode::BROADCAST_TO:
      return exec_broadcast_to(std::get<BroadcastToNode>(instruction.node), state, stream);
    case OpCode::SLICE:
      return exec_slice(std::get<SliceNode>(instruction.node), state, stream);
    case OpCode::SELECT:
      return exec_select(std::get<SelectNode>(instruction.node), state, stream);
    case OpCode::CONCATENATE:
      return exec_concatenate(std::get<ConcatenateNode>(instruction.node), state, stream);
    case OpCode::STACK:
      return exec_stack(std::get<StackNode>(instruction.node), state, stream);
    case OpCode::SPLIT:
      return exec_split(std::get<SplitNode>(instruction.node), state, stream);
    case OpCode::TILE:
      return exec_tile(std::get<TileNode>(instruction.node), state, stream);
    case OpCode::FLIP:
      return exec_flip(std::get<FlipNode>(instruction.node), state, stream);
    case OpCode::PAD:
      return exec_pad(std::get<PadNode>(instruction.node), state, stream);
    case OpCode::TRIL:
      return exec_tril(std::get<TrilNode>(instruction.node), state, stream);
    case OpCode::TRIU:
      return exec_triu(std::get<TriuNode>(instruction.node), state, stream);
    case OpCode::TAKE:
      return exec_take(std::get<TakeNode>(instruction.node), state, stream);
    case OpCode::TAKE_ALONG_AXIS:
      return exec_take_along_axis(std::get<TakeAlongAxisNode>(instruction.node), state, stream);
    case OpCode::INDEX:
      return exec_index(std::get<IndexNode>(instruction.node), state, stream);
    case OpCode::SCATTER_ADD:
      return exec_scatter_add(std::get<ScatterAddNode>(instruction.node), state, stream);
    case OpCode::SLICE_UPDATE:
      return exec_slice_update(std::get<SliceUpdateNode>(instruction.node), state, stream);
    case OpCode::ARANGE:
      return exec_arange(std::get<ArangeNode>(instruction.node), state, stream);
    case OpCode::FULL:
      return exec_full(std::get<FullNode>(instruction.node), state, stream);
    case OpCode::FULL_LIKE:
      return exec_full_like(std::get<FullLikeNode>(instruction.node), state, stream);
    case OpCode::SYM_SIZE:
      return exec_sym_size(std::get<SymSizeNode>(instruction.node), state, stream);
    case OpCode::ITEM:
      return exec_item(std::get<ItemNode>(instruction.node), state, stream);
    case OpCode::INT_BINARY:
      return exec_int_binary(std::get<IntBinaryNode>(instruction.node), state, stream);
    case OpCode::INDEX_PUT:
      return exec_index_put(std::get<IndexPutNode>(instruction.node), state, stream);
    case OpCode::TAN:
      return exec_tan(std::get<TanNode>(instruction.node), state, stream);
    case OpCode::SINH:
      return exec_sinh(std::get<SinhNode>(instruction.node), state, stream);
    case OpCode::COSH:
      return exec_cosh(std::get<CoshNode>(instruction.node), state, stream);
    case OpCode::ARC_SIN:
      return exec_arc_sin(std::get<ArcSinNode>(instruction.node), state, stream);
    case OpCode::ARC_COS:
      return exec_arc_cos(std::get<ArcCosNode>(instruction.node), state, stream);
    case OpCode::ARC_TAN:
      return exec_arc_tan(std::get<ArcTanNode>(instruction.node), state, stream);
    case OpCode::ARC_SINH:
      return exec_arc_sinh(std::get<ArcSinhNode>(instruction.node), state, stream);
    case OpCode::ARC_COSH:
      return exec_arc_cosh(std::get<ArcCoshNode>(instruction.node), state, stream);
    case OpCode::ARC_TANH:
      return exec_arc_tanh(std::get<ArcTanhNode>(instruction.node), state, stream);
    case OpCode::LOG2:
      return exec_log2(std::get<Log2Node>(instruction.node), state, stream);
    case OpCode::LOG10:
      return exec_log10(std::get<Log10Node>(instruction.node), state, stream);
    case OpCode::LOG1P:
      return exec_log1p(std::get<Log1pNode>(instruction.node), state, stream);
    case OpCode::EXPM1:
      return exec_expm1(std::get<Expm1Node>(instruction.node), state, stream);
    case OpCode::SIGN:
      return exec_sign(std::get<SignNode>(instruction.node), state, stream);
    case OpCode::TRUNC:
      return exec_trunc(std::get<TruncNode>(instruction.node), state, stream);
    case OpCode::SQUARE:
      return exec_square(std::get<SquareNode>(instruction.node), state, stream);
    case OpCode::IS_NAN:
      return exec_is_nan(std::get<IsNanNode>(instruction.node), state, stream);
    case OpCode::IS_INF:
      return exec_is_inf(std::get<IsInfNode>(instruction.node), state, stream);
    case OpCode::BITWISE_NOT:
      return exec_bitwise_not(std::get<BitwiseNotNode>(instruction.node), state, stream);
    case OpCode::BITWISE_AND:
      return exec_bitwise_and(std::get<BitwiseAndNode>(instruction.node), state, stream);
    case OpCode::BITWISE_OR:
      return exec_bitwise_or(std::get<BitwiseOrNode>(instruction.node), state, stream);
    case OpCode::BITWISE_XOR:
      return exec_bitwise_xor(std::get<BitwiseXorNode>(instruction.node), state, stream);
    case OpCode::ARC_TAN2:
      return exec_arc_tan2(std::get<ArcTan2Node>(instruction.node), state, stream);
    case OpCode::LOG_ADD_EXP:
      return exec_log_add_exp(std::get<LogAddExpNode>(instruction.node), state, stream);
    case OpCode::REMAINDER:
      return exec_remainder(std::get<RemainderNode>(instruction.node), state, stream);
    case OpCode::LOG_SUM_EXP:
      return exec_log_sum_exp(std::get<LogSumExpNode>(instruction.node), state, stream);
    case OpCode::CUM_PROD:
      return exec_cum_prod(std::get<CumProdNode>(instruction.node), state, stream);
    case OpCode::SORT:
      return exec_sort(std::get<SortNode>(instruction.node), state, stream);
    case OpCode::ROLL:
      return exec_roll(std::get<RollNode>(instruction.node), state, stream);
    case OpCode::POOL:
      return exec_pool(std::get<PoolNode>(instruction.node), state, stream);
    case OpCode::UPSAMPLE:
      return exec_upsample(std::get<UpsampleNode>(instruction.node), state, stream);
    case OpCode::LOGICAL_XOR:
      return exec_logical_xor(std::get<LogicalXorNode>(instruction.node), state, stream);
    case OpCode::COND:
      return exec_cond(std::get<CondNode>(instruction.node), state, stream);
    case OpCode::WHILE:
      return exec_while(std::get<WhileNode>(instruction.node), state, stream);
    case OpCode::IS_POS_INF:
      return exec_is_pos_inf(std::get<IsPosInfNode>(instruction.node), state, stream);
    case OpCode::IS_NEG_INF:
      return exec_is_neg_inf(std::get<IsNegInfNode>(instruction.node), state, stream);
    case OpCode::QUANTIZED_LINEAR:
      return exec_quantized_linear(std::get<QuantizedLinearNode>(instruction.node), state, stream);
    case OpCode::DEQUANTIZE:
      return exec_dequantize(std::get<DequantizeNode>(instruction.node), state, stream);
    case OpCode::ROPE:
      return exec_rope(std::get<RopeNode>(instruction.node), state, stream);
    case OpCode::GATHER_MM:
      return exec_gather_mm(std::get<GatherMMNode>(instruction.node), state, stream);
    case OpCode::GATHER_QMM:
      return exec_gather_qmm(std::get<GatherQMMNode>(instruction.node), state, stream);
    case OpCode::SCATTER:
      return exec_scatter(std::get<ScatterNode>(instruction.node), state, stream);
    case OpCode::SAMPLE:
      return exec_sample(std::get<SampleNode>(instruction.node), state, stream);
    case OpCode::ALL_SUM:
      return exec_all_sum(std::get<AllSumNode>(instruction.node), state, stream);
    case OpCode::ALL_GATHER:
      return exec_all_gather(std::get<AllGatherNode>(instruction.node), state, stream);
  }
  throw LoadError("cannot dispatch op code " +
                  std::to_string(static_cast<uint32_t>(instruction.op)));
}

namespace {

// Collects the slot ids of one slot field, whatever its type.
struct SlotCollector {
  std::vector<uint32_t>& tensors;
  std::vector<uint32_t>& values;

  void operator()(const Tid& t) { tensors.push_back(t.idx); }
  void operator()(const Vid& v) { values.push_back(v.idx); }
  void operator()(const IntOrVid& x) { (*this)(x.vid); }
  void operator()(const FloatOrVid& x) { (*this)(x.vid); }
  void operator()(const TidOrVid& x) {
    (*this)(x.tid);
    (*this)(x.vid);
  }
  template <class T>
  void operator()(const std::optional<T>& x) {
    if (x) (*this)(*x);
  }
  template <class T>
  void operator()(const std::vector<T>& xs) {
    for (const auto& x : xs) (*this)(x);
  }
};

}  // namespace

SlotUses slot_uses(const Instruction& instruction) {
  SlotUses uses;
  SlotCollector read{uses.tensor_reads, uses.value_reads};
  SlotCollector write{uses.tensor_writes, uses.value_writes};
  switch (instruction.op) {
    case OpCode::ADD: {
      const auto& node = std::get<AddNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::SUBTRACT: {
      const auto& node = std::get<SubtractNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::MULTIPLY: {
      const auto& node = std::get<MultiplyNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::DIVIDE: {
      const auto& node = std::get<DivideNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::POWER: {
      const auto& node = std::get<PowerNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::MAXIMUM: {
      const auto& node = std::get<MaximumNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::MINIMUM: {
      const auto& node = std::get<MinimumNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::EQUAL: {
      const auto& node = std::get<EqualNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::NOT_EQUAL: {
      const auto& node = std::get<NotEqualNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::LESS: {
      const auto& node = std::get<LessNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::LESS_EQUAL: {
      const auto& node = std::get<LessEqualNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::GREATER: {
      const auto& node = std::get<GreaterNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::GREATER_EQUAL: {
      const auto& node = std::get<GreaterEqualNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::LOGICAL_AND: {
      const auto& node = std::get<LogicalAndNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::LOGICAL_OR: {
      const auto& node = std::get<LogicalOrNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::NEG: {
      const auto& node = std::get<NegNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ABS: {
      const auto& node = std::get<AbsNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::EXP: {
      const auto& node = std::get<ExpNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::LOG: {
      const auto& node = std::get<LogNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SQRT: {
      const auto& node = std::get<SqrtNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::RSQRT: {
      const auto& node = std::get<RsqrtNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SIN: {
      const auto& node = std::get<SinNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::COS: {
      const auto& node = std::get<CosNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::TANH: {
      const auto& node = std::get<TanhNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SIGMOID: {
      const auto& node = std::get<SigmoidNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ERF: {
      const auto& node = std::get<ErfNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::FLOOR: {
      const auto& node = std::get<FloorNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::CEIL: {
      const auto& node = std::get<CeilNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ROUND: {
      const auto& node = std::get<RoundNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::RECIPROCAL: {
      const auto& node = std::get<ReciprocalNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::LOGICAL_NOT: {
      const auto& node = std::get<LogicalNotNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::RELU: {
      const auto& node = std::get<ReluNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SILU: {
      const auto& node = std::get<SiluNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::GELU: {
      const auto& node = std::get<GeluNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::LEAKY_RELU: {
      const auto& node = std::get<LeakyReluNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::CLIP: {
      const auto& node = std::get<ClipNode>(instruction.node);
      read(node.x);
      write(node.out);
      read(node.min);
      read(node.max);
      return uses;
    }
    case OpCode::WHERE: {
      const auto& node = std::get<WhereNode>(instruction.node);
      read(node.condition);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::AS_TYPE: {
      const auto& node = std::get<AsTypeNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::COPY: {
      const auto& node = std::get<CopyNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SUM: {
      const auto& node = std::get<SumNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::MEAN: {
      const auto& node = std::get<MeanNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::MAX: {
      const auto& node = std::get<MaxNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::MIN: {
      const auto& node = std::get<MinNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::PROD: {
      const auto& node = std::get<ProdNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ANY: {
      const auto& node = std::get<AnyNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ALL: {
      const auto& node = std::get<AllNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::VAR: {
      const auto& node = std::get<VarNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::STD: {
      const auto& node = std::get<StdNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ARG_MAX: {
      const auto& node = std::get<ArgMaxNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ARG_MIN: {
      const auto& node = std::get<ArgMinNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::CUM_SUM: {
      const auto& node = std::get<CumSumNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SOFTMAX: {
      const auto& node = std::get<SoftmaxNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::LOG_SOFTMAX: {
      const auto& node = std::get<LogSoftmaxNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::LINEAR: {
      const auto& node = std::get<LinearNode>(instruction.node);
      read(node.x);
      read(node.weight);
      write(node.out);
      read(node.bias);
      return uses;
    }
    case OpCode::ADDMM: {
      const auto& node = std::get<AddmmNode>(instruction.node);
      read(node.bias);
      read(node.mat1);
      read(node.mat2);
      write(node.out);
      return uses;
    }
    case OpCode::MATMUL: {
      const auto& node = std::get<MatmulNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::LAYER_NORM: {
      const auto& node = std::get<LayerNormNode>(instruction.node);
      read(node.x);
      write(node.out);
      read(node.weight);
      read(node.bias);
      write(node.mean_out);
      write(node.rstd_out);
      return uses;
    }
    case OpCode::RMS_NORM: {
      const auto& node = std::get<RmsNormNode>(instruction.node);
      read(node.x);
      write(node.out);
      read(node.weight);
      return uses;
    }
    case OpCode::CONV: {
      const auto& node = std::get<ConvNode>(instruction.node);
      read(node.x);
      read(node.weight);
      write(node.out);
      read(node.bias);
      return uses;
    }
    case OpCode::SCALED_DOT_PRODUCT_ATTENTION: {
      const auto& node = std::get<ScaledDotProductAttentionNode>(instruction.node);
      read(node.q);
      read(node.k);
      read(node.v);
      write(node.out);
      read(node.mask);
      return uses;
    }
    case OpCode::RESHAPE: {
      const auto& node = std::get<ReshapeNode>(instruction.node);
      read(node.x);
      write(node.out);
      read(node.shape);
      return uses;
    }
    case OpCode::TRANSPOSE: {
      const auto& node = std::get<TransposeNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::EXPAND_DIMS: {
      const auto& node = std::get<ExpandDimsNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SQUEEZE: {
      const auto& node = std::get<SqueezeNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::BROADCAST_TO: {
      const auto& node = std::get<BroadcastToNode>(instruction.node);
      read(node.x);
      write(node.out);
      read(node.shape);
      return uses;
    }
    case OpCode::SLICE: {
      const auto& node = std::get<SliceNode>(instruction.node);
      read(node.x);
      write(node.out);
      read(node.start);
      read(node.stop);
      return uses;
    }
    case OpCode::SELECT: {
      const auto& node = std::get<SelectNode>(instruction.node);
      read(node.x);
      write(node.out);
      read(node.index);
      return uses;
    }
    case OpCode::CONCATENATE: {
      const auto& node = std::get<ConcatenateNode>(instruction.node);
      read(node.inputs);
      write(node.out);
      return uses;
    }
    case OpCode::STACK: {
      const auto& node = std::get<StackNode>(instruction.node);
      read(node.inputs);
      write(node.out);
      return uses;
    }
    case OpCode::SPLIT: {
      const auto& node = std::get<SplitNode>(instruction.node);
      read(node.x);
      write(node.outs);
      return uses;
    }
    case OpCode::TILE: {
      const auto& node = std::get<TileNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::FLIP: {
      const auto& node = std::get<FlipNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::PAD: {
      const auto& node = std::get<PadNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::TRIL: {
      const auto& node = std::get<TrilNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::TRIU: {
      const auto& node = std::get<TriuNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::TAKE: {
      const auto& node = std::get<TakeNode>(instruction.node);
      read(node.x);
      read(node.indices);
      write(node.out);
      return uses;
    }
    case OpCode::TAKE_ALONG_AXIS: {
      const auto& node = std::get<TakeAlongAxisNode>(instruction.node);
      read(node.x);
      read(node.indices);
      write(node.out);
      return uses;
    }
    case OpCode::INDEX: {
      const auto& node = std::get<IndexNode>(instruction.node);
      read(node.x);
      read(node.indices);
      write(node.out);
      return uses;
    }
    case OpCode::SCATTER_ADD: {
      const auto& node = std::get<ScatterAddNode>(instruction.node);
      read(node.x);
      read(node.indices);
      read(node.updates);
      write(node.out);
      return uses;
    }
    case OpCode::SLICE_UPDATE: {
      const auto& node = std::get<SliceUpdateNode>(instruction.node);
      read(node.target);
      read(node.update);
      write(node.out);
      read(node.start);
      return uses;
    }
    case OpCode::ARANGE: {
      const auto& node = std::get<ArangeNode>(instruction.node);
      write(node.out);
      read(node.start);
      read(node.stop);
      read(node.step);
      return uses;
    }
    case OpCode::FULL: {
      const auto& node = std::get<FullNode>(instruction.node);
      write(node.out);
      read(node.shape);
      read(node.value);
      return uses;
    }
    case OpCode::FULL_LIKE: {
      const auto& node = std::get<FullLikeNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SYM_SIZE: {
      const auto& node = std::get<SymSizeNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ITEM: {
      const auto& node = std::get<ItemNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::INT_BINARY: {
      const auto& node = std::get<IntBinaryNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::INDEX_PUT: {
      const auto& node = std::get<IndexPutNode>(instruction.node);
      read(node.x);
      read(node.indices);
      read(node.values);
      write(node.out);
      return uses;
    }
    case OpCode::TAN: {
      const auto& node = std::get<TanNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SINH: {
      const auto& node = std::get<SinhNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::COSH: {
      const auto& node = std::get<CoshNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ARC_SIN: {
      const auto& node = std::get<ArcSinNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ARC_COS: {
      const auto& node = std::get<ArcCosNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ARC_TAN: {
      const auto& node = std::get<ArcTanNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ARC_SINH: {
      const auto& node = std::get<ArcSinhNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ARC_COSH: {
      const auto& node = std::get<ArcCoshNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ARC_TANH: {
      const auto& node = std::get<ArcTanhNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::LOG2: {
      const auto& node = std::get<Log2Node>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::LOG10: {
      const auto& node = std::get<Log10Node>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::LOG1P: {
      const auto& node = std::get<Log1pNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::EXPM1: {
      const auto& node = std::get<Expm1Node>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SIGN: {
      const auto& node = std::get<SignNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::TRUNC: {
      const auto& node = std::get<TruncNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SQUARE: {
      const auto& node = std::get<SquareNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::IS_NAN: {
      const auto& node = std::get<IsNanNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::IS_INF: {
      const auto& node = std::get<IsInfNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::BITWISE_NOT: {
      const auto& node = std::get<BitwiseNotNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::BITWISE_AND: {
      const auto& node = std::get<BitwiseAndNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::BITWISE_OR: {
      const auto& node = std::get<BitwiseOrNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::BITWISE_XOR: {
      const auto& node = std::get<BitwiseXorNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::ARC_TAN2: {
      const auto& node = std::get<ArcTan2Node>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::LOG_ADD_EXP: {
      const auto& node = std::get<LogAddExpNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::REMAINDER: {
      const auto& node = std::get<RemainderNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::LOG_SUM_EXP: {
      const auto& node = std::get<LogSumExpNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::CUM_PROD: {
      const auto& node = std::get<CumProdNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::SORT: {
      const auto& node = std::get<SortNode>(instruction.node);
      read(node.x);
      write(node.values_out);
      write(node.indices_out);
      return uses;
    }
    case OpCode::ROLL: {
      const auto& node = std::get<RollNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::POOL: {
      const auto& node = std::get<PoolNode>(instruction.node);
      read(node.x);
      write(node.out);
      write(node.indices_out);
      return uses;
    }
    case OpCode::UPSAMPLE: {
      const auto& node = std::get<UpsampleNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::LOGICAL_XOR: {
      const auto& node = std::get<LogicalXorNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      return uses;
    }
    case OpCode::COND: {
      const auto& node = std::get<CondNode>(instruction.node);
      read(node.pred);
      read(node.operands);
      write(node.outs);
      return uses;
    }
    case OpCode::WHILE: {
      const auto& node = std::get<WhileNode>(instruction.node);
      read(node.inits);
      write(node.outs);
      write(node.pred_out);
      read(node.operands);
      return uses;
    }
    case OpCode::IS_POS_INF: {
      const auto& node = std::get<IsPosInfNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::IS_NEG_INF: {
      const auto& node = std::get<IsNegInfNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::QUANTIZED_LINEAR: {
      const auto& node = std::get<QuantizedLinearNode>(instruction.node);
      read(node.x);
      read(node.w);
      read(node.scales);
      read(node.biases);
      write(node.out);
      read(node.bias);
      read(node.tensor_scale);
      return uses;
    }
    case OpCode::DEQUANTIZE: {
      const auto& node = std::get<DequantizeNode>(instruction.node);
      read(node.w);
      read(node.scales);
      read(node.biases);
      write(node.out);
      read(node.tensor_scale);
      return uses;
    }
    case OpCode::ROPE: {
      const auto& node = std::get<RopeNode>(instruction.node);
      read(node.x);
      write(node.out);
      read(node.offset);
      read(node.freqs);
      return uses;
    }
    case OpCode::GATHER_MM: {
      const auto& node = std::get<GatherMMNode>(instruction.node);
      read(node.a);
      read(node.b);
      write(node.out);
      read(node.lhs_indices);
      read(node.rhs_indices);
      return uses;
    }
    case OpCode::GATHER_QMM: {
      const auto& node = std::get<GatherQMMNode>(instruction.node);
      read(node.x);
      read(node.w);
      read(node.scales);
      read(node.biases);
      write(node.out);
      read(node.lhs_indices);
      read(node.rhs_indices);
      return uses;
    }
    case OpCode::SCATTER: {
      const auto& node = std::get<ScatterNode>(instruction.node);
      read(node.x);
      read(node.indices);
      read(node.updates);
      write(node.out);
      return uses;
    }
    case OpCode::SAMPLE: {
      const auto& node = std::get<SampleNode>(instruction.node);
      read(node.logits);
      read(node.temperature);
      read(node.top_p);
      read(node.uniform);
      write(node.out);
      return uses;
    }
    case OpCode::ALL_SUM: {
      const auto& node = std::get<AllSumNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
    case OpCode::ALL_GATHER: {
      const auto& node = std::get<AllGatherNode>(instruction.node);
      read(node.x);
      write(node.out);
      return uses;
    }
  }
  throw LoadError("no slot uses for op code " +
                  std::to_string(static_cast<uint32_t>(instruction.op)));
}

}  // namespace mlxd
