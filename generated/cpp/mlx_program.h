// generated from schema/schema.fbs by templates/ir/cpp/mlx_program.h.j2, do not edit
//
// Plain C++ mirrors of the IR: one struct per schema struct and table, the
// OpCode enum, the node variant, and the loader from a verified FlatBuffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "schema_generated.h"
#include "mlx_delegate/load_error.h"

namespace mlxd {

/// Op codes: the `OpNode` union discriminants.
enum class OpCode : uint32_t {
  ADD = 1,
  SUBTRACT = 2,
  MULTIPLY = 3,
  DIVIDE = 4,
  POWER = 5,
  MAXIMUM = 6,
  MINIMUM = 7,
  EQUAL = 8,
  NOT_EQUAL = 9,
  LESS = 10,
  LESS_EQUAL = 11,
  GREATER = 12,
  GREATER_EQUAL = 13,
  LOGICAL_AND = 14,
  LOGICAL_OR = 15,
  NEG = 16,
  ABS = 17,
  EXP = 18,
  LOG = 19,
  SQRT = 20,
  RSQRT = 21,
  SIN = 22,
  COS = 23,
  TANH = 24,
  SIGMOID = 25,
  ERF = 26,
  FLOOR = 27,
  CEIL = 28,
  ROUND = 29,
  RECIPROCAL = 30,
  LOGICAL_NOT = 31,
  RELU = 32,
  SILU = 33,
  GELU = 34,
  LEAKY_RELU = 35,
  CLIP = 36,
  WHERE = 37,
  AS_TYPE = 38,
  COPY = 39,
  SUM = 40,
  MEAN = 41,
  MAX = 42,
  MIN = 43,
  PROD = 44,
  ANY = 45,
  ALL = 46,
  VAR = 47,
  STD = 48,
  ARG_MAX = 49,
  ARG_MIN = 50,
  CUM_SUM = 51,
  SOFTMAX = 52,
  LOG_SOFTMAX = 53,
  LINEAR = 54,
  ADDMM = 55,
  MATMUL = 56,
  LAYER_NORM = 57,
  RMS_NORM = 58,
  CONV = 59,
  SCALED_DOT_PRODUCT_ATTENTION = 60,
  RESHAPE = 61,
  TRANSPOSE = 62,
  EXPAND_DIMS = 63,
  SQUEEZE = 64,
  BROADCAST_TO = 65,
  SLICE = 66,
  SELECT = 67,
  CONCATENATE = 68,
  STACK = 69,
  SPLIT = 70,
  TILE = 71,
  FLIP = 72,
  PAD = 73,
  TRIL = 74,
  TRIU = 75,
  TAKE = 76,
  TAKE_ALONG_AXIS = 77,
  INDEX = 78,
  SCATTER_ADD = 79,
  SLICE_UPDATE = 80,
  ARANGE = 81,
  FULL = 82,
  FULL_LIKE = 83,
  SYM_SIZE = 84,
  ITEM = 85,
  INT_BINARY = 86,
  INDEX_PUT = 87,
  TAN = 88,
  SINH = 89,
  COSH = 90,
  ARC_SIN = 91,
  ARC_COS = 92,
  ARC_TAN = 93,
  ARC_SINH = 94,
  ARC_COSH = 95,
  ARC_TANH = 96,
  LOG2 = 97,
  LOG10 = 98,
  LOG1P = 99,
  EXPM1 = 100,
  SIGN = 101,
  TRUNC = 102,
  SQUARE = 103,
  IS_NAN = 104,
  IS_INF = 105,
  BITWISE_NOT = 106,
  BITWISE_AND = 107,
  BITWISE_OR = 108,
  BITWISE_XOR = 109,
  ARC_TAN2 = 110,
  LOG_ADD_EXP = 111,
  REMAINDER = 112,
  LOG_SUM_EXP = 113,
  CUM_PROD = 114,
  SORT = 115,
  ROLL = 116,
  POOL = 117,
  UPSAMPLE = 118,
  LOGICAL_XOR = 119,
  COND = 120,
  WHILE = 121,
  IS_POS_INF = 122,
  IS_NEG_INF = 123,
  QUANTIZED_LINEAR = 124,
  DEQUANTIZE = 125,
  ROPE = 126,
  GATHER_MM = 127,
  GATHER_QMM = 128,
  SCATTER = 129,
  SAMPLE = 130,
  ALL_SUM = 131,
  ALL_GATHER = 132,
};

inline constexpr uint32_t kOpCount = 132;

/// The op's name as written in the schema, without the `Node` suffix.
const char* op_name(OpCode op);

struct Tid {
  uint32_t idx{};
};

struct Vid {
  uint32_t idx{};
};

struct IntOrVid {
  int64_t literal{};
  std::optional<Vid> vid;
};

struct FloatOrVid {
  double literal{};
  std::optional<Vid> vid;
};

struct TidOrVid {
  std::optional<Tid> tid;
  std::optional<Vid> vid;
};

struct SlotRef {
  ::mlxd::ir::SlotKind kind{};
  uint32_t idx{};
};

struct TensorMeta {
  std::vector<IntOrVid> shape;
  ::mlxd::ir::DType dtype{};
};

struct NamedSlot {
  std::string name;
  Tid slot;
};

struct AddNode {
  Tid a;
  Tid b;
  Tid out;
};

struct SubtractNode {
  Tid a;
  Tid b;
  Tid out;
};

struct MultiplyNode {
  Tid a;
  Tid b;
  Tid out;
};

struct DivideNode {
  Tid a;
  Tid b;
  Tid out;
  ::mlxd::ir::DivRounding rounding{};
};

struct PowerNode {
  Tid a;
  Tid b;
  Tid out;
};

struct MaximumNode {
  Tid a;
  Tid b;
  Tid out;
};

struct MinimumNode {
  Tid a;
  Tid b;
  Tid out;
};

struct EqualNode {
  Tid a;
  Tid b;
  Tid out;
};

struct NotEqualNode {
  Tid a;
  Tid b;
  Tid out;
};

struct LessNode {
  Tid a;
  Tid b;
  Tid out;
};

struct LessEqualNode {
  Tid a;
  Tid b;
  Tid out;
};

struct GreaterNode {
  Tid a;
  Tid b;
  Tid out;
};

struct GreaterEqualNode {
  Tid a;
  Tid b;
  Tid out;
};

struct LogicalAndNode {
  Tid a;
  Tid b;
  Tid out;
};

struct LogicalOrNode {
  Tid a;
  Tid b;
  Tid out;
};

struct NegNode {
  Tid x;
  Tid out;
};

struct AbsNode {
  Tid x;
  Tid out;
};

struct ExpNode {
  Tid x;
  Tid out;
};

struct LogNode {
  Tid x;
  Tid out;
};

struct SqrtNode {
  Tid x;
  Tid out;
};

struct RsqrtNode {
  Tid x;
  Tid out;
};

struct SinNode {
  Tid x;
  Tid out;
};

struct CosNode {
  Tid x;
  Tid out;
};

struct TanhNode {
  Tid x;
  Tid out;
};

struct SigmoidNode {
  Tid x;
  Tid out;
};

struct ErfNode {
  Tid x;
  Tid out;
};

struct FloorNode {
  Tid x;
  Tid out;
};

struct CeilNode {
  Tid x;
  Tid out;
};

struct RoundNode {
  Tid x;
  Tid out;
  int32_t decimals{};
};

struct ReciprocalNode {
  Tid x;
  Tid out;
};

struct LogicalNotNode {
  Tid x;
  Tid out;
};

struct ReluNode {
  Tid x;
  Tid out;
};

struct SiluNode {
  Tid x;
  Tid out;
};

struct GeluNode {
  Tid x;
  Tid out;
  ::mlxd::ir::GeluApproximation approximation{};
};

struct LeakyReluNode {
  Tid x;
  Tid out;
  float negative_slope{};
};

struct ClipNode {
  Tid x;
  Tid out;
  std::optional<TidOrVid> min;
  std::optional<TidOrVid> max;
};

struct WhereNode {
  Tid condition;
  Tid a;
  Tid b;
  Tid out;
};

struct AsTypeNode {
  Tid x;
  Tid out;
  ::mlxd::ir::DType dtype{};
};

struct CopyNode {
  Tid x;
  Tid out;
};

struct SumNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
  bool keepdims{};
};

struct MeanNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
  bool keepdims{};
};

struct MaxNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
  bool keepdims{};
};

struct MinNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
  bool keepdims{};
};

struct ProdNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
  bool keepdims{};
};

struct AnyNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
  bool keepdims{};
};

struct AllNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
  bool keepdims{};
};

struct VarNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
  bool keepdims{};
  int32_t ddof{};
};

struct StdNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
  bool keepdims{};
  int32_t ddof{};
};

struct ArgMaxNode {
  Tid x;
  Tid out;
  std::optional<int32_t> axis;
  bool keepdims{};
};

struct ArgMinNode {
  Tid x;
  Tid out;
  std::optional<int32_t> axis;
  bool keepdims{};
};

struct CumSumNode {
  Tid x;
  Tid out;
  int32_t axis{};
  bool reverse{};
};

struct SoftmaxNode {
  Tid x;
  Tid out;
  int32_t axis{};
};

struct LogSoftmaxNode {
  Tid x;
  Tid out;
  int32_t axis{};
};

struct LinearNode {
  Tid x;
  Tid weight;
  Tid out;
  std::optional<Tid> bias;
};

struct AddmmNode {
  Tid bias;
  Tid mat1;
  Tid mat2;
  Tid out;
  float alpha{};
  float beta{};
};

struct MatmulNode {
  Tid a;
  Tid b;
  Tid out;
};

struct QuantizedLinearNode {
  Tid x;
  Tid w;
  Tid scales;
  std::optional<Tid> biases;
  Tid out;
  std::optional<Tid> bias;
  int32_t group_size{};
  int32_t bits{};
  ::mlxd::ir::QuantMode mode{};
  std::optional<Tid> tensor_scale;
  bool transpose{};
};

struct DequantizeNode {
  Tid w;
  Tid scales;
  std::optional<Tid> biases;
  Tid out;
  int32_t group_size{};
  int32_t bits{};
  ::mlxd::ir::QuantMode mode{};
  std::optional<Tid> tensor_scale;
};

struct GatherMMNode {
  Tid a;
  Tid b;
  Tid out;
  std::optional<Tid> lhs_indices;
  std::optional<Tid> rhs_indices;
  bool sorted_indices{};
};

struct GatherQMMNode {
  Tid x;
  Tid w;
  Tid scales;
  std::optional<Tid> biases;
  Tid out;
  std::optional<Tid> lhs_indices;
  std::optional<Tid> rhs_indices;
  bool transpose{};
  int32_t group_size{};
  int32_t bits{};
  bool sorted_indices{};
  ::mlxd::ir::QuantMode mode{};
};

struct LayerNormNode {
  Tid x;
  Tid out;
  std::optional<Tid> weight;
  std::optional<Tid> bias;
  float eps{};
  int32_t num_axes{};
  std::optional<Tid> mean_out;
  std::optional<Tid> rstd_out;
};

struct RmsNormNode {
  Tid x;
  Tid out;
  std::optional<Tid> weight;
  float eps{};
};

struct ConvNode {
  Tid x;
  Tid weight;
  Tid out;
  std::optional<Tid> bias;
  std::vector<int32_t> stride;
  std::vector<int32_t> padding;
  std::vector<int32_t> dilation;
  int32_t groups{};
  bool transposed{};
  std::vector<int32_t> output_padding;
};

struct ScaledDotProductAttentionNode {
  Tid q;
  Tid k;
  Tid v;
  Tid out;
  std::optional<Tid> mask;
  float scale{};
  bool causal{};
  bool lower_right{};
};

struct RopeNode {
  Tid x;
  Tid out;
  int32_t dims{};
  bool traditional{};
  float base{};
  float scale{};
  Tid offset;
  std::optional<Tid> freqs;
};

struct ReshapeNode {
  Tid x;
  Tid out;
  std::vector<IntOrVid> shape;
};

struct TransposeNode {
  Tid x;
  Tid out;
  std::vector<int32_t> perm;
};

struct ExpandDimsNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
};

struct SqueezeNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
};

struct BroadcastToNode {
  Tid x;
  Tid out;
  std::vector<IntOrVid> shape;
};

struct SliceNode {
  Tid x;
  Tid out;
  int32_t axis{};
  std::optional<IntOrVid> start;
  std::optional<IntOrVid> stop;
  int32_t step{};
};

struct SelectNode {
  Tid x;
  Tid out;
  int32_t axis{};
  IntOrVid index;
};

struct ConcatenateNode {
  std::vector<Tid> inputs;
  Tid out;
  int32_t axis{};
};

struct StackNode {
  std::vector<Tid> inputs;
  Tid out;
  int32_t axis{};
};

struct SplitNode {
  Tid x;
  std::vector<Tid> outs;
  std::vector<int32_t> sizes;
  int32_t axis{};
};

struct TileNode {
  Tid x;
  Tid out;
  std::vector<int32_t> reps;
};

struct FlipNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
};

struct PadNode {
  Tid x;
  Tid out;
  std::vector<int32_t> pad;
  double value{};
};

struct TrilNode {
  Tid x;
  Tid out;
  int32_t k{};
};

struct TriuNode {
  Tid x;
  Tid out;
  int32_t k{};
};

struct TakeNode {
  Tid x;
  Tid indices;
  Tid out;
  int32_t axis{};
};

struct TakeAlongAxisNode {
  Tid x;
  Tid indices;
  Tid out;
  int32_t axis{};
};

struct IndexNode {
  Tid x;
  std::vector<Tid> indices;
  Tid out;
};

struct ScatterNode {
  Tid x;
  Tid indices;
  Tid updates;
  Tid out;
  int32_t axis{};
};

struct ScatterAddNode {
  Tid x;
  Tid indices;
  Tid updates;
  Tid out;
  int32_t axis{};
};

struct SliceUpdateNode {
  Tid target;
  Tid update;
  Tid out;
  int32_t axis{};
  IntOrVid start;
};

struct ArangeNode {
  Tid out;
  std::optional<FloatOrVid> start;
  FloatOrVid stop;
  std::optional<FloatOrVid> step;
  ::mlxd::ir::DType dtype{};
};

struct FullNode {
  Tid out;
  std::vector<IntOrVid> shape;
  FloatOrVid value;
  ::mlxd::ir::DType dtype{};
};

struct FullLikeNode {
  Tid x;
  Tid out;
  double value{};
  std::optional<::mlxd::ir::DType> dtype;
};

struct SymSizeNode {
  Tid x;
  int32_t dim{};
  Vid out;
};

struct ItemNode {
  Tid x;
  Vid out;
};

struct IntBinaryNode {
  ::mlxd::ir::IntBinaryOp op{};
  IntOrVid a;
  IntOrVid b;
  Vid out;
};

struct IndexPutNode {
  Tid x;
  Tid indices;
  Tid values;
  Tid out;
  int32_t axis{};
};

struct TanNode {
  Tid x;
  Tid out;
};

struct SinhNode {
  Tid x;
  Tid out;
};

struct CoshNode {
  Tid x;
  Tid out;
};

struct ArcSinNode {
  Tid x;
  Tid out;
};

struct ArcCosNode {
  Tid x;
  Tid out;
};

struct ArcTanNode {
  Tid x;
  Tid out;
};

struct ArcSinhNode {
  Tid x;
  Tid out;
};

struct ArcCoshNode {
  Tid x;
  Tid out;
};

struct ArcTanhNode {
  Tid x;
  Tid out;
};

struct Log2Node {
  Tid x;
  Tid out;
};

struct Log10Node {
  Tid x;
  Tid out;
};

struct Log1pNode {
  Tid x;
  Tid out;
};

struct Expm1Node {
  Tid x;
  Tid out;
};

struct SignNode {
  Tid x;
  Tid out;
};

struct TruncNode {
  Tid x;
  Tid out;
};

struct SquareNode {
  Tid x;
  Tid out;
};

struct IsNanNode {
  Tid x;
  Tid out;
};

struct IsInfNode {
  Tid x;
  Tid out;
};

struct IsPosInfNode {
  Tid x;
  Tid out;
};

struct IsNegInfNode {
  Tid x;
  Tid out;
};

struct BitwiseNotNode {
  Tid x;
  Tid out;
};

struct BitwiseAndNode {
  Tid a;
  Tid b;
  Tid out;
};

struct BitwiseOrNode {
  Tid a;
  Tid b;
  Tid out;
};

struct BitwiseXorNode {
  Tid a;
  Tid b;
  Tid out;
};

struct ArcTan2Node {
  Tid a;
  Tid b;
  Tid out;
};

struct LogAddExpNode {
  Tid a;
  Tid b;
  Tid out;
};

struct RemainderNode {
  Tid a;
  Tid b;
  Tid out;
};

struct LogSumExpNode {
  Tid x;
  Tid out;
  std::vector<int32_t> axes;
  bool keepdims{};
};

struct CumProdNode {
  Tid x;
  Tid out;
  int32_t axis{};
  bool reverse{};
};

struct SortNode {
  Tid x;
  std::optional<Tid> values_out;
  std::optional<Tid> indices_out;
  int32_t axis{};
  bool descending{};
};

struct RollNode {
  Tid x;
  Tid out;
  std::vector<int32_t> shifts;
  std::vector<int32_t> axes;
};

struct PoolNode {
  Tid x;
  Tid out;
  std::optional<Tid> indices_out;
  ::mlxd::ir::PoolKind kind{};
  std::vector<int32_t> kernel;
  std::vector<int32_t> stride;
  std::vector<int32_t> padding;
  std::vector<int32_t> dilation;
  bool ceil_mode{};
  bool count_include_pad{};
  int32_t divisor_override{};
};

struct UpsampleNode {
  Tid x;
  Tid out;
  ::mlxd::ir::UpsampleMode mode{};
  bool align_corners{};
  std::vector<int32_t> out_size;
  std::vector<double> scales;
};

struct LogicalXorNode {
  Tid a;
  Tid b;
  Tid out;
};

struct CondNode {
  Tid pred;
  uint32_t then_chain{};
  uint32_t else_chain{};
  std::vector<Tid> operands;
  std::vector<Tid> outs;
};

struct WhileNode {
  std::vector<Tid> inits;
  std::vector<Tid> outs;
  uint32_t cond_chain{};
  uint32_t body_chain{};
  Tid pred_out;
  std::vector<Tid> operands;
};

struct SampleNode {
  Tid logits;
  Tid temperature;
  Tid top_p;
  Tid uniform;
  Tid out;
};

struct AllSumNode {
  Tid x;
  int32_t group_size{};
  Tid out;
};

struct AllGatherNode {
  Tid x;
  int32_t group_size{};
  Tid out;
};

struct RunAhead {
  std::vector<uint32_t> fed_inputs;
  std::vector<uint32_t> fed_from_outputs;
  std::vector<uint32_t> advanced_inputs;
};

using NodeVariant = std::variant<
    AddNode, SubtractNode, MultiplyNode, DivideNode, PowerNode, MaximumNode, MinimumNode, EqualNode,
    NotEqualNode, LessNode, LessEqualNode, GreaterNode, GreaterEqualNode, LogicalAndNode,
    LogicalOrNode, NegNode, AbsNode, ExpNode, LogNode, SqrtNode, RsqrtNode, SinNode, CosNode,
    TanhNode, SigmoidNode, ErfNode, FloorNode, CeilNode, RoundNode, ReciprocalNode, LogicalNotNode,
    ReluNode, SiluNode, GeluNode, LeakyReluNode, ClipNode, WhereNode, AsTypeNode, CopyNode, SumNode,
    MeanNode, MaxNode, MinNode, ProdNode, AnyNode, AllNode, VarNode, StdNode, ArgMaxNode,
    ArgMinNode, CumSumNode, SoftmaxNode, LogSoftmaxNode, LinearNode, AddmmNode, MatmulNode,
    LayerNormNode, RmsNormNode, ConvNode, ScaledDotProductAttentionNode, ReshapeNode, TransposeNode,
    ExpandDimsNode, SqueezeNode, BroadcastToNode, SliceNode, SelectNode, ConcatenateNode, StackNode,
    SplitNode, TileNode, FlipNode, PadNode, TrilNode, TriuNode, TakeNode, TakeAlongAxisNode,
    IndexNode, ScatterAddNode, SliceUpdateNode, ArangeNode, FullNode, FullLikeNode, SymSizeNode,
    ItemNode, IntBinaryNode, IndexPutNode, TanNode, SinhNode, CoshNode, ArcSinNode, ArcCosNode,
    ArcTanNode, ArcSinhNode, ArcCoshNode, ArcTanhNode, Log2Node, Log10Node, Log1pNode, Expm1Node,
    SignNode, TruncNode, SquareNode, IsNanNode, IsInfNode, BitwiseNotNode, BitwiseAndNode,
    BitwiseOrNode, BitwiseXorNode, ArcTan2Node, LogAddExpNode, RemainderNode, LogSumExpNode,
    CumProdNode, SortNode, RollNode, PoolNode, UpsampleNode, LogicalXorNode, CondNode, WhileNode,
    IsPosInfNode, IsNegInfNode, QuantizedLinearNode, DequantizeNode, RopeNode, GatherMMNode,
    GatherQMMNode, ScatterNode, SampleNode, AllSumNode, AllGatherNode>;

struct Instruction {
  OpCode op{};
  NodeVariant node;
};

struct InstructionChain {
  std::vector<Instruction> instructions;
};

struct MLXGraph {
  uint32_t version{};
  uint32_t num_constant_tensors{};
  uint32_t num_input_tensors{};
  uint32_t num_output_tensors{};
  uint32_t num_mutable_buffer_tensors{};
  uint32_t num_temp_tensors{};
  uint32_t num_values{};
  std::vector<InstructionChain> instruction_chains;
  uint32_t main_chain{};
  int32_t init_chain{};
  std::vector<SlotRef> input_map;
  std::vector<SlotRef> output_map;
  std::vector<SlotRef> mutable_buffer_map;
  std::vector<NamedSlot> named_slots;
  std::vector<TensorMeta> tensor_meta;
  bool compile_chains{};
  std::optional<RunAhead> run_ahead;
};

/// Verifies `size` bytes at `data` as a `MLXGraph` FlatBuffer and loads it.
/// Throws LoadError for a buffer that fails verification or holds an op this
/// runtime does not know.
MLXGraph load_program(const uint8_t* data, size_t size);

/// The loaded program as JSON: every field of every record, an op as
/// {"op": name, "node": {...}}. For tests and debugging.
std::string to_json(const MLXGraph& program);

}  // namespace mlxd
