#include "mlx_delegate/execution_state.h"

#include <cmath>
#include <numeric>

namespace mx = mlx::core;

namespace mlxd {

const char* slot_class_name(SlotClass c) noexcept {
  switch (c) {
    case SlotClass::constant:
      return "constant";
    case SlotClass::input:
      return "input";
    case SlotClass::output:
      return "output";
    case SlotClass::mutable_buffer:
      return "mutable buffer";
    case SlotClass::temp:
      return "temp";
  }
  return "unknown";
}

void ExecutionState::bind(const MLXGraph& p) {
  uint64_t total = uint64_t(p.num_constant_tensors) + p.num_input_tensors + p.num_output_tensors +
                   p.num_mutable_buffer_tensors + p.num_temp_tensors;
  if (total > (1u << 24)) {
    throw LoadError("program declares " + std::to_string(total) + " tensor slots (limit 16M)");
  }
  if (p.num_values > (1u << 24)) {
    throw LoadError("program declares " + std::to_string(p.num_values) +
                    " value slots (limit 16M)");
  }
  if (!p.tensor_meta.empty() && p.tensor_meta.size() != total) {
    throw LoadError("program has " + std::to_string(p.tensor_meta.size()) +
                    " tensor_meta entries for " + std::to_string(total) + " tensor slots");
  }
  program_ = &p;
  num_constants_ = p.num_constant_tensors;
  first_input_ = num_constants_;
  first_output_ = first_input_ + p.num_input_tensors;
  first_mutable_ = first_output_ + p.num_output_tensors;
  first_temp_ = first_mutable_ + p.num_mutable_buffer_tensors;
  num_tensors_ = static_cast<uint32_t>(total);
  constants_.assign(num_constants_, std::nullopt);
  transposed_constants_.assign(num_constants_, std::nullopt);
  mutable_buffers_.clear();
  for (uint32_t i = 0; i < p.num_mutable_buffer_tensors; ++i) {
    mutable_buffers_.push_back(std::make_shared<std::optional<mx::array>>());
  }
  tensors_.assign(num_tensors_ - num_constants_ - p.num_mutable_buffer_tensors, std::nullopt);
  values_.assign(p.num_values, Value{});
}

void ExecutionState::reset() {
  for (auto& t : tensors_) t.reset();
  for (auto& v : values_) v = Value{};
  evaluate_asked_ = false;
}

std::vector<mx::array> ExecutionState::built_tensors() const {
  std::vector<mx::array> built;
  for (const auto& t : tensors_) {
    if (t) built.push_back(*t);
  }
  for (const auto& cell : mutable_buffers_) {
    if (*cell) built.push_back(**cell);
  }
  return built;
}

const MLXGraph& ExecutionState::program() const {
  if (program_ == nullptr) throw ExecutionError("execution state is not bound to a program");
  return *program_;
}

void ExecutionState::run_chain(uint32_t chain) const {
  if (!chain_runner_) throw ExecutionError("no chain runner: control flow cannot run here");
  chain_runner_(chain);
}

SlotClass ExecutionState::slot_class(Tid t) const {
  if (t.idx >= num_tensors_) {
    throw ExecutionError("tensor slot " + std::to_string(t.idx) + " out of range (" +
                         std::to_string(num_tensors_) + " slots)");
  }
  if (t.idx < first_input_) return SlotClass::constant;
  if (t.idx < first_output_) return SlotClass::input;
  if (t.idx < first_mutable_) return SlotClass::output;
  if (t.idx < first_temp_) return SlotClass::mutable_buffer;
  return SlotClass::temp;
}

std::string ExecutionState::describe(Tid t) const {
  std::string s = "tensor slot " + std::to_string(t.idx);
  if (t.idx < num_tensors_) s += std::string(" (") + slot_class_name(slot_class(t)) + ")";
  return s;
}

std::optional<mx::array>& ExecutionState::slot_ref(Tid t) {
  switch (slot_class(t)) {
    case SlotClass::constant:
      return constants_[t.idx];
    case SlotClass::mutable_buffer:
      return *mutable_buffers_[t.idx - first_mutable_];
    case SlotClass::temp:
      return tensors_[t.idx - num_constants_ - (first_temp_ - first_mutable_)];
    default:
      return tensors_[t.idx - num_constants_];
  }
}

const std::optional<mx::array>& ExecutionState::slot_ref(Tid t) const {
  return const_cast<ExecutionState*>(this)->slot_ref(t);
}

const mx::array& ExecutionState::tensor(Tid t) const {
  const auto& slot = slot_ref(t);
  if (!slot.has_value()) throw ExecutionError(describe(t) + " is read before it is written");
  return *slot;
}

bool ExecutionState::has_tensor(Tid t) const { return slot_ref(t).has_value(); }

void ExecutionState::set_tensor(Tid t, mx::array a) {
  if (slot_class(t) == SlotClass::constant) {
    throw ExecutionError("an instruction writes " + describe(t) + ", which is read-only");
  }
  slot_ref(t) = std::move(a);
}

void ExecutionState::clear_tensor(Tid t) {
  if (slot_class(t) == SlotClass::constant) {
    throw ExecutionError("cannot clear " + describe(t) + ", which is read-only");
  }
  slot_ref(t).reset();
}

void ExecutionState::set_constant(Tid t, mx::array a) {
  if (slot_class(t) != SlotClass::constant) {
    throw LoadError(describe(t) + " is not a constant slot");
  }
  constants_[t.idx] = std::move(a);
  transposed_constants_[t.idx].reset();
}

const mx::array& ExecutionState::transposed_constant(Tid t, mx::StreamOrDevice s) {
  if (slot_class(t) != SlotClass::constant) {
    throw ExecutionError(describe(t) + " is not a constant slot");
  }
  std::optional<mx::array>& transposed = transposed_constants_[t.idx];
  if (!transposed) {
    const mx::array& a = tensor(t);
    if (a.ndim() < 2) throw ExecutionError(describe(t) + " has fewer than 2 axes");
    std::vector<int> perm(a.ndim());
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[a.ndim() - 2], perm[a.ndim() - 1]);
    // Evaluated here, also while MLX traces a compiled segment: made of a
    // constant, it is no tracer, and the trace keeps it as a constant.
    mx::array view = mx::transpose(a, perm, s);
    view.eval();
    transposed = std::move(view);
  }
  return *transposed;
}

void ExecutionState::set_mutable_buffer(Tid t, mx::array a) {
  if (slot_class(t) != SlotClass::mutable_buffer) {
    throw LoadError(describe(t) + " is not a mutable buffer slot");
  }
  *mutable_buffers_[t.idx - first_mutable_] = std::move(a);
}

void ExecutionState::share_mutable_buffer(Tid t, BufferCell cell) {
  if (slot_class(t) != SlotClass::mutable_buffer) {
    throw LoadError(describe(t) + " is not a mutable buffer slot");
  }
  mutable_buffers_[t.idx - first_mutable_] = std::move(cell);
}

void ExecutionState::check_vid(Vid v) const {
  if (v.idx >= values_.size()) {
    throw ExecutionError("value slot " + std::to_string(v.idx) + " out of range (" +
                         std::to_string(values_.size()) + " slots)");
  }
}

const Value& ExecutionState::value(Vid v) const {
  check_vid(v);
  if (std::holds_alternative<std::monostate>(values_[v.idx])) {
    throw ExecutionError("value slot " + std::to_string(v.idx) + " is read before it is written");
  }
  return values_[v.idx];
}

bool ExecutionState::has_value(Vid v) const {
  return v.idx < values_.size() && !std::holds_alternative<std::monostate>(values_[v.idx]);
}

void ExecutionState::set_value(Vid v, Value x) {
  check_vid(v);
  values_[v.idx] = x;
}

int64_t ExecutionState::int_value(Vid v) const {
  const Value& x = value(v);
  if (const auto* i = std::get_if<int64_t>(&x)) return *i;
  if (const auto* b = std::get_if<bool>(&x)) return *b ? 1 : 0;
  double d = std::get<double>(x);
  if (std::floor(d) != d) {
    throw ExecutionError("value slot " + std::to_string(v.idx) + " holds " + std::to_string(d) +
                         " where an integer is needed");
  }
  return static_cast<int64_t>(d);
}

double ExecutionState::float_value(Vid v) const {
  const Value& x = value(v);
  if (const auto* i = std::get_if<int64_t>(&x)) return static_cast<double>(*i);
  if (const auto* b = std::get_if<bool>(&x)) return *b ? 1.0 : 0.0;
  return std::get<double>(x);
}

int64_t ExecutionState::resolve(const IntOrVid& x) const {
  return x.vid ? int_value(*x.vid) : x.literal;
}

double ExecutionState::resolve(const FloatOrVid& x) const {
  return x.vid ? float_value(*x.vid) : x.literal;
}

mx::array ExecutionState::operand(const TidOrVid& x, std::optional<mx::Dtype> dtype_like) const {
  if (x.tid) return tensor(*x.tid);
  if (!x.vid) throw ExecutionError("operand has neither a tensor nor a value slot");
  const Value& v = value(*x.vid);
  mx::array a = std::holds_alternative<double>(v) ? mx::array(std::get<double>(v), mx::float32)
                : std::holds_alternative<bool>(v) ? mx::array(std::get<bool>(v))
                                                  : mx::array(int_value(*x.vid), mx::int64);
  if (dtype_like) a = mx::astype(a, *dtype_like);
  return a;
}

}  // namespace mlxd
