// generated from schema/schema.fbs by templates/ir/cpp/mlx_program.cpp.j2, do not edit
#include "mlx_program.h"

#include <string>

#include "mlx_delegate/json_writer.h"
#include "mlx_delegate/loader_support.h"

namespace mlxd {

const char* op_name(OpCode op) {
  switch (op) {
    case OpCode::ADD:
      return "Add";
    case OpCode::SUBTRACT:
      return "Subtract";
    case OpCode::MULTIPLY:
      return "Multiply";
    case OpCode::DIVIDE:
      return "Divide";
    case OpCode::POWER:
      return "Power";
    case OpCode::MAXIMUM:
      return "Maximum";
    case OpCode::MINIMUM:
      return "Minimum";
    case OpCode::EQUAL:
      return "Equal";
    case OpCode::NOT_EQUAL:
      return "NotEqual";
    case OpCode::LESS:
      return "Less";
    case OpCode::LESS_EQUAL:
      return "LessEqual";
    case OpCode::GREATER:
      return "Greater";
    case OpCode::GREATER_EQUAL:
      return "GreaterEqual";
    case OpCode::LOGICAL_AND:
      return "LogicalAnd";
    case OpCode::LOGICAL_OR:
      return "LogicalOr";
    case OpCode::NEG:
      return "Neg";
    case OpCode::ABS:
      return "Abs";
    case OpCode::EXP:
      return "Exp";
    case OpCode::LOG:
      return "Log";
    case OpCode::SQRT:
      return "Sqrt";
    case OpCode::RSQRT:
      return "Rsqrt";
    case OpCode::SIN:
      return "Sin";
    case OpCode::COS:
      return "Cos";
    case OpCode::TANH:
      return "Tanh";
    case OpCode::SIGMOID:
      return "Sigmoid";
    case OpCode::ERF:
      return "Erf";
    case OpCode::FLOOR:
      return "Floor";
    case OpCode::CEIL:
      return "Ceil";
    case OpCode::ROUND:
      return "Round";
    case OpCode::RECIPROCAL:
      return "Reciprocal";
    case OpCode::LOGICAL_NOT:
      return "LogicalNot";
    case OpCode::RELU:
      return "Relu";
    case OpCode::SILU:
      return "Silu";
    case OpCode::GELU:
      return "Gelu";
    case OpCode::LEAKY_RELU:
      return "LeakyRelu";
    case OpCode::CLIP:
      return "Clip";
    case OpCode::WHERE:
      return "Where";
    case OpCode::AS_TYPE:
      return "AsType";
    case OpCode::COPY:
      return "Copy";
    case OpCode::SUM:
      return "Sum";
    case OpCode::MEAN:
      return "Mean";
    case OpCode::MAX:
      return "Max";
    case OpCode::MIN:
      return "Min";
    case OpCode::PROD:
      return "Prod";
    case OpCode::ANY:
      return "Any";
    case OpCode::ALL:
      return "All";
    case OpCode::VAR:
      return "Var";
    case OpCode::STD:
      return "Std";
    case OpCode::ARG_MAX:
      return "ArgMax";
    case OpCode::ARG_MIN:
      return "ArgMin";
    case OpCode::CUM_SUM:
      return "CumSum";
    case OpCode::SOFTMAX:
      return "Softmax";
    case OpCode::LOG_SOFTMAX:
      return "LogSoftmax";
    case OpCode::LINEAR:
      return "Linear";
    case OpCode::ADDMM:
      return "Addmm";
    case OpCode::MATMUL:
      return "Matmul";
    case OpCode::LAYER_NORM:
      return "LayerNorm";
    case OpCode::RMS_NORM:
      return "RmsNorm";
    case OpCode::CONV:
      return "Conv";
    case OpCode::SCALED_DOT_PRODUCT_ATTENTION:
      return "ScaledDotProductAttention";
    case OpCode::RESHAPE:
      return "Reshape";
    case OpCode::TRANSPOSE:
      return "Transpose";
    case OpCode::EXPAND_DIMS:
      return "ExpandDims";
    case OpCode::SQUEEZE:
      return "Squeeze";
    case OpCode::BROADCAST_TO:
      return "BroadcastTo";
    case OpCode::SLICE:
      return "Slice";
    case OpCode::SELECT:
      return "Select";
    case OpCode::CONCATENATE:
      return "Concatenate";
    case OpCode::STACK:
      return "Stack";
    case OpCode::SPLIT:
      return "Split";
    case OpCode::TILE:
      return "Tile";
    case OpCode::FLIP:
      return "Flip";
    case OpCode::PAD:
      return "Pad";
    case OpCode::TRIL:
      return "Tril";
    case OpCode::TRIU:
      return "Triu";
    case OpCode::TAKE:
      return "Take";
    case OpCode::TAKE_ALONG_AXIS:
      return "TakeAlongAxis";
    case OpCode::INDEX:
      return "Index";
    case OpCode::SCATTER_ADD:
      return "ScatterAdd";
    case OpCode::SLICE_UPDATE:
      return "SliceUpdate";
    case OpCode::ARANGE:
      return "Arange";
    case OpCode::FULL:
      return "Full";
    case OpCode::FULL_LIKE:
      return "FullLike";
    case OpCode::SYM_SIZE:
      return "SymSize";
    case OpCode::ITEM:
      return "Item";
    case OpCode::INT_BINARY:
      return "IntBinary";
    case OpCode::INDEX_PUT:
      return "IndexPut";
    case OpCode::TAN:
      return "Tan";
    case OpCode::SINH:
      return "Sinh";
    case OpCode::COSH:
      return "Cosh";
    case OpCode::ARC_SIN:
      return "ArcSin";
    case OpCode::ARC_COS:
      return "ArcCos";
    case OpCode::ARC_TAN:
      return "ArcTan";
    case OpCode::ARC_SINH:
      return "ArcSinh";
    case OpCode::ARC_COSH:
      return "ArcCosh";
    case OpCode::ARC_TANH:
      return "ArcTanh";
    case OpCode::LOG2:
      return "Log2";
    case OpCode::LOG10:
      return "Log10";
    case OpCode::LOG1P:
      return "Log1p";
    case OpCode::EXPM1:
      return "Expm1";
    case OpCode::SIGN:
      return "Sign";
    case OpCode::TRUNC:
      return "Trunc";
    case OpCode::SQUARE:
      return "Square";
    case OpCode::IS_NAN:
      return "IsNan";
    case OpCode::IS_INF:
      return "IsInf";
    case OpCode::BITWISE_NOT:
      return "BitwiseNot";
    case OpCode::BITWISE_AND:
      return "BitwiseAnd";
    case OpCode::BITWISE_OR:
      return "BitwiseOr";
    case OpCode::BITWISE_XOR:
      return "BitwiseXor";
    case OpCode::ARC_TAN2:
      return "ArcTan2";
    case OpCode::LOG_ADD_EXP:
      return "LogAddExp";
    case OpCode::REMAINDER:
      return "Remainder";
    case OpCode::LOG_SUM_EXP:
      return "LogSumExp";
    case OpCode::CUM_PROD:
      return "CumProd";
    case OpCode::SORT:
      return "Sort";
    case OpCode::ROLL:
      return "Roll";
    case OpCode::POOL:
      return "Pool";
    case OpCode::UPSAMPLE:
      return "Upsample";
    case OpCode::LOGICAL_XOR:
      return "LogicalXor";
    case OpCode::COND:
      return "Cond";
    case OpCode::WHILE:
      return "While";
    case OpCode::IS_POS_INF:
      return "IsPosInf";
    case OpCode::IS_NEG_INF:
      return "IsNegInf";
    case OpCode::QUANTIZED_LINEAR:
      return "QuantizedLinear";
    case OpCode::DEQUANTIZE:
      return "Dequantize";
    case OpCode::ROPE:
      return "Rope";
    case OpCode::GATHER_MM:
      return "GatherMM";
    case OpCode::GATHER_QMM:
      return "GatherQMM";
    case OpCode::SCATTER:
      return "Scatter";
    case OpCode::SAMPLE:
      return "Sample";
    case OpCode::ALL_SUM:
      return "AllSum";
    case OpCode::ALL_GATHER:
      return "AllGather";
  }
  return "unknown";
}

namespace {

// The loader reads flatc's structs in place: they must have the schema's layout.
static_assert(sizeof(::mlxd::ir::Tid) == 4 && alignof(::mlxd::ir::Tid) == 4,
              "flatc's Tid differs from the schema's layout");
static_assert(sizeof(::mlxd::ir::Vid) == 4 && alignof(::mlxd::ir::Vid) == 4,
              "flatc's Vid differs from the schema's layout");
static_assert(sizeof(::mlxd::ir::SlotRef) == 8 && alignof(::mlxd::ir::SlotRef) == 4,
              "flatc's SlotRef differs from the schema's layout");

Tid load_Tid(const ::mlxd::ir::Tid& fb) {
  Tid out;
  out.idx = fb.idx();
  return out;
}

Vid load_Vid(const ::mlxd::ir::Vid& fb) {
  Vid out;
  out.idx = fb.idx();
  return out;
}

IntOrVid load_IntOrVid(const ::mlxd::ir::IntOrVid* fb) {
  IntOrVid out;
  out.literal = fb->literal();
  if (const auto* value = fb->vid()) out.vid = load_Vid(*value);
  return out;
}

FloatOrVid load_FloatOrVid(const ::mlxd::ir::FloatOrVid* fb) {
  FloatOrVid out;
  out.literal = fb->literal();
  if (const auto* value = fb->vid()) out.vid = load_Vid(*value);
  return out;
}

TidOrVid load_TidOrVid(const ::mlxd::ir::TidOrVid* fb) {
  TidOrVid out;
  if (const auto* value = fb->tid()) out.tid = load_Tid(*value);
  if (const auto* value = fb->vid()) out.vid = load_Vid(*value);
  return out;
}

SlotRef load_SlotRef(const ::mlxd::ir::SlotRef& fb) {
  SlotRef out;
  out.kind = fb.kind();
  out.idx = fb.idx();
  return out;
}

TensorMeta load_TensorMeta(const ::mlxd::ir::TensorMeta* fb) {
  TensorMeta out;
  if (const auto* values = fb->shape()) {
    out.shape.reserve(values->size());
    for (auto e : *values) out.shape.push_back(load_IntOrVid(e));
  }
  out.dtype = fb->dtype();
  return out;
}

NamedSlot load_NamedSlot(const ::mlxd::ir::NamedSlot* fb) {
  NamedSlot out;
  {
    const auto* value = present(fb->name(), "NamedSlot.name");
    out.name = value->str();
  }
  {
    const auto* value = present(fb->slot(), "NamedSlot.slot");
    out.slot = load_Tid(*value);
  }
  return out;
}

AddNode load_AddNode(const ::mlxd::ir::AddNode* fb) {
  AddNode out;
  {
    const auto* value = present(fb->a(), "AddNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "AddNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "AddNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

SubtractNode load_SubtractNode(const ::mlxd::ir::SubtractNode* fb) {
  SubtractNode out;
  {
    const auto* value = present(fb->a(), "SubtractNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "SubtractNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SubtractNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

MultiplyNode load_MultiplyNode(const ::mlxd::ir::MultiplyNode* fb) {
  MultiplyNode out;
  {
    const auto* value = present(fb->a(), "MultiplyNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "MultiplyNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "MultiplyNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

DivideNode load_DivideNode(const ::mlxd::ir::DivideNode* fb) {
  DivideNode out;
  {
    const auto* value = present(fb->a(), "DivideNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "DivideNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "DivideNode.out");
    out.out = load_Tid(*value);
  }
  out.rounding = fb->rounding();
  return out;
}

PowerNode load_PowerNode(const ::mlxd::ir::PowerNode* fb) {
  PowerNode out;
  {
    const auto* value = present(fb->a(), "PowerNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "PowerNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "PowerNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

MaximumNode load_MaximumNode(const ::mlxd::ir::MaximumNode* fb) {
  MaximumNode out;
  {
    const auto* value = present(fb->a(), "MaximumNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "MaximumNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "MaximumNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

MinimumNode load_MinimumNode(const ::mlxd::ir::MinimumNode* fb) {
  MinimumNode out;
  {
    const auto* value = present(fb->a(), "MinimumNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "MinimumNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "MinimumNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

EqualNode load_EqualNode(const ::mlxd::ir::EqualNode* fb) {
  EqualNode out;
  {
    const auto* value = present(fb->a(), "EqualNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "EqualNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "EqualNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

NotEqualNode load_NotEqualNode(const ::mlxd::ir::NotEqualNode* fb) {
  NotEqualNode out;
  {
    const auto* value = present(fb->a(), "NotEqualNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "NotEqualNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "NotEqualNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

LessNode load_LessNode(const ::mlxd::ir::LessNode* fb) {
  LessNode out;
  {
    const auto* value = present(fb->a(), "LessNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "LessNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LessNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

LessEqualNode load_LessEqualNode(const ::mlxd::ir::LessEqualNode* fb) {
  LessEqualNode out;
  {
    const auto* value = present(fb->a(), "LessEqualNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "LessEqualNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LessEqualNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

GreaterNode load_GreaterNode(const ::mlxd::ir::GreaterNode* fb) {
  GreaterNode out;
  {
    const auto* value = present(fb->a(), "GreaterNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "GreaterNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "GreaterNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

GreaterEqualNode load_GreaterEqualNode(const ::mlxd::ir::GreaterEqualNode* fb) {
  GreaterEqualNode out;
  {
    const auto* value = present(fb->a(), "GreaterEqualNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "GreaterEqualNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "GreaterEqualNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

LogicalAndNode load_LogicalAndNode(const ::mlxd::ir::LogicalAndNode* fb) {
  LogicalAndNode out;
  {
    const auto* value = present(fb->a(), "LogicalAndNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "LogicalAndNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LogicalAndNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

LogicalOrNode load_LogicalOrNode(const ::mlxd::ir::LogicalOrNode* fb) {
  LogicalOrNode out;
  {
    const auto* value = present(fb->a(), "LogicalOrNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "LogicalOrNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LogicalOrNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

NegNode load_NegNode(const ::mlxd::ir::NegNode* fb) {
  NegNode out;
  {
    const auto* value = present(fb->x(), "NegNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "NegNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

AbsNode load_AbsNode(const ::mlxd::ir::AbsNode* fb) {
  AbsNode out;
  {
    const auto* value = present(fb->x(), "AbsNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "AbsNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

ExpNode load_ExpNode(const ::mlxd::ir::ExpNode* fb) {
  ExpNode out;
  {
    const auto* value = present(fb->x(), "ExpNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ExpNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

LogNode load_LogNode(const ::mlxd::ir::LogNode* fb) {
  LogNode out;
  {
    const auto* value = present(fb->x(), "LogNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LogNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

SqrtNode load_SqrtNode(const ::mlxd::ir::SqrtNode* fb) {
  SqrtNode out;
  {
    const auto* value = present(fb->x(), "SqrtNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SqrtNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

RsqrtNode load_RsqrtNode(const ::mlxd::ir::RsqrtNode* fb) {
  RsqrtNode out;
  {
    const auto* value = present(fb->x(), "RsqrtNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "RsqrtNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

SinNode load_SinNode(const ::mlxd::ir::SinNode* fb) {
  SinNode out;
  {
    const auto* value = present(fb->x(), "SinNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SinNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

CosNode load_CosNode(const ::mlxd::ir::CosNode* fb) {
  CosNode out;
  {
    const auto* value = present(fb->x(), "CosNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "CosNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

TanhNode load_TanhNode(const ::mlxd::ir::TanhNode* fb) {
  TanhNode out;
  {
    const auto* value = present(fb->x(), "TanhNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "TanhNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

SigmoidNode load_SigmoidNode(const ::mlxd::ir::SigmoidNode* fb) {
  SigmoidNode out;
  {
    const auto* value = present(fb->x(), "SigmoidNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SigmoidNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

ErfNode load_ErfNode(const ::mlxd::ir::ErfNode* fb) {
  ErfNode out;
  {
    const auto* value = present(fb->x(), "ErfNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ErfNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

FloorNode load_FloorNode(const ::mlxd::ir::FloorNode* fb) {
  FloorNode out;
  {
    const auto* value = present(fb->x(), "FloorNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "FloorNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

CeilNode load_CeilNode(const ::mlxd::ir::CeilNode* fb) {
  CeilNode out;
  {
    const auto* value = present(fb->x(), "CeilNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "CeilNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

RoundNode load_RoundNode(const ::mlxd::ir::RoundNode* fb) {
  RoundNode out;
  {
    const auto* value = present(fb->x(), "RoundNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "RoundNode.out");
    out.out = load_Tid(*value);
  }
  out.decimals = fb->decimals();
  return out;
}

ReciprocalNode load_ReciprocalNode(const ::mlxd::ir::ReciprocalNode* fb) {
  ReciprocalNode out;
  {
    const auto* value = present(fb->x(), "ReciprocalNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ReciprocalNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

LogicalNotNode load_LogicalNotNode(const ::mlxd::ir::LogicalNotNode* fb) {
  LogicalNotNode out;
  {
    const auto* value = present(fb->x(), "LogicalNotNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LogicalNotNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

ReluNode load_ReluNode(const ::mlxd::ir::ReluNode* fb) {
  ReluNode out;
  {
    const auto* value = present(fb->x(), "ReluNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ReluNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

SiluNode load_SiluNode(const ::mlxd::ir::SiluNode* fb) {
  SiluNode out;
  {
    const auto* value = present(fb->x(), "SiluNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SiluNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

GeluNode load_GeluNode(const ::mlxd::ir::GeluNode* fb) {
  GeluNode out;
  {
    const auto* value = present(fb->x(), "GeluNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "GeluNode.out");
    out.out = load_Tid(*value);
  }
  out.approximation = fb->approximation();
  return out;
}

LeakyReluNode load_LeakyReluNode(const ::mlxd::ir::LeakyReluNode* fb) {
  LeakyReluNode out;
  {
    const auto* value = present(fb->x(), "LeakyReluNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LeakyReluNode.out");
    out.out = load_Tid(*value);
  }
  out.negative_slope = fb->negative_slope();
  return out;
}

ClipNode load_ClipNode(const ::mlxd::ir::ClipNode* fb) {
  ClipNode out;
  {
    const auto* value = present(fb->x(), "ClipNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ClipNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* value = fb->min()) out.min = load_TidOrVid(value);
  if (const auto* value = fb->max()) out.max = load_TidOrVid(value);
  return out;
}

WhereNode load_WhereNode(const ::mlxd::ir::WhereNode* fb) {
  WhereNode out;
  {
    const auto* value = present(fb->condition(), "WhereNode.condition");
    out.condition = load_Tid(*value);
  }
  {
    const auto* value = present(fb->a(), "WhereNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "WhereNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "WhereNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

AsTypeNode load_AsTypeNode(const ::mlxd::ir::AsTypeNode* fb) {
  AsTypeNode out;
  {
    const auto* value = present(fb->x(), "AsTypeNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "AsTypeNode.out");
    out.out = load_Tid(*value);
  }
  out.dtype = fb->dtype();
  return out;
}

CopyNode load_CopyNode(const ::mlxd::ir::CopyNode* fb) {
  CopyNode out;
  {
    const auto* value = present(fb->x(), "CopyNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "CopyNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

SumNode load_SumNode(const ::mlxd::ir::SumNode* fb) {
  SumNode out;
  {
    const auto* value = present(fb->x(), "SumNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SumNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  out.keepdims = fb->keepdims();
  return out;
}

MeanNode load_MeanNode(const ::mlxd::ir::MeanNode* fb) {
  MeanNode out;
  {
    const auto* value = present(fb->x(), "MeanNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "MeanNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  out.keepdims = fb->keepdims();
  return out;
}

MaxNode load_MaxNode(const ::mlxd::ir::MaxNode* fb) {
  MaxNode out;
  {
    const auto* value = present(fb->x(), "MaxNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "MaxNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  out.keepdims = fb->keepdims();
  return out;
}

MinNode load_MinNode(const ::mlxd::ir::MinNode* fb) {
  MinNode out;
  {
    const auto* value = present(fb->x(), "MinNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "MinNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  out.keepdims = fb->keepdims();
  return out;
}

ProdNode load_ProdNode(const ::mlxd::ir::ProdNode* fb) {
  ProdNode out;
  {
    const auto* value = present(fb->x(), "ProdNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ProdNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  out.keepdims = fb->keepdims();
  return out;
}

AnyNode load_AnyNode(const ::mlxd::ir::AnyNode* fb) {
  AnyNode out;
  {
    const auto* value = present(fb->x(), "AnyNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "AnyNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  out.keepdims = fb->keepdims();
  return out;
}

AllNode load_AllNode(const ::mlxd::ir::AllNode* fb) {
  AllNode out;
  {
    const auto* value = present(fb->x(), "AllNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "AllNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  out.keepdims = fb->keepdims();
  return out;
}

VarNode load_VarNode(const ::mlxd::ir::VarNode* fb) {
  VarNode out;
  {
    const auto* value = present(fb->x(), "VarNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "VarNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  out.keepdims = fb->keepdims();
  out.ddof = fb->ddof();
  return out;
}

StdNode load_StdNode(const ::mlxd::ir::StdNode* fb) {
  StdNode out;
  {
    const auto* value = present(fb->x(), "StdNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "StdNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  out.keepdims = fb->keepdims();
  out.ddof = fb->ddof();
  return out;
}

ArgMaxNode load_ArgMaxNode(const ::mlxd::ir::ArgMaxNode* fb) {
  ArgMaxNode out;
  {
    const auto* value = present(fb->x(), "ArgMaxNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ArgMaxNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = to_optional(fb->axis());
  out.keepdims = fb->keepdims();
  return out;
}

ArgMinNode load_ArgMinNode(const ::mlxd::ir::ArgMinNode* fb) {
  ArgMinNode out;
  {
    const auto* value = present(fb->x(), "ArgMinNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ArgMinNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = to_optional(fb->axis());
  out.keepdims = fb->keepdims();
  return out;
}

CumSumNode load_CumSumNode(const ::mlxd::ir::CumSumNode* fb) {
  CumSumNode out;
  {
    const auto* value = present(fb->x(), "CumSumNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "CumSumNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  out.reverse = fb->reverse();
  return out;
}

SoftmaxNode load_SoftmaxNode(const ::mlxd::ir::SoftmaxNode* fb) {
  SoftmaxNode out;
  {
    const auto* value = present(fb->x(), "SoftmaxNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SoftmaxNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  return out;
}

LogSoftmaxNode load_LogSoftmaxNode(const ::mlxd::ir::LogSoftmaxNode* fb) {
  LogSoftmaxNode out;
  {
    const auto* value = present(fb->x(), "LogSoftmaxNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LogSoftmaxNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  return out;
}

LinearNode load_LinearNode(const ::mlxd::ir::LinearNode* fb) {
  LinearNode out;
  {
    const auto* value = present(fb->x(), "LinearNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->weight(), "LinearNode.weight");
    out.weight = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LinearNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* value = fb->bias()) out.bias = load_Tid(*value);
  return out;
}

AddmmNode load_AddmmNode(const ::mlxd::ir::AddmmNode* fb) {
  AddmmNode out;
  {
    const auto* value = present(fb->bias(), "AddmmNode.bias");
    out.bias = load_Tid(*value);
  }
  {
    const auto* value = present(fb->mat1(), "AddmmNode.mat1");
    out.mat1 = load_Tid(*value);
  }
  {
    const auto* value = present(fb->mat2(), "AddmmNode.mat2");
    out.mat2 = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "AddmmNode.out");
    out.out = load_Tid(*value);
  }
  out.alpha = fb->alpha();
  out.beta = fb->beta();
  return out;
}

MatmulNode load_MatmulNode(const ::mlxd::ir::MatmulNode* fb) {
  MatmulNode out;
  {
    const auto* value = present(fb->a(), "MatmulNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "MatmulNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "MatmulNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

QuantizedLinearNode load_QuantizedLinearNode(const ::mlxd::ir::QuantizedLinearNode* fb) {
  QuantizedLinearNode out;
  {
    const auto* value = present(fb->x(), "QuantizedLinearNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->w(), "QuantizedLinearNode.w");
    out.w = load_Tid(*value);
  }
  {
    const auto* value = present(fb->scales(), "QuantizedLinearNode.scales");
    out.scales = load_Tid(*value);
  }
  if (const auto* value = fb->biases()) out.biases = load_Tid(*value);
  {
    const auto* value = present(fb->out(), "QuantizedLinearNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* value = fb->bias()) out.bias = load_Tid(*value);
  out.group_size = fb->group_size();
  out.bits = fb->bits();
  out.mode = fb->mode();
  if (const auto* value = fb->tensor_scale()) out.tensor_scale = load_Tid(*value);
  out.transpose = fb->transpose();
  return out;
}

DequantizeNode load_DequantizeNode(const ::mlxd::ir::DequantizeNode* fb) {
  DequantizeNode out;
  {
    const auto* value = present(fb->w(), "DequantizeNode.w");
    out.w = load_Tid(*value);
  }
  {
    const auto* value = present(fb->scales(), "DequantizeNode.scales");
    out.scales = load_Tid(*value);
  }
  if (const auto* value = fb->biases()) out.biases = load_Tid(*value);
  {
    const auto* value = present(fb->out(), "DequantizeNode.out");
    out.out = load_Tid(*value);
  }
  out.group_size = fb->group_size();
  out.bits = fb->bits();
  out.mode = fb->mode();
  if (const auto* value = fb->tensor_scale()) out.tensor_scale = load_Tid(*value);
  return out;
}

GatherMMNode load_GatherMMNode(const ::mlxd::ir::GatherMMNode* fb) {
  GatherMMNode out;
  {
    const auto* value = present(fb->a(), "GatherMMNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "GatherMMNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "GatherMMNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* value = fb->lhs_indices()) out.lhs_indices = load_Tid(*value);
  if (const auto* value = fb->rhs_indices()) out.rhs_indices = load_Tid(*value);
  out.sorted_indices = fb->sorted_indices();
  return out;
}

GatherQMMNode load_GatherQMMNode(const ::mlxd::ir::GatherQMMNode* fb) {
  GatherQMMNode out;
  {
    const auto* value = present(fb->x(), "GatherQMMNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->w(), "GatherQMMNode.w");
    out.w = load_Tid(*value);
  }
  {
    const auto* value = present(fb->scales(), "GatherQMMNode.scales");
    out.scales = load_Tid(*value);
  }
  if (const auto* value = fb->biases()) out.biases = load_Tid(*value);
  {
    const auto* value = present(fb->out(), "GatherQMMNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* value = fb->lhs_indices()) out.lhs_indices = load_Tid(*value);
  if (const auto* value = fb->rhs_indices()) out.rhs_indices = load_Tid(*value);
  out.transpose = fb->transpose();
  out.group_size = fb->group_size();
  out.bits = fb->bits();
  out.sorted_indices = fb->sorted_indices();
  out.mode = fb->mode();
  return out;
}

LayerNormNode load_LayerNormNode(const ::mlxd::ir::LayerNormNode* fb) {
  LayerNormNode out;
  {
    const auto* value = present(fb->x(), "LayerNormNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LayerNormNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* value = fb->weight()) out.weight = load_Tid(*value);
  if (const auto* value = fb->bias()) out.bias = load_Tid(*value);
  out.eps = fb->eps();
  out.num_axes = fb->num_axes();
  if (const auto* value = fb->mean_out()) out.mean_out = load_Tid(*value);
  if (const auto* value = fb->rstd_out()) out.rstd_out = load_Tid(*value);
  return out;
}

RmsNormNode load_RmsNormNode(const ::mlxd::ir::RmsNormNode* fb) {
  RmsNormNode out;
  {
    const auto* value = present(fb->x(), "RmsNormNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "RmsNormNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* value = fb->weight()) out.weight = load_Tid(*value);
  out.eps = fb->eps();
  return out;
}

ConvNode load_ConvNode(const ::mlxd::ir::ConvNode* fb) {
  ConvNode out;
  {
    const auto* value = present(fb->x(), "ConvNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->weight(), "ConvNode.weight");
    out.weight = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ConvNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* value = fb->bias()) out.bias = load_Tid(*value);
  if (const auto* values = fb->stride()) {
    out.stride.reserve(values->size());
    for (auto e : *values) out.stride.push_back(e);
  }
  if (const auto* values = fb->padding()) {
    out.padding.reserve(values->size());
    for (auto e : *values) out.padding.push_back(e);
  }
  if (const auto* values = fb->dilation()) {
    out.dilation.reserve(values->size());
    for (auto e : *values) out.dilation.push_back(e);
  }
  out.groups = fb->groups();
  out.transposed = fb->transposed();
  if (const auto* values = fb->output_padding()) {
    out.output_padding.reserve(values->size());
    for (auto e : *values) out.output_padding.push_back(e);
  }
  return out;
}

ScaledDotProductAttentionNode load_ScaledDotProductAttentionNode(
    const ::mlxd::ir::ScaledDotProductAttentionNode* fb) {
  ScaledDotProductAttentionNode out;
  {
    const auto* value = present(fb->q(), "ScaledDotProductAttentionNode.q");
    out.q = load_Tid(*value);
  }
  {
    const auto* value = present(fb->k(), "ScaledDotProductAttentionNode.k");
    out.k = load_Tid(*value);
  }
  {
    const auto* value = present(fb->v(), "ScaledDotProductAttentionNode.v");
    out.v = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ScaledDotProductAttentionNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* value = fb->mask()) out.mask = load_Tid(*value);
  out.scale = fb->scale();
  out.causal = fb->causal();
  out.lower_right = fb->lower_right();
  return out;
}

RopeNode load_RopeNode(const ::mlxd::ir::RopeNode* fb) {
  RopeNode out;
  {
    const auto* value = present(fb->x(), "RopeNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "RopeNode.out");
    out.out = load_Tid(*value);
  }
  out.dims = fb->dims();
  out.traditional = fb->traditional();
  out.base = fb->base();
  out.scale = fb->scale();
  {
    const auto* value = present(fb->offset(), "RopeNode.offset");
    out.offset = load_Tid(*value);
  }
  if (const auto* value = fb->freqs()) out.freqs = load_Tid(*value);
  return out;
}

ReshapeNode load_ReshapeNode(const ::mlxd::ir::ReshapeNode* fb) {
  ReshapeNode out;
  {
    const auto* value = present(fb->x(), "ReshapeNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ReshapeNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->shape()) {
    out.shape.reserve(values->size());
    for (auto e : *values) out.shape.push_back(load_IntOrVid(e));
  }
  return out;
}

TransposeNode load_TransposeNode(const ::mlxd::ir::TransposeNode* fb) {
  TransposeNode out;
  {
    const auto* value = present(fb->x(), "TransposeNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "TransposeNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->perm()) {
    out.perm.reserve(values->size());
    for (auto e : *values) out.perm.push_back(e);
  }
  return out;
}

ExpandDimsNode load_ExpandDimsNode(const ::mlxd::ir::ExpandDimsNode* fb) {
  ExpandDimsNode out;
  {
    const auto* value = present(fb->x(), "ExpandDimsNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ExpandDimsNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  return out;
}

SqueezeNode load_SqueezeNode(const ::mlxd::ir::SqueezeNode* fb) {
  SqueezeNode out;
  {
    const auto* value = present(fb->x(), "SqueezeNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SqueezeNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  return out;
}

BroadcastToNode load_BroadcastToNode(const ::mlxd::ir::BroadcastToNode* fb) {
  BroadcastToNode out;
  {
    const auto* value = present(fb->x(), "BroadcastToNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "BroadcastToNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->shape()) {
    out.shape.reserve(values->size());
    for (auto e : *values) out.shape.push_back(load_IntOrVid(e));
  }
  return out;
}

SliceNode load_SliceNode(const ::mlxd::ir::SliceNode* fb) {
  SliceNode out;
  {
    const auto* value = present(fb->x(), "SliceNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SliceNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  if (const auto* value = fb->start()) out.start = load_IntOrVid(value);
  if (const auto* value = fb->stop()) out.stop = load_IntOrVid(value);
  out.step = fb->step();
  return out;
}

SelectNode load_SelectNode(const ::mlxd::ir::SelectNode* fb) {
  SelectNode out;
  {
    const auto* value = present(fb->x(), "SelectNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SelectNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  {
    const auto* value = present(fb->index(), "SelectNode.index");
    out.index = load_IntOrVid(value);
  }
  return out;
}

ConcatenateNode load_ConcatenateNode(const ::mlxd::ir::ConcatenateNode* fb) {
  ConcatenateNode out;
  if (const auto* values = fb->inputs()) {
    out.inputs.reserve(values->size());
    for (auto e : *values) out.inputs.push_back(load_Tid(*e));
  }
  {
    const auto* value = present(fb->out(), "ConcatenateNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  return out;
}

StackNode load_StackNode(const ::mlxd::ir::StackNode* fb) {
  StackNode out;
  if (const auto* values = fb->inputs()) {
    out.inputs.reserve(values->size());
    for (auto e : *values) out.inputs.push_back(load_Tid(*e));
  }
  {
    const auto* value = present(fb->out(), "StackNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  return out;
}

SplitNode load_SplitNode(const ::mlxd::ir::SplitNode* fb) {
  SplitNode out;
  {
    const auto* value = present(fb->x(), "SplitNode.x");
    out.x = load_Tid(*value);
  }
  if (const auto* values = fb->outs()) {
    out.outs.reserve(values->size());
    for (auto e : *values) out.outs.push_back(load_Tid(*e));
  }
  if (const auto* values = fb->sizes()) {
    out.sizes.reserve(values->size());
    for (auto e : *values) out.sizes.push_back(e);
  }
  out.axis = fb->axis();
  return out;
}

TileNode load_TileNode(const ::mlxd::ir::TileNode* fb) {
  TileNode out;
  {
    const auto* value = present(fb->x(), "TileNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "TileNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->reps()) {
    out.reps.reserve(values->size());
    for (auto e : *values) out.reps.push_back(e);
  }
  return out;
}

FlipNode load_FlipNode(const ::mlxd::ir::FlipNode* fb) {
  FlipNode out;
  {
    const auto* value = present(fb->x(), "FlipNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "FlipNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  return out;
}

PadNode load_PadNode(const ::mlxd::ir::PadNode* fb) {
  PadNode out;
  {
    const auto* value = present(fb->x(), "PadNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "PadNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->pad()) {
    out.pad.reserve(values->size());
    for (auto e : *values) out.pad.push_back(e);
  }
  out.value = fb->value();
  return out;
}

TrilNode load_TrilNode(const ::mlxd::ir::TrilNode* fb) {
  TrilNode out;
  {
    const auto* value = present(fb->x(), "TrilNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "TrilNode.out");
    out.out = load_Tid(*value);
  }
  out.k = fb->k();
  return out;
}

TriuNode load_TriuNode(const ::mlxd::ir::TriuNode* fb) {
  TriuNode out;
  {
    const auto* value = present(fb->x(), "TriuNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "TriuNode.out");
    out.out = load_Tid(*value);
  }
  out.k = fb->k();
  return out;
}

TakeNode load_TakeNode(const ::mlxd::ir::TakeNode* fb) {
  TakeNode out;
  {
    const auto* value = present(fb->x(), "TakeNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->indices(), "TakeNode.indices");
    out.indices = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "TakeNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  return out;
}

TakeAlongAxisNode load_TakeAlongAxisNode(const ::mlxd::ir::TakeAlongAxisNode* fb) {
  TakeAlongAxisNode out;
  {
    const auto* value = present(fb->x(), "TakeAlongAxisNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->indices(), "TakeAlongAxisNode.indices");
    out.indices = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "TakeAlongAxisNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  return out;
}

IndexNode load_IndexNode(const ::mlxd::ir::IndexNode* fb) {
  IndexNode out;
  {
    const auto* value = present(fb->x(), "IndexNode.x");
    out.x = load_Tid(*value);
  }
  if (const auto* values = fb->indices()) {
    out.indices.reserve(values->size());
    for (auto e : *values) out.indices.push_back(load_Tid(*e));
  }
  {
    const auto* value = present(fb->out(), "IndexNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

ScatterNode load_ScatterNode(const ::mlxd::ir::ScatterNode* fb) {
  ScatterNode out;
  {
    const auto* value = present(fb->x(), "ScatterNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->indices(), "ScatterNode.indices");
    out.indices = load_Tid(*value);
  }
  {
    const auto* value = present(fb->updates(), "ScatterNode.updates");
    out.updates = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ScatterNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  return out;
}

ScatterAddNode load_ScatterAddNode(const ::mlxd::ir::ScatterAddNode* fb) {
  ScatterAddNode out;
  {
    const auto* value = present(fb->x(), "ScatterAddNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->indices(), "ScatterAddNode.indices");
    out.indices = load_Tid(*value);
  }
  {
    const auto* value = present(fb->updates(), "ScatterAddNode.updates");
    out.updates = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ScatterAddNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  return out;
}

SliceUpdateNode load_SliceUpdateNode(const ::mlxd::ir::SliceUpdateNode* fb) {
  SliceUpdateNode out;
  {
    const auto* value = present(fb->target(), "SliceUpdateNode.target");
    out.target = load_Tid(*value);
  }
  {
    const auto* value = present(fb->update(), "SliceUpdateNode.update");
    out.update = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SliceUpdateNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  {
    const auto* value = present(fb->start(), "SliceUpdateNode.start");
    out.start = load_IntOrVid(value);
  }
  return out;
}

ArangeNode load_ArangeNode(const ::mlxd::ir::ArangeNode* fb) {
  ArangeNode out;
  {
    const auto* value = present(fb->out(), "ArangeNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* value = fb->start()) out.start = load_FloatOrVid(value);
  {
    const auto* value = present(fb->stop(), "ArangeNode.stop");
    out.stop = load_FloatOrVid(value);
  }
  if (const auto* value = fb->step()) out.step = load_FloatOrVid(value);
  out.dtype = fb->dtype();
  return out;
}

FullNode load_FullNode(const ::mlxd::ir::FullNode* fb) {
  FullNode out;
  {
    const auto* value = present(fb->out(), "FullNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->shape()) {
    out.shape.reserve(values->size());
    for (auto e : *values) out.shape.push_back(load_IntOrVid(e));
  }
  {
    const auto* value = present(fb->value(), "FullNode.value");
    out.value = load_FloatOrVid(value);
  }
  out.dtype = fb->dtype();
  return out;
}

FullLikeNode load_FullLikeNode(const ::mlxd::ir::FullLikeNode* fb) {
  FullLikeNode out;
  {
    const auto* value = present(fb->x(), "FullLikeNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "FullLikeNode.out");
    out.out = load_Tid(*value);
  }
  out.value = fb->value();
  out.dtype = to_optional(fb->dtype());
  return out;
}

SymSizeNode load_SymSizeNode(const ::mlxd::ir::SymSizeNode* fb) {
  SymSizeNode out;
  {
    const auto* value = present(fb->x(), "SymSizeNode.x");
    out.x = load_Tid(*value);
  }
  out.dim = fb->dim();
  {
    const auto* value = present(fb->out(), "SymSizeNode.out");
    out.out = load_Vid(*value);
  }
  return out;
}

ItemNode load_ItemNode(const ::mlxd::ir::ItemNode* fb) {
  ItemNode out;
  {
    const auto* value = present(fb->x(), "ItemNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ItemNode.out");
    out.out = load_Vid(*value);
  }
  return out;
}

IntBinaryNode load_IntBinaryNode(const ::mlxd::ir::IntBinaryNode* fb) {
  IntBinaryNode out;
  out.op = fb->op();
  {
    const auto* value = present(fb->a(), "IntBinaryNode.a");
    out.a = load_IntOrVid(value);
  }
  {
    const auto* value = present(fb->b(), "IntBinaryNode.b");
    out.b = load_IntOrVid(value);
  }
  {
    const auto* value = present(fb->out(), "IntBinaryNode.out");
    out.out = load_Vid(*value);
  }
  return out;
}

IndexPutNode load_IndexPutNode(const ::mlxd::ir::IndexPutNode* fb) {
  IndexPutNode out;
  {
    const auto* value = present(fb->x(), "IndexPutNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->indices(), "IndexPutNode.indices");
    out.indices = load_Tid(*value);
  }
  {
    const auto* value = present(fb->values(), "IndexPutNode.values");
    out.values = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "IndexPutNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  return out;
}

TanNode load_TanNode(const ::mlxd::ir::TanNode* fb) {
  TanNode out;
  {
    const auto* value = present(fb->x(), "TanNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "TanNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

SinhNode load_SinhNode(const ::mlxd::ir::SinhNode* fb) {
  SinhNode out;
  {
    const auto* value = present(fb->x(), "SinhNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SinhNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

CoshNode load_CoshNode(const ::mlxd::ir::CoshNode* fb) {
  CoshNode out;
  {
    const auto* value = present(fb->x(), "CoshNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "CoshNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

ArcSinNode load_ArcSinNode(const ::mlxd::ir::ArcSinNode* fb) {
  ArcSinNode out;
  {
    const auto* value = present(fb->x(), "ArcSinNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ArcSinNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

ArcCosNode load_ArcCosNode(const ::mlxd::ir::ArcCosNode* fb) {
  ArcCosNode out;
  {
    const auto* value = present(fb->x(), "ArcCosNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ArcCosNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

ArcTanNode load_ArcTanNode(const ::mlxd::ir::ArcTanNode* fb) {
  ArcTanNode out;
  {
    const auto* value = present(fb->x(), "ArcTanNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ArcTanNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

ArcSinhNode load_ArcSinhNode(const ::mlxd::ir::ArcSinhNode* fb) {
  ArcSinhNode out;
  {
    const auto* value = present(fb->x(), "ArcSinhNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ArcSinhNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

ArcCoshNode load_ArcCoshNode(const ::mlxd::ir::ArcCoshNode* fb) {
  ArcCoshNode out;
  {
    const auto* value = present(fb->x(), "ArcCoshNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ArcCoshNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

ArcTanhNode load_ArcTanhNode(const ::mlxd::ir::ArcTanhNode* fb) {
  ArcTanhNode out;
  {
    const auto* value = present(fb->x(), "ArcTanhNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ArcTanhNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

Log2Node load_Log2Node(const ::mlxd::ir::Log2Node* fb) {
  Log2Node out;
  {
    const auto* value = present(fb->x(), "Log2Node.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "Log2Node.out");
    out.out = load_Tid(*value);
  }
  return out;
}

Log10Node load_Log10Node(const ::mlxd::ir::Log10Node* fb) {
  Log10Node out;
  {
    const auto* value = present(fb->x(), "Log10Node.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "Log10Node.out");
    out.out = load_Tid(*value);
  }
  return out;
}

Log1pNode load_Log1pNode(const ::mlxd::ir::Log1pNode* fb) {
  Log1pNode out;
  {
    const auto* value = present(fb->x(), "Log1pNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "Log1pNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

Expm1Node load_Expm1Node(const ::mlxd::ir::Expm1Node* fb) {
  Expm1Node out;
  {
    const auto* value = present(fb->x(), "Expm1Node.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "Expm1Node.out");
    out.out = load_Tid(*value);
  }
  return out;
}

SignNode load_SignNode(const ::mlxd::ir::SignNode* fb) {
  SignNode out;
  {
    const auto* value = present(fb->x(), "SignNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SignNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

TruncNode load_TruncNode(const ::mlxd::ir::TruncNode* fb) {
  TruncNode out;
  {
    const auto* value = present(fb->x(), "TruncNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "TruncNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

SquareNode load_SquareNode(const ::mlxd::ir::SquareNode* fb) {
  SquareNode out;
  {
    const auto* value = present(fb->x(), "SquareNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SquareNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

IsNanNode load_IsNanNode(const ::mlxd::ir::IsNanNode* fb) {
  IsNanNode out;
  {
    const auto* value = present(fb->x(), "IsNanNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "IsNanNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

IsInfNode load_IsInfNode(const ::mlxd::ir::IsInfNode* fb) {
  IsInfNode out;
  {
    const auto* value = present(fb->x(), "IsInfNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "IsInfNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

IsPosInfNode load_IsPosInfNode(const ::mlxd::ir::IsPosInfNode* fb) {
  IsPosInfNode out;
  {
    const auto* value = present(fb->x(), "IsPosInfNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "IsPosInfNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

IsNegInfNode load_IsNegInfNode(const ::mlxd::ir::IsNegInfNode* fb) {
  IsNegInfNode out;
  {
    const auto* value = present(fb->x(), "IsNegInfNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "IsNegInfNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

BitwiseNotNode load_BitwiseNotNode(const ::mlxd::ir::BitwiseNotNode* fb) {
  BitwiseNotNode out;
  {
    const auto* value = present(fb->x(), "BitwiseNotNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "BitwiseNotNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

BitwiseAndNode load_BitwiseAndNode(const ::mlxd::ir::BitwiseAndNode* fb) {
  BitwiseAndNode out;
  {
    const auto* value = present(fb->a(), "BitwiseAndNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "BitwiseAndNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "BitwiseAndNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

BitwiseOrNode load_BitwiseOrNode(const ::mlxd::ir::BitwiseOrNode* fb) {
  BitwiseOrNode out;
  {
    const auto* value = present(fb->a(), "BitwiseOrNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "BitwiseOrNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "BitwiseOrNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

BitwiseXorNode load_BitwiseXorNode(const ::mlxd::ir::BitwiseXorNode* fb) {
  BitwiseXorNode out;
  {
    const auto* value = present(fb->a(), "BitwiseXorNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "BitwiseXorNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "BitwiseXorNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

ArcTan2Node load_ArcTan2Node(const ::mlxd::ir::ArcTan2Node* fb) {
  ArcTan2Node out;
  {
    const auto* value = present(fb->a(), "ArcTan2Node.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "ArcTan2Node.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "ArcTan2Node.out");
    out.out = load_Tid(*value);
  }
  return out;
}

LogAddExpNode load_LogAddExpNode(const ::mlxd::ir::LogAddExpNode* fb) {
  LogAddExpNode out;
  {
    const auto* value = present(fb->a(), "LogAddExpNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "LogAddExpNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LogAddExpNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

RemainderNode load_RemainderNode(const ::mlxd::ir::RemainderNode* fb) {
  RemainderNode out;
  {
    const auto* value = present(fb->a(), "RemainderNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "RemainderNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "RemainderNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

LogSumExpNode load_LogSumExpNode(const ::mlxd::ir::LogSumExpNode* fb) {
  LogSumExpNode out;
  {
    const auto* value = present(fb->x(), "LogSumExpNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LogSumExpNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  out.keepdims = fb->keepdims();
  return out;
}

CumProdNode load_CumProdNode(const ::mlxd::ir::CumProdNode* fb) {
  CumProdNode out;
  {
    const auto* value = present(fb->x(), "CumProdNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "CumProdNode.out");
    out.out = load_Tid(*value);
  }
  out.axis = fb->axis();
  out.reverse = fb->reverse();
  return out;
}

SortNode load_SortNode(const ::mlxd::ir::SortNode* fb) {
  SortNode out;
  {
    const auto* value = present(fb->x(), "SortNode.x");
    out.x = load_Tid(*value);
  }
  if (const auto* value = fb->values_out()) out.values_out = load_Tid(*value);
  if (const auto* value = fb->indices_out()) out.indices_out = load_Tid(*value);
  out.axis = fb->axis();
  out.descending = fb->descending();
  return out;
}

RollNode load_RollNode(const ::mlxd::ir::RollNode* fb) {
  RollNode out;
  {
    const auto* value = present(fb->x(), "RollNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "RollNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* values = fb->shifts()) {
    out.shifts.reserve(values->size());
    for (auto e : *values) out.shifts.push_back(e);
  }
  if (const auto* values = fb->axes()) {
    out.axes.reserve(values->size());
    for (auto e : *values) out.axes.push_back(e);
  }
  return out;
}

PoolNode load_PoolNode(const ::mlxd::ir::PoolNode* fb) {
  PoolNode out;
  {
    const auto* value = present(fb->x(), "PoolNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "PoolNode.out");
    out.out = load_Tid(*value);
  }
  if (const auto* value = fb->indices_out()) out.indices_out = load_Tid(*value);
  out.kind = fb->kind();
  if (const auto* values = fb->kernel()) {
    out.kernel.reserve(values->size());
    for (auto e : *values) out.kernel.push_back(e);
  }
  if (const auto* values = fb->stride()) {
    out.stride.reserve(values->size());
    for (auto e : *values) out.stride.push_back(e);
  }
  if (const auto* values = fb->padding()) {
    out.padding.reserve(values->size());
    for (auto e : *values) out.padding.push_back(e);
  }
  if (const auto* values = fb->dilation()) {
    out.dilation.reserve(values->size());
    for (auto e : *values) out.dilation.push_back(e);
  }
  out.ceil_mode = fb->ceil_mode();
  out.count_include_pad = fb->count_include_pad();
  out.divisor_override = fb->divisor_override();
  return out;
}

UpsampleNode load_UpsampleNode(const ::mlxd::ir::UpsampleNode* fb) {
  UpsampleNode out;
  {
    const auto* value = present(fb->x(), "UpsampleNode.x");
    out.x = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "UpsampleNode.out");
    out.out = load_Tid(*value);
  }
  out.mode = fb->mode();
  out.align_corners = fb->align_corners();
  if (const auto* values = fb->out_size()) {
    out.out_size.reserve(values->size());
    for (auto e : *values) out.out_size.push_back(e);
  }
  if (const auto* values = fb->scales()) {
    out.scales.reserve(values->size());
    for (auto e : *values) out.scales.push_back(e);
  }
  return out;
}

LogicalXorNode load_LogicalXorNode(const ::mlxd::ir::LogicalXorNode* fb) {
  LogicalXorNode out;
  {
    const auto* value = present(fb->a(), "LogicalXorNode.a");
    out.a = load_Tid(*value);
  }
  {
    const auto* value = present(fb->b(), "LogicalXorNode.b");
    out.b = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "LogicalXorNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

CondNode load_CondNode(const ::mlxd::ir::CondNode* fb) {
  CondNode out;
  {
    const auto* value = present(fb->pred(), "CondNode.pred");
    out.pred = load_Tid(*value);
  }
  out.then_chain = fb->then_chain();
  out.else_chain = fb->else_chain();
  if (const auto* values = fb->operands()) {
    out.operands.reserve(values->size());
    for (auto e : *values) out.operands.push_back(load_Tid(*e));
  }
  if (const auto* values = fb->outs()) {
    out.outs.reserve(values->size());
    for (auto e : *values) out.outs.push_back(load_Tid(*e));
  }
  return out;
}

WhileNode load_WhileNode(const ::mlxd::ir::WhileNode* fb) {
  WhileNode out;
  if (const auto* values = fb->inits()) {
    out.inits.reserve(values->size());
    for (auto e : *values) out.inits.push_back(load_Tid(*e));
  }
  if (const auto* values = fb->outs()) {
    out.outs.reserve(values->size());
    for (auto e : *values) out.outs.push_back(load_Tid(*e));
  }
  out.cond_chain = fb->cond_chain();
  out.body_chain = fb->body_chain();
  {
    const auto* value = present(fb->pred_out(), "WhileNode.pred_out");
    out.pred_out = load_Tid(*value);
  }
  if (const auto* values = fb->operands()) {
    out.operands.reserve(values->size());
    for (auto e : *values) out.operands.push_back(load_Tid(*e));
  }
  return out;
}

SampleNode load_SampleNode(const ::mlxd::ir::SampleNode* fb) {
  SampleNode out;
  {
    const auto* value = present(fb->logits(), "SampleNode.logits");
    out.logits = load_Tid(*value);
  }
  {
    const auto* value = present(fb->temperature(), "SampleNode.temperature");
    out.temperature = load_Tid(*value);
  }
  {
    const auto* value = present(fb->top_p(), "SampleNode.top_p");
    out.top_p = load_Tid(*value);
  }
  {
    const auto* value = present(fb->uniform(), "SampleNode.uniform");
    out.uniform = load_Tid(*value);
  }
  {
    const auto* value = present(fb->out(), "SampleNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

AllSumNode load_AllSumNode(const ::mlxd::ir::AllSumNode* fb) {
  AllSumNode out;
  {
    const auto* value = present(fb->x(), "AllSumNode.x");
    out.x = load_Tid(*value);
  }
  out.group_size = fb->group_size();
  {
    const auto* value = present(fb->out(), "AllSumNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

AllGatherNode load_AllGatherNode(const ::mlxd::ir::AllGatherNode* fb) {
  AllGatherNode out;
  {
    const auto* value = present(fb->x(), "AllGatherNode.x");
    out.x = load_Tid(*value);
  }
  out.group_size = fb->group_size();
  {
    const auto* value = present(fb->out(), "AllGatherNode.out");
    out.out = load_Tid(*value);
  }
  return out;
}

Instruction load_Instruction(const ::mlxd::ir::Instruction* fb) {
  Instruction out;
  switch (fb->op_type()) {
    case ::mlxd::ir::OpNode_AddNode:
      out.op = OpCode::ADD;
      out.node = load_AddNode(present(fb->op_as_AddNode(), "AddNode"));
      break;
    case ::mlxd::ir::OpNode_SubtractNode:
      out.op = OpCode::SUBTRACT;
      out.node = load_SubtractNode(present(fb->op_as_SubtractNode(), "SubtractNode"));
      break;
    case ::mlxd::ir::OpNode_MultiplyNode:
      out.op = OpCode::MULTIPLY;
      out.node = load_MultiplyNode(present(fb->op_as_MultiplyNode(), "MultiplyNode"));
      break;
    case ::mlxd::ir::OpNode_DivideNode:
      out.op = OpCode::DIVIDE;
      out.node = load_DivideNode(present(fb->op_as_DivideNode(), "DivideNode"));
      break;
    case ::mlxd::ir::OpNode_PowerNode:
      out.op = OpCode::POWER;
      out.node = load_PowerNode(present(fb->op_as_PowerNode(), "PowerNode"));
      break;
    case ::mlxd::ir::OpNode_MaximumNode:
      out.op = OpCode::MAXIMUM;
      out.node = load_MaximumNode(present(fb->op_as_MaximumNode(), "MaximumNode"));
      break;
    case ::mlxd::ir::OpNode_MinimumNode:
      out.op = OpCode::MINIMUM;
      out.node = load_MinimumNode(present(fb->op_as_MinimumNode(), "MinimumNode"));
      break;
    case ::mlxd::ir::OpNode_EqualNode:
      out.op = OpCode::EQUAL;
      out.node = load_EqualNode(present(fb->op_as_EqualNode(), "EqualNode"));
      break;
    case ::mlxd::ir::OpNode_NotEqualNode:
      out.op = OpCode::NOT_EQUAL;
      out.node = load_NotEqualNode(present(fb->op_as_NotEqualNode(), "NotEqualNode"));
      break;
    case ::mlxd::ir::OpNode_LessNode:
      out.op = OpCode::LESS;
      out.node = load_LessNode(present(fb->op_as_LessNode(), "LessNode"));
      break;
    case ::mlxd::ir::OpNode_LessEqualNode:
      out.op = OpCode::LESS_EQUAL;
      out.node = load_LessEqualNode(present(fb->op_as_LessEqualNode(), "LessEqualNode"));
      break;
    case ::mlxd::ir::OpNode_GreaterNode:
      out.op = OpCode::GREATER;
      out.node = load_GreaterNode(present(fb->op_as_GreaterNode(), "GreaterNode"));
      break;
    case ::mlxd::ir::OpNode_GreaterEqualNode:
      out.op = OpCode::GREATER_EQUAL;
      out.node = load_GreaterEqualNode(present(fb->op_as_GreaterEqualNode(), "GreaterEqualNode"));
      break;
    case ::mlxd::ir::OpNode_LogicalAndNode:
      out.op = OpCode::LOGICAL_AND;
      out.node = load_LogicalAndNode(present(fb->op_as_LogicalAndNode(), "LogicalAndNode"));
      break;
    case ::mlxd::ir::OpNode_LogicalOrNode:
      out.op = OpCode::LOGICAL_OR;
      out.node = load_LogicalOrNode(present(fb->op_as_LogicalOrNode(), "LogicalOrNode"));
      break;
    case ::mlxd::ir::OpNode_NegNode:
      out.op = OpCode::NEG;
      out.node = load_NegNode(present(fb->op_as_NegNode(), "NegNode"));
      break;
    case ::mlxd::ir::OpNode_AbsNode:
      out.op = OpCode::ABS;
      out.node = load_AbsNode(present(fb->op_as_AbsNode(), "AbsNode"));
      break;
    case ::mlxd::ir::OpNode_ExpNode:
      out.op = OpCode::EXP;
      out.node = load_ExpNode(present(fb->op_as_ExpNode(), "ExpNode"));
      break;
    case ::mlxd::ir::OpNode_LogNode:
      out.op = OpCode::LOG;
      out.node = load_LogNode(present(fb->op_as_LogNode(), "LogNode"));
      break;
    case ::mlxd::ir::OpNode_SqrtNode:
      out.op = OpCode::SQRT;
      out.node = load_SqrtNode(present(fb->op_as_SqrtNode(), "SqrtNode"));
      break;
    case ::mlxd::ir::OpNode_RsqrtNode:
      out.op = OpCode::RSQRT;
      out.node = load_RsqrtNode(present(fb->op_as_RsqrtNode(), "RsqrtNode"));
      break;
    case ::mlxd::ir::OpNode_SinNode:
      out.op = OpCode::SIN;
      out.node = load_SinNode(present(fb->op_as_SinNode(), "SinNode"));
      break;
    case ::mlxd::ir::OpNode_CosNode:
      out.op = OpCode::COS;
      out.node = load_CosNode(present(fb->op_as_CosNode(), "CosNode"));
      break;
    case ::mlxd::ir::OpNode_TanhNode:
      out.op = OpCode::TANH;
      out.node = load_TanhNode(present(fb->op_as_TanhNode(), "TanhNode"));
      break;
    case ::mlxd::ir::OpNode_SigmoidNode:
      out.op = OpCode::SIGMOID;
      out.node = load_SigmoidNode(present(fb->op_as_SigmoidNode(), "SigmoidNode"));
      break;
    case ::mlxd::ir::OpNode_ErfNode:
      out.op = OpCode::ERF;
      out.node = load_ErfNode(present(fb->op_as_ErfNode(), "ErfNode"));
      break;
    case ::mlxd::ir::OpNode_FloorNode:
      out.op = OpCode::FLOOR;
      out.node = load_FloorNode(present(fb->op_as_FloorNode(), "FloorNode"));
      break;
    case ::mlxd::ir::OpNode_CeilNode:
      out.op = OpCode::CEIL;
      out.node = load_CeilNode(present(fb->op_as_CeilNode(), "CeilNode"));
      break;
    case ::mlxd::ir::OpNode_RoundNode:
      out.op = OpCode::ROUND;
      out.node = load_RoundNode(present(fb->op_as_RoundNode(), "RoundNode"));
      break;
    case ::mlxd::ir::OpNode_ReciprocalNode:
      out.op = OpCode::RECIPROCAL;
      out.node = load_ReciprocalNode(present(fb->op_as_ReciprocalNode(), "ReciprocalNode"));
      break;
    case ::mlxd::ir::OpNode_LogicalNotNode:
      out.op = OpCode::LOGICAL_NOT;
      out.node = load_LogicalNotNode(present(fb->op_as_LogicalNotNode(), "LogicalNotNode"));
      break;
    case ::mlxd::ir::OpNode_ReluNode:
      out.op = OpCode::RELU;
      out.node = load_ReluNode(present(fb->op_as_ReluNode(), "ReluNode"));
      break;
    case ::mlxd::ir::OpNode_SiluNode:
      out.op = OpCode::SILU;
      out.node = load_SiluNode(present(fb->op_as_SiluNode(), "SiluNode"));
      break;
    case ::mlxd::ir::OpNode_GeluNode:
      out.op = OpCode::GELU;
      out.node = load_GeluNode(present(fb->op_as_GeluNode(), "GeluNode"));
      break;
    case ::mlxd::ir::OpNode_LeakyReluNode:
      out.op = OpCode::LEAKY_RELU;
      out.node = load_LeakyReluNode(present(fb->op_as_LeakyReluNode(), "LeakyReluNode"));
      break;
    case ::mlxd::ir::OpNode_ClipNode:
      out.op = OpCode::CLIP;
      out.node = load_ClipNode(present(fb->op_as_ClipNode(), "ClipNode"));
      break;
    case ::mlxd::ir::OpNode_WhereNode:
      out.op = OpCode::WHERE;
      out.node = load_WhereNode(present(fb->op_as_WhereNode(), "WhereNode"));
      break;
    case ::mlxd::ir::OpNode_AsTypeNode:
      out.op = OpCode::AS_TYPE;
      out.node = load_AsTypeNode(present(fb->op_as_AsTypeNode(), "AsTypeNode"));
      break;
    case ::mlxd::ir::OpNode_CopyNode:
      out.op = OpCode::COPY;
      out.node = load_CopyNode(present(fb->op_as_CopyNode(), "CopyNode"));
      break;
    case ::mlxd::ir::OpNode_SumNode:
      out.op = OpCode::SUM;
      out.node = load_SumNode(present(fb->op_as_SumNode(), "SumNode"));
      break;
    case ::mlxd::ir::OpNode_MeanNode:
      out.op = OpCode::MEAN;
      out.node = load_MeanNode(present(fb->op_as_MeanNode(), "MeanNode"));
      break;
    case ::mlxd::ir::OpNode_MaxNode:
      out.op = OpCode::MAX;
      out.node = load_MaxNode(present(fb->op_as_MaxNode(), "MaxNode"));
      break;
    case ::mlxd::ir::OpNode_MinNode:
      out.op = OpCode::MIN;
      out.node = load_MinNode(present(fb->op_as_MinNode(), "MinNode"));
      break;
    case ::mlxd::ir::OpNode_ProdNode:
      out.op = OpCode::PROD;
      out.node = load_ProdNode(present(fb->op_as_ProdNode(), "ProdNode"));
      break;
    case ::mlxd::ir::OpNode_AnyNode:
      out.op = OpCode::ANY;
      out.node = load_AnyNode(present(fb->op_as_AnyNode(), "AnyNode"));
      break;
    case ::mlxd::ir::OpNode_AllNode:
      out.op = OpCode::ALL;
      out.node = load_AllNode(present(fb->op_as_AllNode(), "AllNode"));
      break;
    case ::mlxd::ir::OpNode_VarNode:
      out.op = OpCode::VAR;
      out.node = load_VarNode(present(fb->op_as_VarNode(), "VarNode"));
      break;
    case ::mlxd::ir::OpNode_StdNode:
      out.op = OpCode::STD;
      out.node = load_StdNode(present(fb->op_as_StdNode(), "StdNode"));
      break;
    case ::mlxd::ir::OpNode_ArgMaxNode:
      out.op = OpCode::ARG_MAX;
      out.node = load_ArgMaxNode(present(fb->op_as_ArgMaxNode(), "ArgMaxNode"));
      break;
    case ::mlxd::ir::OpNode_ArgMinNode:
      out.op = OpCode::ARG_MIN;
      out.node = load_ArgMinNode(present(fb->op_as_ArgMinNode(), "ArgMinNode"));
      break;
    case ::mlxd::ir::OpNode_CumSumNode:
      out.op = OpCode::CUM_SUM;
      out.node = load_CumSumNode(present(fb->op_as_CumSumNode(), "CumSumNode"));
      break;
    case ::mlxd::ir::OpNode_SoftmaxNode:
      out.op = OpCode::SOFTMAX;
      out.node = load_SoftmaxNode(present(fb->op_as_SoftmaxNode(), "SoftmaxNode"));
      break;
    case ::mlxd::ir::OpNode_LogSoftmaxNode:
      out.op = OpCode::LOG_SOFTMAX;
      out.node = load_LogSoftmaxNode(present(fb->op_as_LogSoftmaxNode(), "LogSoftmaxNode"));
      break;
    case ::mlxd::ir::OpNode_LinearNode:
      out.op = OpCode::LINEAR;
      out.node = load_LinearNode(present(fb->op_as_LinearNode(), "LinearNode"));
      break;
    case ::mlxd::ir::OpNode_AddmmNode:
      out.op = OpCode::ADDMM;
      out.node = load_AddmmNode(present(fb->op_as_AddmmNode(), "AddmmNode"));
      break;
    case ::mlxd::ir::OpNode_MatmulNode:
      out.op = OpCode::MATMUL;
      out.node = load_MatmulNode(present(fb->op_as_MatmulNode(), "MatmulNode"));
      break;
    case ::mlxd::ir::OpNode_LayerNormNode:
      out.op = OpCode::LAYER_NORM;
      out.node = load_LayerNormNode(present(fb->op_as_LayerNormNode(), "LayerNormNode"));
      break;
    case ::mlxd::ir::OpNode_RmsNormNode:
      out.op = OpCode::RMS_NORM;
      out.node = load_RmsNormNode(present(fb->op_as_RmsNormNode(), "RmsNormNode"));
      break;
    case ::mlxd::ir::OpNode_ConvNode:
      out.op = OpCode::CONV;
      out.node = load_ConvNode(present(fb->op_as_ConvNode(), "ConvNode"));
      break;
    case ::mlxd::ir::OpNode_ScaledDotProductAttentionNode:
      out.op = OpCode::SCALED_DOT_PRODUCT_ATTENTION;
      out.node = load_ScaledDotProductAttentionNode(
          present(fb->op_as_ScaledDotProductAttentionNode(), "ScaledDotProductAttentionNode"));
      break;
    case ::mlxd::ir::OpNode_ReshapeNode:
      out.op = OpCode::RESHAPE;
      out.node = load_ReshapeNode(present(fb->op_as_ReshapeNode(), "ReshapeNode"));
      break;
    case ::mlxd::ir::OpNode_TransposeNode:
      out.op = OpCode::TRANSPOSE;
      out.node = load_TransposeNode(present(fb->op_as_TransposeNode(), "TransposeNode"));
      break;
    case ::mlxd::ir::OpNode_ExpandDimsNode:
      out.op = OpCode::EXPAND_DIMS;
      out.node = load_ExpandDimsNode(present(fb->op_as_ExpandDimsNode(), "ExpandDimsNode"));
      break;
    case ::mlxd::ir::OpNode_SqueezeNode:
      out.op = OpCode::SQUEEZE;
      out.node = load_SqueezeNode(present(fb->op_as_SqueezeNode(), "SqueezeNode"));
      break;
    case ::mlxd::ir::OpNode_BroadcastToNode:
      out.op = OpCode::BROADCAST_TO;
      out.node = load_BroadcastToNode(present(fb->op_as_BroadcastToNode(), "BroadcastToNode"));
      break;
    case ::mlxd::ir::OpNode_SliceNode:
      out.op = OpCode::SLICE;
      out.node = load_SliceNode(present(fb->op_as_SliceNode(), "SliceNode"));
      break;
    case ::mlxd::ir::OpNode_SelectNode:
      out.op = OpCode::SELECT;
      out.node = load_SelectNode(present(fb->op_as_SelectNode(), "SelectNode"));
      break;
    case ::mlxd::ir::OpNode_ConcatenateNode:
      out.op = OpCode::CONCATENATE;
      out.node = load_ConcatenateNode(present(fb->op_as_ConcatenateNode(), "ConcatenateNode"));
      break;
    case ::mlxd::ir::OpNode_StackNode:
      out.op = OpCode::STACK;
      out.node = load_StackNode(present(fb->op_as_StackNode(), "StackNode"));
      break;
    case ::mlxd::ir::OpNode_SplitNode:
      out.op = OpCode::SPLIT;
      out.node = load_SplitNode(present(fb->op_as_SplitNode(), "SplitNode"));
      break;
    case ::mlxd::ir::OpNode_TileNode:
      out.op = OpCode::TILE;
      out.node = load_TileNode(present(fb->op_as_TileNode(), "TileNode"));
      break;
    case ::mlxd::ir::OpNode_FlipNode:
      out.op = OpCode::FLIP;
      out.node = load_FlipNode(present(fb->op_as_FlipNode(), "FlipNode"));
      break;
    case ::mlxd::ir::OpNode_PadNode:
      out.op = OpCode::PAD;
      out.node = load_PadNode(present(fb->op_as_PadNode(), "PadNode"));
      break;
    case ::mlxd::ir::OpNode_TrilNode:
      out.op = OpCode::TRIL;
      out.node = load_TrilNode(present(fb->op_as_TrilNode(), "TrilNode"));
      break;
    case ::mlxd::ir::OpNode_TriuNode:
      out.op = OpCode::TRIU;
      out.node = load_TriuNode(present(fb->op_as_TriuNode(), "TriuNode"));
      break;
    case ::mlxd::ir::OpNode_TakeNode:
      out.op = OpCode::TAKE;
      out.node = load_TakeNode(present(fb->op_as_TakeNode(), "TakeNode"));
      break;
    case ::mlxd::ir::OpNode_TakeAlongAxisNode:
      out.op = OpCode::TAKE_ALONG_AXIS;
      out.node =
          load_TakeAlongAxisNode(present(fb->op_as_TakeAlongAxisNode(), "TakeAlongAxisNode"));
      break;
    case ::mlxd::ir::OpNode_IndexNode:
      out.op = OpCode::INDEX;
      out.node = load_IndexNode(present(fb->op_as_IndexNode(), "IndexNode"));
      break;
    case ::mlxd::ir::OpNode_ScatterAddNode:
      out.op = OpCode::SCATTER_ADD;
      out.node = load_ScatterAddNode(present(fb->op_as_ScatterAddNode(), "ScatterAddNode"));
      break;
    case ::mlxd::ir::OpNode_SliceUpdateNode:
      out.op = OpCode::SLICE_UPDATE;
      out.node = load_SliceUpdateNode(present(fb->op_as_SliceUpdateNode(), "SliceUpdateNode"));
      break;
    case ::mlxd::ir::OpNode_ArangeNode:
      out.op = OpCode::ARANGE;
      out.node = load_ArangeNode(present(fb->op_as_ArangeNode(), "ArangeNode"));
      break;
    case ::mlxd::ir::OpNode_FullNode:
      out.op = OpCode::FULL;
      out.node = load_FullNode(present(fb->op_as_FullNode(), "FullNode"));
      break;
    case ::mlxd::ir::OpNode_FullLikeNode:
      out.op = OpCode::FULL_LIKE;
      out.node = load_FullLikeNode(present(fb->op_as_FullLikeNode(), "FullLikeNode"));
      break;
    case ::mlxd::ir::OpNode_SymSizeNode:
      out.op = OpCode::SYM_SIZE;
      out.node = load_SymSizeNode(present(fb->op_as_SymSizeNode(), "SymSizeNode"));
      break;
    case ::mlxd::ir::OpNode_ItemNode:
      out.op = OpCode::ITEM;
      out.node = load_ItemNode(present(fb->op_as_ItemNode(), "ItemNode"));
      break;
    case ::mlxd::ir::OpNode_IntBinaryNode:
      out.op = OpCode::INT_BINARY;
      out.node = load_IntBinaryNode(present(fb->op_as_IntBinaryNode(), "IntBinaryNode"));
      break;
    case ::mlxd::ir::OpNode_IndexPutNode:
      out.op = OpCode::INDEX_PUT;
      out.node = load_IndexPutNode(present(fb->op_as_IndexPutNode(), "IndexPutNode"));
      break;
    case ::mlxd::ir::OpNode_TanNode:
      out.op = OpCode::TAN;
      out.node = load_TanNode(present(fb->op_as_TanNode(), "TanNode"));
      break;
    case ::mlxd::ir::OpNode_SinhNode:
      out.op = OpCode::SINH;
      out.node = load_SinhNode(present(fb->op_as_SinhNode(), "SinhNode"));
      break;
    case ::mlxd::ir::OpNode_CoshNode:
      out.op = OpCode::COSH;
      out.node = load_CoshNode(present(fb->op_as_CoshNode(), "CoshNode"));
      break;
    case ::mlxd::ir::OpNode_ArcSinNode:
      out.op = OpCode::ARC_SIN;
      out.node = load_ArcSinNode(present(fb->op_as_ArcSinNode(), "ArcSinNode"));
      break;
    case ::mlxd::ir::OpNode_ArcCosNode:
      out.op = OpCode::ARC_COS;
      out.node = load_ArcCosNode(present(fb->op_as_ArcCosNode(), "ArcCosNode"));
      break;
    case ::mlxd::ir::OpNode_ArcTanNode:
      out.op = OpCode::ARC_TAN;
      out.node = load_ArcTanNode(present(fb->op_as_ArcTanNode(), "ArcTanNode"));
      break;
    case ::mlxd::ir::OpNode_ArcSinhNode:
      out.op = OpCode::ARC_SINH;
      out.node = load_ArcSinhNode(present(fb->op_as_ArcSinhNode(), "ArcSinhNode"));
      break;
    case ::mlxd::ir::OpNode_ArcCoshNode:
      out.op = OpCode::ARC_COSH;
      out.node = load_ArcCoshNode(present(fb->op_as_ArcCoshNode(), "ArcCoshNode"));
      break;
    case ::mlxd::ir::OpNode_ArcTanhNode:
      out.op = OpCode::ARC_TANH;
      out.node = load_ArcTanhNode(present(fb->op_as_ArcTanhNode(), "ArcTanhNode"));
      break;
    case ::mlxd::ir::OpNode_Log2Node:
      out.op = OpCode::LOG2;
      out.node = load_Log2Node(present(fb->op_as_Log2Node(), "Log2Node"));
      break;
    case ::mlxd::ir::OpNode_Log10Node:
      out.op = OpCode::LOG10;
      out.node = load_Log10Node(present(fb->op_as_Log10Node(), "Log10Node"));
      break;
    case ::mlxd::ir::OpNode_Log1pNode:
      out.op = OpCode::LOG1P;
      out.node = load_Log1pNode(present(fb->op_as_Log1pNode(), "Log1pNode"));
      break;
    case ::mlxd::ir::OpNode_Expm1Node:
      out.op = OpCode::EXPM1;
      out.node = load_Expm1Node(present(fb->op_as_Expm1Node(), "Expm1Node"));
      break;
    case ::mlxd::ir::OpNode_SignNode:
      out.op = OpCode::SIGN;
      out.node = load_SignNode(present(fb->op_as_SignNode(), "SignNode"));
      break;
    case ::mlxd::ir::OpNode_TruncNode:
      out.op = OpCode::TRUNC;
      out.node = load_TruncNode(present(fb->op_as_TruncNode(), "TruncNode"));
      break;
    case ::mlxd::ir::OpNode_SquareNode:
      out.op = OpCode::SQUARE;
      out.node = load_SquareNode(present(fb->op_as_SquareNode(), "SquareNode"));
      break;
    case ::mlxd::ir::OpNode_IsNanNode:
      out.op = OpCode::IS_NAN;
      out.node = load_IsNanNode(present(fb->op_as_IsNanNode(), "IsNanNode"));
      break;
    case ::mlxd::ir::OpNode_IsInfNode:
      out.op = OpCode::IS_INF;
      out.node = load_IsInfNode(present(fb->op_as_IsInfNode(), "IsInfNode"));
      break;
    case ::mlxd::ir::OpNode_BitwiseNotNode:
      out.op = OpCode::BITWISE_NOT;
      out.node = load_BitwiseNotNode(present(fb->op_as_BitwiseNotNode(), "BitwiseNotNode"));
      break;
    case ::mlxd::ir::OpNode_BitwiseAndNode:
      out.op = OpCode::BITWISE_AND;
      out.node = load_BitwiseAndNode(present(fb->op_as_BitwiseAndNode(), "BitwiseAndNode"));
      break;
    case ::mlxd::ir::OpNode_BitwiseOrNode:
      out.op = OpCode::BITWISE_OR;
      out.node = load_BitwiseOrNode(present(fb->op_as_BitwiseOrNode(), "BitwiseOrNode"));
      break;
    case ::mlxd::ir::OpNode_BitwiseXorNode:
      out.op = OpCode::BITWISE_XOR;
      out.node = load_BitwiseXorNode(present(fb->op_as_BitwiseXorNode(), "BitwiseXorNode"));
      break;
    case ::mlxd::ir::OpNode_ArcTan2Node:
      out.op = OpCode::ARC_TAN2;
      out.node = load_ArcTan2Node(present(fb->op_as_ArcTan2Node(), "ArcTan2Node"));
      break;
    case ::mlxd::ir::OpNode_LogAddExpNode:
      out.op = OpCode::LOG_ADD_EXP;
      out.node = load_LogAddExpNode(present(fb->op_as_LogAddExpNode(), "LogAddExpNode"));
      break;
    case ::mlxd::ir::OpNode_RemainderNode:
      out.op = OpCode::REMAINDER;
      out.node = load_RemainderNode(present(fb->op_as_RemainderNode(), "RemainderNode"));
      break;
    case ::mlxd::ir::OpNode_LogSumExpNode:
      out.op = OpCode::LOG_SUM_EXP;
      out.node = load_LogSumExpNode(present(fb->op_as_LogSumExpNode(), "LogSumExpNode"));
      break;
    case ::mlxd::ir::OpNode_CumProdNode:
      out.op = OpCode::CUM_PROD;
      out.node = load_CumProdNode(present(fb->op_as_CumProdNode(), "CumProdNode"));
      break;
    case ::mlxd::ir::OpNode_SortNode:
      out.op = OpCode::SORT;
      out.node = load_SortNode(present(fb->op_as_SortNode(), "SortNode"));
      break;
    case ::mlxd::ir::OpNode_RollNode:
      out.op = OpCode::ROLL;
      out.node = load_RollNode(present(fb->op_as_RollNode(), "RollNode"));
      break;
    case ::mlxd::ir::OpNode_PoolNode:
      out.op = OpCode::POOL;
      out.node = load_PoolNode(present(fb->op_as_PoolNode(), "PoolNode"));
      break;
    case ::mlxd::ir::OpNode_UpsampleNode:
      out.op = OpCode::UPSAMPLE;
      out.node = load_UpsampleNode(present(fb->op_as_UpsampleNode(), "UpsampleNode"));
      break;
    case ::mlxd::ir::OpNode_LogicalXorNode:
      out.op = OpCode::LOGICAL_XOR;
      out.node = load_LogicalXorNode(present(fb->op_as_LogicalXorNode(), "LogicalXorNode"));
      break;
    case ::mlxd::ir::OpNode_CondNode:
      out.op = OpCode::COND;
      out.node = load_CondNode(present(fb->op_as_CondNode(), "CondNode"));
      break;
    case ::mlxd::ir::OpNode_WhileNode:
      out.op = OpCode::WHILE;
      out.node = load_WhileNode(present(fb->op_as_WhileNode(), "WhileNode"));
      break;
    case ::mlxd::ir::OpNode_IsPosInfNode:
      out.op = OpCode::IS_POS_INF;
      out.node = load_IsPosInfNode(present(fb->op_as_IsPosInfNode(), "IsPosInfNode"));
      break;
    case ::mlxd::ir::OpNode_IsNegInfNode:
      out.op = OpCode::IS_NEG_INF;
      out.node = load_IsNegInfNode(present(fb->op_as_IsNegInfNode(), "IsNegInfNode"));
      break;
    case ::mlxd::ir::OpNode_QuantizedLinearNode:
      out.op = OpCode::QUANTIZED_LINEAR;
      out.node =
          load_QuantizedLinearNode(present(fb->op_as_QuantizedLinearNode(), "QuantizedLinearNode"));
      break;
    case ::mlxd::ir::OpNode_DequantizeNode:
      out.op = OpCode::DEQUANTIZE;
      out.node = load_DequantizeNode(present(fb->op_as_DequantizeNode(), "DequantizeNode"));
      break;
    case ::mlxd::ir::OpNode_RopeNode:
      out.op = OpCode::ROPE;
      out.node = load_RopeNode(present(fb->op_as_RopeNode(), "RopeNode"));
      break;
    case ::mlxd::ir::OpNode_GatherMMNode:
      out.op = OpCode::GATHER_MM;
      out.node = load_GatherMMNode(present(fb->op_as_GatherMMNode(), "GatherMMNode"));
      break;
    case ::mlxd::ir::OpNode_GatherQMMNode:
      out.op = OpCode::GATHER_QMM;
      out.node = load_GatherQMMNode(present(fb->op_as_GatherQMMNode(), "GatherQMMNode"));
      break;
    case ::mlxd::ir::OpNode_ScatterNode:
      out.op = OpCode::SCATTER;
      out.node = load_ScatterNode(present(fb->op_as_ScatterNode(), "ScatterNode"));
      break;
    case ::mlxd::ir::OpNode_SampleNode:
      out.op = OpCode::SAMPLE;
      out.node = load_SampleNode(present(fb->op_as_SampleNode(), "SampleNode"));
      break;
    case ::mlxd::ir::OpNode_AllSumNode:
      out.op = OpCode::ALL_SUM;
      out.node = load_AllSumNode(present(fb->op_as_AllSumNode(), "AllSumNode"));
      break;
    case ::mlxd::ir::OpNode_AllGatherNode:
      out.op = OpCode::ALL_GATHER;
      out.node = load_AllGatherNode(present(fb->op_as_AllGatherNode(), "AllGatherNode"));
      break;
    default:
      throw LoadError("instruction holds op code " +
                      std::to_string(static_cast<unsigned>(fb->op_type())) +
                      ", which this runtime does not know (written by a newer compiler?)");
  }
  return out;
}

InstructionChain load_InstructionChain(const ::mlxd::ir::InstructionChain* fb) {
  InstructionChain out;
  if (const auto* values = fb->instructions()) {
    out.instructions.reserve(values->size());
    for (auto e : *values) out.instructions.push_back(load_Instruction(e));
  }
  return out;
}

RunAhead load_RunAhead(const ::mlxd::ir::RunAhead* fb) {
  RunAhead out;
  if (const auto* values = fb->fed_inputs()) {
    out.fed_inputs.reserve(values->size());
    for (auto e : *values) out.fed_inputs.push_back(e);
  }
  if (const auto* values = fb->fed_from_outputs()) {
    out.fed_from_outputs.reserve(values->size());
    for (auto e : *values) out.fed_from_outputs.push_back(e);
  }
  if (const auto* values = fb->advanced_inputs()) {
    out.advanced_inputs.reserve(values->size());
    for (auto e : *values) out.advanced_inputs.push_back(e);
  }
  return out;
}

MLXGraph load_MLXGraph(const ::mlxd::ir::MLXGraph* fb) {
  MLXGraph out;
  out.version = fb->version();
  out.num_constant_tensors = fb->num_constant_tensors();
  out.num_input_tensors = fb->num_input_tensors();
  out.num_output_tensors = fb->num_output_tensors();
  out.num_mutable_buffer_tensors = fb->num_mutable_buffer_tensors();
  out.num_temp_tensors = fb->num_temp_tensors();
  out.num_values = fb->num_values();
  if (const auto* values = fb->instruction_chains()) {
    out.instruction_chains.reserve(values->size());
    for (auto e : *values) out.instruction_chains.push_back(load_InstructionChain(e));
  }
  out.main_chain = fb->main_chain();
  out.init_chain = fb->init_chain();
  if (const auto* values = fb->input_map()) {
    out.input_map.reserve(values->size());
    for (auto e : *values) out.input_map.push_back(load_SlotRef(*e));
  }
  if (const auto* values = fb->output_map()) {
    out.output_map.reserve(values->size());
    for (auto e : *values) out.output_map.push_back(load_SlotRef(*e));
  }
  if (const auto* values = fb->mutable_buffer_map()) {
    out.mutable_buffer_map.reserve(values->size());
    for (auto e : *values) out.mutable_buffer_map.push_back(load_SlotRef(*e));
  }
  if (const auto* values = fb->named_slots()) {
    out.named_slots.reserve(values->size());
    for (auto e : *values) out.named_slots.push_back(load_NamedSlot(e));
  }
  if (const auto* values = fb->tensor_meta()) {
    out.tensor_meta.reserve(values->size());
    for (auto e : *values) out.tensor_meta.push_back(load_TensorMeta(e));
  }
  out.compile_chains = fb->compile_chains();
  if (const auto* value = fb->run_ahead()) out.run_ahead = load_RunAhead(value);
  return out;
}

}  // namespace

// ---- JSON: the records; everything else in json_writer.h ----

static void write_json(std::string& out, const Tid& value);
static void write_json(std::string& out, const Vid& value);
static void write_json(std::string& out, const IntOrVid& value);
static void write_json(std::string& out, const FloatOrVid& value);
static void write_json(std::string& out, const TidOrVid& value);
static void write_json(std::string& out, const SlotRef& value);
static void write_json(std::string& out, const TensorMeta& value);
static void write_json(std::string& out, const NamedSlot& value);
static void write_json(std::string& out, const AddNode& value);
static void write_json(std::string& out, const SubtractNode& value);
static void write_json(std::string& out, const MultiplyNode& value);
static void write_json(std::string& out, const DivideNode& value);
static void write_json(std::string& out, const PowerNode& value);
static void write_json(std::string& out, const MaximumNode& value);
static void write_json(std::string& out, const MinimumNode& value);
static void write_json(std::string& out, const EqualNode& value);
static void write_json(std::string& out, const NotEqualNode& value);
static void write_json(std::string& out, const LessNode& value);
static void write_json(std::string& out, const LessEqualNode& value);
static void write_json(std::string& out, const GreaterNode& value);
static void write_json(std::string& out, const GreaterEqualNode& value);
static void write_json(std::string& out, const LogicalAndNode& value);
static void write_json(std::string& out, const LogicalOrNode& value);
static void write_json(std::string& out, const NegNode& value);
static void write_json(std::string& out, const AbsNode& value);
static void write_json(std::string& out, const ExpNode& value);
static void write_json(std::string& out, const LogNode& value);
static void write_json(std::string& out, const SqrtNode& value);
static void write_json(std::string& out, const RsqrtNode& value);
static void write_json(std::string& out, const SinNode& value);
static void write_json(std::string& out, const CosNode& value);
static void write_json(std::string& out, const TanhNode& value);
static void write_json(std::string& out, const SigmoidNode& value);
static void write_json(std::string& out, const ErfNode& value);
static void write_json(std::string& out, const FloorNode& value);
static void write_json(std::string& out, const CeilNode& value);
static void write_json(std::string& out, const RoundNode& value);
static void write_json(std::string& out, const ReciprocalNode& value);
static void write_json(std::string& out, const LogicalNotNode& value);
static void write_json(std::string& out, const ReluNode& value);
static void write_json(std::string& out, const SiluNode& value);
static void write_json(std::string& out, const GeluNode& value);
static void write_json(std::string& out, const LeakyReluNode& value);
static void write_json(std::string& out, const ClipNode& value);
static void write_json(std::string& out, const WhereNode& value);
static void write_json(std::string& out, const AsTypeNode& value);
static void write_json(std::string& out, const CopyNode& value);
static void write_json(std::string& out, const SumNode& value);
static void write_json(std::string& out, const MeanNode& value);
static void write_json(std::string& out, const MaxNode& value);
static void write_json(std::string& out, const MinNode& value);
static void write_json(std::string& out, const ProdNode& value);
static void write_json(std::string& out, const AnyNode& value);
static void write_json(std::string& out, const AllNode& value);
static void write_json(std::string& out, const VarNode& value);
static void write_json(std::string& out, const StdNode& value);
static void write_json(std::string& out, const ArgMaxNode& value);
static void write_json(std::string& out, const ArgMinNode& value);
static void write_json(std::string& out, const CumSumNode& value);
static void write_json(std::string& out, const SoftmaxNode& value);
static void write_json(std::string& out, const LogSoftmaxNode& value);
static void write_json(std::string& out, const LinearNode& value);
static void write_json(std::string& out, const AddmmNode& value);
static void write_json(std::string& out, const MatmulNode& value);
static void write_json(std::string& out, const QuantizedLinearNode& value);
static void write_json(std::string& out, const DequantizeNode& value);
static void write_json(std::string& out, const GatherMMNode& value);
static void write_json(std::string& out, const GatherQMMNode& value);
static void write_json(std::string& out, const LayerNormNode& value);
static void write_json(std::string& out, const RmsNormNode& value);
static void write_json(std::string& out, const ConvNode& value);
static void write_json(std::string& out, const ScaledDotProductAttentionNode& value);
static void write_json(std::string& out, const RopeNode& value);
static void write_json(std::string& out, const ReshapeNode& value);
static void write_json(std::string& out, const TransposeNode& value);
static void write_json(std::string& out, const ExpandDimsNode& value);
static void write_json(std::string& out, const SqueezeNode& value);
static void write_json(std::string& out, const BroadcastToNode& value);
static void write_json(std::string& out, const SliceNode& value);
static void write_json(std::string& out, const SelectNode& value);
static void write_json(std::string& out, const ConcatenateNode& value);
static void write_json(std::string& out, const StackNode& value);
static void write_json(std::string& out, const SplitNode& value);
static void write_json(std::string& out, const TileNode& value);
static void write_json(std::string& out, const FlipNode& value);
static void write_json(std::string& out, const PadNode& value);
static void write_json(std::string& out, const TrilNode& value);
static void write_json(std::string& out, const TriuNode& value);
static void write_json(std::string& out, const TakeNode& value);
static void write_json(std::string& out, const TakeAlongAxisNode& value);
static void write_json(std::string& out, const IndexNode& value);
static void write_json(std::string& out, const ScatterNode& value);
static void write_json(std::string& out, const ScatterAddNode& value);
static void write_json(std::string& out, const SliceUpdateNode& value);
static void write_json(std::string& out, const ArangeNode& value);
static void write_json(std::string& out, const FullNode& value);
static void write_json(std::string& out, const FullLikeNode& value);
static void write_json(std::string& out, const SymSizeNode& value);
static void write_json(std::string& out, const ItemNode& value);
static void write_json(std::string& out, const IntBinaryNode& value);
static void write_json(std::string& out, const IndexPutNode& value);
static void write_json(std::string& out, const TanNode& value);
static void write_json(std::string& out, const SinhNode& value);
static void write_json(std::string& out, const CoshNode& value);
static void write_json(std::string& out, const ArcSinNode& value);
static void write_json(std::string& out, const ArcCosNode& value);
static void write_json(std::string& out, const ArcTanNode& value);
static void write_json(std::string& out, const ArcSinhNode& value);
static void write_json(std::string& out, const ArcCoshNode& value);
static void write_json(std::string& out, const ArcTanhNode& value);
static void write_json(std::string& out, const Log2Node& value);
static void write_json(std::string& out, const Log10Node& value);
static void write_json(std::string& out, const Log1pNode& value);
static void write_json(std::string& out, const Expm1Node& value);
static void write_json(std::string& out, const SignNode& value);
static void write_json(std::string& out, const TruncNode& value);
static void write_json(std::string& out, const SquareNode& value);
static void write_json(std::string& out, const IsNanNode& value);
static void write_json(std::string& out, const IsInfNode& value);
static void write_json(std::string& out, const IsPosInfNode& value);
static void write_json(std::string& out, const IsNegInfNode& value);
static void write_json(std::string& out, const BitwiseNotNode& value);
static void write_json(std::string& out, const BitwiseAndNode& value);
static void write_json(std::string& out, const BitwiseOrNode& value);
static void write_json(std::string& out, const BitwiseXorNode& value);
static void write_json(std::string& out, const ArcTan2Node& value);
static void write_json(std::string& out, const LogAddExpNode& value);
static void write_json(std::string& out, const RemainderNode& value);
static void write_json(std::string& out, const LogSumExpNode& value);
static void write_json(std::string& out, const CumProdNode& value);
static void write_json(std::string& out, const SortNode& value);
static void write_json(std::string& out, const RollNode& value);
static void write_json(std::string& out, const PoolNode& value);
static void write_json(std::string& out, const UpsampleNode& value);
static void write_json(std::string& out, const LogicalXorNode& value);
static void write_json(std::string& out, const CondNode& value);
static void write_json(std::string& out, const WhileNode& value);
static void write_json(std::string& out, const SampleNode& value);
static void write_json(std::string& out, const AllSumNode& value);
static void write_json(std::string& out, const AllGatherNode& value);
static void write_json(std::string& out, const Instruction& value);
static void write_json(std::string& out, const InstructionChain& value);
static void write_json(std::string& out, const RunAhead& value);
static void write_json(std::string& out, const MLXGraph& value);

static void write_json(std::string& out, const Tid& value) {
  out += '{';
  out += "\"idx\":";
  write_json(out, value.idx);
  out += '}';
}

static void write_json(std::string& out, const Vid& value) {
  out += '{';
  out += "\"idx\":";
  write_json(out, value.idx);
  out += '}';
}

static void write_json(std::string& out, const IntOrVid& value) {
  out += '{';
  out += "\"literal\":";
  write_json(out, value.literal);
  out += ",\"vid\":";
  write_json(out, value.vid);
  out += '}';
}

static void write_json(std::string& out, const FloatOrVid& value) {
  out += '{';
  out += "\"literal\":";
  write_json(out, value.literal);
  out += ",\"vid\":";
  write_json(out, value.vid);
  out += '}';
}

static void write_json(std::string& out, const TidOrVid& value) {
  out += '{';
  out += "\"tid\":";
  write_json(out, value.tid);
  out += ",\"vid\":";
  write_json(out, value.vid);
  out += '}';
}

static void write_json(std::string& out, const SlotRef& value) {
  out += '{';
  out += "\"kind\":";
  write_json(out, value.kind);
  out += ",\"idx\":";
  write_json(out, value.idx);
  out += '}';
}

static void write_json(std::string& out, const TensorMeta& value) {
  out += '{';
  out += "\"shape\":";
  write_json(out, value.shape);
  out += ",\"dtype\":";
  write_json(out, value.dtype);
  out += '}';
}

static void write_json(std::string& out, const NamedSlot& value) {
  out += '{';
  out += "\"name\":";
  write_json(out, value.name);
  out += ",\"slot\":";
  write_json(out, value.slot);
  out += '}';
}

static void write_json(std::string& out, const AddNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const SubtractNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const MultiplyNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const DivideNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"rounding\":";
  write_json(out, value.rounding);
  out += '}';
}

static void write_json(std::string& out, const PowerNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const MaximumNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const MinimumNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const EqualNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const NotEqualNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const LessNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const LessEqualNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const GreaterNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const GreaterEqualNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const LogicalAndNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const LogicalOrNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const NegNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const AbsNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ExpNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const LogNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const SqrtNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const RsqrtNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const SinNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const CosNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const TanhNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const SigmoidNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ErfNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const FloorNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const CeilNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const RoundNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"decimals\":";
  write_json(out, value.decimals);
  out += '}';
}

static void write_json(std::string& out, const ReciprocalNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const LogicalNotNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ReluNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const SiluNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const GeluNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"approximation\":";
  write_json(out, value.approximation);
  out += '}';
}

static void write_json(std::string& out, const LeakyReluNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"negative_slope\":";
  write_json(out, value.negative_slope);
  out += '}';
}

static void write_json(std::string& out, const ClipNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"min\":";
  write_json(out, value.min);
  out += ",\"max\":";
  write_json(out, value.max);
  out += '}';
}

static void write_json(std::string& out, const WhereNode& value) {
  out += '{';
  out += "\"condition\":";
  write_json(out, value.condition);
  out += ",\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const AsTypeNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"dtype\":";
  write_json(out, value.dtype);
  out += '}';
}

static void write_json(std::string& out, const CopyNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const SumNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += '}';
}

static void write_json(std::string& out, const MeanNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += '}';
}

static void write_json(std::string& out, const MaxNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += '}';
}

static void write_json(std::string& out, const MinNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += '}';
}

static void write_json(std::string& out, const ProdNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += '}';
}

static void write_json(std::string& out, const AnyNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += '}';
}

static void write_json(std::string& out, const AllNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += '}';
}

static void write_json(std::string& out, const VarNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += ",\"ddof\":";
  write_json(out, value.ddof);
  out += '}';
}

static void write_json(std::string& out, const StdNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += ",\"ddof\":";
  write_json(out, value.ddof);
  out += '}';
}

static void write_json(std::string& out, const ArgMaxNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += '}';
}

static void write_json(std::string& out, const ArgMinNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += '}';
}

static void write_json(std::string& out, const CumSumNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += ",\"reverse\":";
  write_json(out, value.reverse);
  out += '}';
}

static void write_json(std::string& out, const SoftmaxNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += '}';
}

static void write_json(std::string& out, const LogSoftmaxNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += '}';
}

static void write_json(std::string& out, const LinearNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"weight\":";
  write_json(out, value.weight);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"bias\":";
  write_json(out, value.bias);
  out += '}';
}

static void write_json(std::string& out, const AddmmNode& value) {
  out += '{';
  out += "\"bias\":";
  write_json(out, value.bias);
  out += ",\"mat1\":";
  write_json(out, value.mat1);
  out += ",\"mat2\":";
  write_json(out, value.mat2);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"alpha\":";
  write_json(out, value.alpha);
  out += ",\"beta\":";
  write_json(out, value.beta);
  out += '}';
}

static void write_json(std::string& out, const MatmulNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const QuantizedLinearNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"w\":";
  write_json(out, value.w);
  out += ",\"scales\":";
  write_json(out, value.scales);
  out += ",\"biases\":";
  write_json(out, value.biases);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"bias\":";
  write_json(out, value.bias);
  out += ",\"group_size\":";
  write_json(out, value.group_size);
  out += ",\"bits\":";
  write_json(out, value.bits);
  out += ",\"mode\":";
  write_json(out, value.mode);
  out += ",\"tensor_scale\":";
  write_json(out, value.tensor_scale);
  out += ",\"transpose\":";
  write_json(out, value.transpose);
  out += '}';
}

static void write_json(std::string& out, const DequantizeNode& value) {
  out += '{';
  out += "\"w\":";
  write_json(out, value.w);
  out += ",\"scales\":";
  write_json(out, value.scales);
  out += ",\"biases\":";
  write_json(out, value.biases);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"group_size\":";
  write_json(out, value.group_size);
  out += ",\"bits\":";
  write_json(out, value.bits);
  out += ",\"mode\":";
  write_json(out, value.mode);
  out += ",\"tensor_scale\":";
  write_json(out, value.tensor_scale);
  out += '}';
}

static void write_json(std::string& out, const GatherMMNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"lhs_indices\":";
  write_json(out, value.lhs_indices);
  out += ",\"rhs_indices\":";
  write_json(out, value.rhs_indices);
  out += ",\"sorted_indices\":";
  write_json(out, value.sorted_indices);
  out += '}';
}

static void write_json(std::string& out, const GatherQMMNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"w\":";
  write_json(out, value.w);
  out += ",\"scales\":";
  write_json(out, value.scales);
  out += ",\"biases\":";
  write_json(out, value.biases);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"lhs_indices\":";
  write_json(out, value.lhs_indices);
  out += ",\"rhs_indices\":";
  write_json(out, value.rhs_indices);
  out += ",\"transpose\":";
  write_json(out, value.transpose);
  out += ",\"group_size\":";
  write_json(out, value.group_size);
  out += ",\"bits\":";
  write_json(out, value.bits);
  out += ",\"sorted_indices\":";
  write_json(out, value.sorted_indices);
  out += ",\"mode\":";
  write_json(out, value.mode);
  out += '}';
}

static void write_json(std::string& out, const LayerNormNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"weight\":";
  write_json(out, value.weight);
  out += ",\"bias\":";
  write_json(out, value.bias);
  out += ",\"eps\":";
  write_json(out, value.eps);
  out += ",\"num_axes\":";
  write_json(out, value.num_axes);
  out += ",\"mean_out\":";
  write_json(out, value.mean_out);
  out += ",\"rstd_out\":";
  write_json(out, value.rstd_out);
  out += '}';
}

static void write_json(std::string& out, const RmsNormNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"weight\":";
  write_json(out, value.weight);
  out += ",\"eps\":";
  write_json(out, value.eps);
  out += '}';
}

static void write_json(std::string& out, const ConvNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"weight\":";
  write_json(out, value.weight);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"bias\":";
  write_json(out, value.bias);
  out += ",\"stride\":";
  write_json(out, value.stride);
  out += ",\"padding\":";
  write_json(out, value.padding);
  out += ",\"dilation\":";
  write_json(out, value.dilation);
  out += ",\"groups\":";
  write_json(out, value.groups);
  out += ",\"transposed\":";
  write_json(out, value.transposed);
  out += ",\"output_padding\":";
  write_json(out, value.output_padding);
  out += '}';
}

static void write_json(std::string& out, const ScaledDotProductAttentionNode& value) {
  out += '{';
  out += "\"q\":";
  write_json(out, value.q);
  out += ",\"k\":";
  write_json(out, value.k);
  out += ",\"v\":";
  write_json(out, value.v);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"mask\":";
  write_json(out, value.mask);
  out += ",\"scale\":";
  write_json(out, value.scale);
  out += ",\"causal\":";
  write_json(out, value.causal);
  out += ",\"lower_right\":";
  write_json(out, value.lower_right);
  out += '}';
}

static void write_json(std::string& out, const RopeNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"dims\":";
  write_json(out, value.dims);
  out += ",\"traditional\":";
  write_json(out, value.traditional);
  out += ",\"base\":";
  write_json(out, value.base);
  out += ",\"scale\":";
  write_json(out, value.scale);
  out += ",\"offset\":";
  write_json(out, value.offset);
  out += ",\"freqs\":";
  write_json(out, value.freqs);
  out += '}';
}

static void write_json(std::string& out, const ReshapeNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"shape\":";
  write_json(out, value.shape);
  out += '}';
}

static void write_json(std::string& out, const TransposeNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"perm\":";
  write_json(out, value.perm);
  out += '}';
}

static void write_json(std::string& out, const ExpandDimsNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += '}';
}

static void write_json(std::string& out, const SqueezeNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += '}';
}

static void write_json(std::string& out, const BroadcastToNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"shape\":";
  write_json(out, value.shape);
  out += '}';
}

static void write_json(std::string& out, const SliceNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += ",\"start\":";
  write_json(out, value.start);
  out += ",\"stop\":";
  write_json(out, value.stop);
  out += ",\"step\":";
  write_json(out, value.step);
  out += '}';
}

static void write_json(std::string& out, const SelectNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += ",\"index\":";
  write_json(out, value.index);
  out += '}';
}

static void write_json(std::string& out, const ConcatenateNode& value) {
  out += '{';
  out += "\"inputs\":";
  write_json(out, value.inputs);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += '}';
}

static void write_json(std::string& out, const StackNode& value) {
  out += '{';
  out += "\"inputs\":";
  write_json(out, value.inputs);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += '}';
}

static void write_json(std::string& out, const SplitNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"outs\":";
  write_json(out, value.outs);
  out += ",\"sizes\":";
  write_json(out, value.sizes);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += '}';
}

static void write_json(std::string& out, const TileNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"reps\":";
  write_json(out, value.reps);
  out += '}';
}

static void write_json(std::string& out, const FlipNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += '}';
}

static void write_json(std::string& out, const PadNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"pad\":";
  write_json(out, value.pad);
  out += ",\"value\":";
  write_json(out, value.value);
  out += '}';
}

static void write_json(std::string& out, const TrilNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"k\":";
  write_json(out, value.k);
  out += '}';
}

static void write_json(std::string& out, const TriuNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"k\":";
  write_json(out, value.k);
  out += '}';
}

static void write_json(std::string& out, const TakeNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"indices\":";
  write_json(out, value.indices);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += '}';
}

static void write_json(std::string& out, const TakeAlongAxisNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"indices\":";
  write_json(out, value.indices);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += '}';
}

static void write_json(std::string& out, const IndexNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"indices\":";
  write_json(out, value.indices);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ScatterNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"indices\":";
  write_json(out, value.indices);
  out += ",\"updates\":";
  write_json(out, value.updates);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += '}';
}

static void write_json(std::string& out, const ScatterAddNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"indices\":";
  write_json(out, value.indices);
  out += ",\"updates\":";
  write_json(out, value.updates);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += '}';
}

static void write_json(std::string& out, const SliceUpdateNode& value) {
  out += '{';
  out += "\"target\":";
  write_json(out, value.target);
  out += ",\"update\":";
  write_json(out, value.update);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += ",\"start\":";
  write_json(out, value.start);
  out += '}';
}

static void write_json(std::string& out, const ArangeNode& value) {
  out += '{';
  out += "\"out\":";
  write_json(out, value.out);
  out += ",\"start\":";
  write_json(out, value.start);
  out += ",\"stop\":";
  write_json(out, value.stop);
  out += ",\"step\":";
  write_json(out, value.step);
  out += ",\"dtype\":";
  write_json(out, value.dtype);
  out += '}';
}

static void write_json(std::string& out, const FullNode& value) {
  out += '{';
  out += "\"out\":";
  write_json(out, value.out);
  out += ",\"shape\":";
  write_json(out, value.shape);
  out += ",\"value\":";
  write_json(out, value.value);
  out += ",\"dtype\":";
  write_json(out, value.dtype);
  out += '}';
}

static void write_json(std::string& out, const FullLikeNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"value\":";
  write_json(out, value.value);
  out += ",\"dtype\":";
  write_json(out, value.dtype);
  out += '}';
}

static void write_json(std::string& out, const SymSizeNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"dim\":";
  write_json(out, value.dim);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ItemNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const IntBinaryNode& value) {
  out += '{';
  out += "\"op\":";
  write_json(out, value.op);
  out += ",\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const IndexPutNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"indices\":";
  write_json(out, value.indices);
  out += ",\"values\":";
  write_json(out, value.values);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += '}';
}

static void write_json(std::string& out, const TanNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const SinhNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const CoshNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ArcSinNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ArcCosNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ArcTanNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ArcSinhNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ArcCoshNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ArcTanhNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const Log2Node& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const Log10Node& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const Log1pNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const Expm1Node& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const SignNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const TruncNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const SquareNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const IsNanNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const IsInfNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const IsPosInfNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const IsNegInfNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const BitwiseNotNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const BitwiseAndNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const BitwiseOrNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const BitwiseXorNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const ArcTan2Node& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const LogAddExpNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const RemainderNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const LogSumExpNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += ",\"keepdims\":";
  write_json(out, value.keepdims);
  out += '}';
}

static void write_json(std::string& out, const CumProdNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += ",\"reverse\":";
  write_json(out, value.reverse);
  out += '}';
}

static void write_json(std::string& out, const SortNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"values_out\":";
  write_json(out, value.values_out);
  out += ",\"indices_out\":";
  write_json(out, value.indices_out);
  out += ",\"axis\":";
  write_json(out, value.axis);
  out += ",\"descending\":";
  write_json(out, value.descending);
  out += '}';
}

static void write_json(std::string& out, const RollNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"shifts\":";
  write_json(out, value.shifts);
  out += ",\"axes\":";
  write_json(out, value.axes);
  out += '}';
}

static void write_json(std::string& out, const PoolNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"indices_out\":";
  write_json(out, value.indices_out);
  out += ",\"kind\":";
  write_json(out, value.kind);
  out += ",\"kernel\":";
  write_json(out, value.kernel);
  out += ",\"stride\":";
  write_json(out, value.stride);
  out += ",\"padding\":";
  write_json(out, value.padding);
  out += ",\"dilation\":";
  write_json(out, value.dilation);
  out += ",\"ceil_mode\":";
  write_json(out, value.ceil_mode);
  out += ",\"count_include_pad\":";
  write_json(out, value.count_include_pad);
  out += ",\"divisor_override\":";
  write_json(out, value.divisor_override);
  out += '}';
}

static void write_json(std::string& out, const UpsampleNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"out\":";
  write_json(out, value.out);
  out += ",\"mode\":";
  write_json(out, value.mode);
  out += ",\"align_corners\":";
  write_json(out, value.align_corners);
  out += ",\"out_size\":";
  write_json(out, value.out_size);
  out += ",\"scales\":";
  write_json(out, value.scales);
  out += '}';
}

static void write_json(std::string& out, const LogicalXorNode& value) {
  out += '{';
  out += "\"a\":";
  write_json(out, value.a);
  out += ",\"b\":";
  write_json(out, value.b);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const CondNode& value) {
  out += '{';
  out += "\"pred\":";
  write_json(out, value.pred);
  out += ",\"then_chain\":";
  write_json(out, value.then_chain);
  out += ",\"else_chain\":";
  write_json(out, value.else_chain);
  out += ",\"operands\":";
  write_json(out, value.operands);
  out += ",\"outs\":";
  write_json(out, value.outs);
  out += '}';
}

static void write_json(std::string& out, const WhileNode& value) {
  out += '{';
  out += "\"inits\":";
  write_json(out, value.inits);
  out += ",\"outs\":";
  write_json(out, value.outs);
  out += ",\"cond_chain\":";
  write_json(out, value.cond_chain);
  out += ",\"body_chain\":";
  write_json(out, value.body_chain);
  out += ",\"pred_out\":";
  write_json(out, value.pred_out);
  out += ",\"operands\":";
  write_json(out, value.operands);
  out += '}';
}

static void write_json(std::string& out, const SampleNode& value) {
  out += '{';
  out += "\"logits\":";
  write_json(out, value.logits);
  out += ",\"temperature\":";
  write_json(out, value.temperature);
  out += ",\"top_p\":";
  write_json(out, value.top_p);
  out += ",\"uniform\":";
  write_json(out, value.uniform);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const AllSumNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"group_size\":";
  write_json(out, value.group_size);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const AllGatherNode& value) {
  out += '{';
  out += "\"x\":";
  write_json(out, value.x);
  out += ",\"group_size\":";
  write_json(out, value.group_size);
  out += ",\"out\":";
  write_json(out, value.out);
  out += '}';
}

static void write_json(std::string& out, const Instruction& value) {
  out += '{';
  out += "\"op\":\"";
  out += op_name(value.op);
  out += "\",\"node\":";
  write_json(out, value.node);
  out += '}';
}

static void write_json(std::string& out, const InstructionChain& value) {
  out += '{';
  out += "\"instructions\":";
  write_json(out, value.instructions);
  out += '}';
}

static void write_json(std::string& out, const RunAhead& value) {
  out += '{';
  out += "\"fed_inputs\":";
  write_json(out, value.fed_inputs);
  out += ",\"fed_from_outputs\":";
  write_json(out, value.fed_from_outputs);
  out += ",\"advanced_inputs\":";
  write_json(out, value.advanced_inputs);
  out += '}';
}

static void write_json(std::string& out, const MLXGraph& value) {
  out += '{';
  out += "\"version\":";
  write_json(out, value.version);
  out += ",\"num_constant_tensors\":";
  write_json(out, value.num_constant_tensors);
  out += ",\"num_input_tensors\":";
  write_json(out, value.num_input_tensors);
  out += ",\"num_output_tensors\":";
  write_json(out, value.num_output_tensors);
  out += ",\"num_mutable_buffer_tensors\":";
  write_json(out, value.num_mutable_buffer_tensors);
  out += ",\"num_temp_tensors\":";
  write_json(out, value.num_temp_tensors);
  out += ",\"num_values\":";
  write_json(out, value.num_values);
  out += ",\"instruction_chains\":";
  write_json(out, value.instruction_chains);
  out += ",\"main_chain\":";
  write_json(out, value.main_chain);
  out += ",\"init_chain\":";
  write_json(out, value.init_chain);
  out += ",\"input_map\":";
  write_json(out, value.input_map);
  out += ",\"output_map\":";
  write_json(out, value.output_map);
  out += ",\"mutable_buffer_map\":";
  write_json(out, value.mutable_buffer_map);
  out += ",\"named_slots\":";
  write_json(out, value.named_slots);
  out += ",\"tensor_meta\":";
  write_json(out, value.tensor_meta);
  out += ",\"compile_chains\":";
  write_json(out, value.compile_chains);
  out += ",\"run_ahead\":";
  write_json(out, value.run_ahead);
  out += '}';
}

std::string to_json(const MLXGraph& program) {
  std::string out;
  write_json(out, program);
  return out;
}

MLXGraph load_program(const uint8_t* data, size_t size) {
  if (data == nullptr || size == 0) throw LoadError("program buffer is empty");
  flatbuffers::Verifier verifier(data, size);
  if (!::mlxd::ir::VerifyMLXGraphBuffer(verifier)) {
    throw LoadError("program is not a valid MLXGraph FlatBuffer (verification failed)");
  }
  return load_MLXGraph(::mlxd::ir::GetMLXGraph(data));
}

}  // namespace mlxd
