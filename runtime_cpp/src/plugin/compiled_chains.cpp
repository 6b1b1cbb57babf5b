#include "compiled_chains.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>

#include "mlxd_log.h"

namespace mx = mlx::core;

namespace mlxd::plugin {

namespace {

constexpr size_t kMaxEntries = 8;       // signatures kept per segment
constexpr uint64_t kMaxMisses = 8;      // misses tolerated before the miss rate counts
constexpr size_t kMinInstructions = 2;  // one instruction alone has nothing to fuse

bool reads_host_data(OpCode op) {
  return op == OpCode::ITEM || op == OpCode::COND || op == OpCode::WHILE || op == OpCode::SAMPLE;
}

bool any_of(const std::vector<uint32_t>& ids, const std::vector<bool>& marked) {
  return std::any_of(ids.begin(), ids.end(),
                     [&](uint32_t id) { return id < marked.size() && marked[id]; });
}

using ChainUses = std::vector<std::vector<SlotUses>>;

// Value slots whose contents follow data, not shapes: Item results, scalar
// program inputs, and what integer arithmetic derives from them.
std::vector<bool> data_dependent_values(const MLXGraph& g, const ChainUses& uses) {
  std::vector<bool> marked(g.num_values, false);
  auto mark = [&](uint32_t v) {
    if (v >= marked.size() || marked[v]) return false;
    marked[v] = true;
    return true;
  };
  for (const auto& r : g.input_map) {
    if (r.kind == ir::SlotKind_Value) mark(r.idx);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t c = 0; c < uses.size(); ++c) {
      const auto& instructions = g.instruction_chains[c].instructions;
      for (size_t i = 0; i < uses[c].size(); ++i) {
        const SlotUses& u = uses[c][i];
        if (instructions[i].op != OpCode::ITEM && !any_of(u.value_reads, marked)) continue;
        for (uint32_t v : u.value_writes) changed |= mark(v);
      }
    }
  }
  return marked;
}

// Chains that Cond and While nodes run: what they write, the parent reads.
std::vector<bool> sub_chains(const MLXGraph& g) {
  std::vector<bool> sub(g.instruction_chains.size(), false);
  for (const auto& chain : g.instruction_chains) {
    for (const auto& instr : chain.instructions) {
      if (const auto* n = std::get_if<CondNode>(&instr.node)) {
        sub[n->then_chain] = sub[n->else_chain] = true;
      } else if (const auto* w = std::get_if<WhileNode>(&instr.node)) {
        sub[w->cond_chain] = sub[w->body_chain] = true;
      }
    }
  }
  return sub;
}

// Which instructions of a chain the interpreter must run (see the header).
std::vector<bool> interpreted_instructions(const InstructionChain& chain,
                                           const std::vector<SlotUses>& uses,
                                           const std::vector<bool>& dynamic_values,
                                           uint32_t num_tensors) {
  std::vector<bool> interpreted(uses.size(), false);
  std::vector<bool> data_shaped(num_tensors, false);  // slots now holding such a result
  for (size_t i = 0; i < uses.size(); ++i) {
    const SlotUses& u = uses[i];
    bool reads_dynamic_value = any_of(u.value_reads, dynamic_values);
    interpreted[i] = reads_host_data(chain.instructions[i].op) || reads_dynamic_value ||
                     any_of(u.tensor_reads, data_shaped);
    for (uint32_t t : u.tensor_writes) {
      if (t < num_tensors) data_shaped[t] = reads_dynamic_value;
    }
  }
  return interpreted;
}

// Inputs and outputs of instructions [begin, end) of `chain`.
Segment make_segment(uint32_t chain, size_t begin, size_t end, const std::vector<SlotUses>& uses,
                     const ExecutionState& state, bool outputs_all_writes) {
  Segment s{chain, begin, end, {}, {}, {}, {}, {}};
  std::set<uint32_t> written_tensors, written_values;
  for (size_t i = begin; i < end; ++i) {
    for (uint32_t t : uses[i].tensor_reads) {
      bool constant = state.slot_class(Tid{t}) == SlotClass::constant;
      if (!constant && !written_tensors.count(t) &&
          std::find(s.tensor_inputs.begin(), s.tensor_inputs.end(), t) == s.tensor_inputs.end()) {
        s.tensor_inputs.push_back(t);
      }
    }
    for (uint32_t v : uses[i].value_reads) {
      if (!written_values.count(v) &&
          std::find(s.value_inputs.begin(), s.value_inputs.end(), v) == s.value_inputs.end()) {
        s.value_inputs.push_back(v);
      }
    }
    written_tensors.insert(uses[i].tensor_writes.begin(), uses[i].tensor_writes.end());
    written_values.insert(uses[i].value_writes.begin(), uses[i].value_writes.end());
  }
  std::set<uint32_t> read_later;
  for (size_t i = end; i < uses.size(); ++i) {
    read_later.insert(uses[i].tensor_reads.begin(), uses[i].tensor_reads.end());
  }
  for (uint32_t t : written_tensors) {
    bool live =
        outputs_all_writes || read_later.count(t) || state.slot_class(Tid{t}) != SlotClass::temp;
    (live ? s.tensor_outputs : s.tensor_scratch).push_back(t);
  }
  s.value_outputs.assign(written_values.begin(), written_values.end());
  return s;
}

void append_value(std::vector<int64_t>& key, const Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) {
    key.push_back(1);
    key.push_back(*i);
  } else if (const auto* d = std::get_if<double>(&v)) {
    int64_t bits;
    std::memcpy(&bits, d, sizeof bits);
    key.push_back(2);
    key.push_back(bits);
  } else if (const auto* b = std::get_if<bool>(&v)) {
    key.push_back(3);
    key.push_back(*b ? 1 : 0);
  } else {
    key.push_back(0);
  }
}

}  // namespace

ChainPlan plan_chains(const MLXGraph& g, const ExecutionState& state) {
  ChainUses uses(g.instruction_chains.size());
  for (size_t c = 0; c < uses.size(); ++c) {
    for (const auto& instr : g.instruction_chains[c].instructions) {
      uses[c].push_back(slot_uses(instr));
    }
  }
  std::vector<bool> dynamic_values = data_dependent_values(g, uses);
  std::vector<bool> sub = sub_chains(g);
  ChainPlan plan;
  plan.steps.resize(uses.size());
  for (uint32_t c = 0; c < uses.size(); ++c) {
    const auto& chain = g.instruction_chains[c];
    std::vector<bool> interpreted(uses[c].size(), true);
    if (static_cast<int32_t>(c) != g.init_chain) {
      interpreted =
          interpreted_instructions(chain, uses[c], dynamic_values, state.num_tensor_slots());
    }
    for (size_t i = 0; i < uses[c].size();) {
      size_t end = i;
      while (end < uses[c].size() && !interpreted[end]) ++end;
      if (end - i >= kMinInstructions) {
        plan.steps[c].push_back({i, static_cast<int>(plan.segments.size())});
        plan.segments.push_back(make_segment(c, i, end, uses[c], state, sub[c]));
        i = end;
      } else {
        plan.steps[c].push_back({i, -1});
        ++i;
      }
    }
  }
  return plan;
}

CompiledSegment::CompiledSegment(Segment segment, ExecutionState* state, RangeRunner run_range,
                                 std::string name)
    : segment_(std::move(segment)),
      state_(state),
      run_range_(std::move(run_range)),
      name_(std::move(name)) {}

void CompiledSegment::demote(const std::string& why) {
  demoted_ = true;
  cache_.clear();
  log::write(log::Level::info, name_ + ": chain " + std::to_string(segment_.chain) +
                                   ", instructions " + std::to_string(segment_.begin) + ".." +
                                   std::to_string(segment_.end - 1) +
                                   " run interpreted from now on: " + why);
}

void CompiledSegment::interpret() { run_range_(segment_.chain, segment_.begin, segment_.end); }

// The traced function: the interpreter's own exec_* calls on MLX's tracers.
std::vector<mx::array> CompiledSegment::trace(const std::vector<mx::array>& inputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    state_->set_tensor(Tid{segment_.tensor_inputs[i]}, inputs[i]);
  }
  run_range_(segment_.chain, segment_.begin, segment_.end);
  std::vector<mx::array> outputs;
  outputs.reserve(segment_.tensor_outputs.size());
  for (uint32_t t : segment_.tensor_outputs) outputs.push_back(state_->tensor(Tid{t}));
  return outputs;
}

// The inputs and the signature they give; false when a slot is unset (the
// interpreter then reports which).
bool CompiledSegment::make_signature(std::vector<mx::array>& inputs) {
  signature_.clear();
  for (uint32_t t : segment_.tensor_inputs) {
    if (!state_->has_tensor(Tid{t})) return false;
    const mx::array& a = state_->tensor(Tid{t});
    inputs.push_back(a);
    signature_.push_back(static_cast<int64_t>(a.dtype().val()));
    signature_.push_back(a.ndim());
    signature_.insert(signature_.end(), a.shape().begin(), a.shape().end());
  }
  for (uint32_t v : segment_.value_inputs) {
    if (!state_->has_value(Vid{v})) return false;
    append_value(signature_, state_->value(Vid{v}));
  }
  return true;
}

CompiledSegment::Entry& CompiledSegment::add_entry() {
  if (cache_.size() >= kMaxEntries) {
    auto oldest = std::min_element(cache_.begin(), cache_.end(), [](const auto& a, const auto& b) {
      return a.second.last_use < b.second.last_use;
    });
    cache_.erase(oldest);
  }
  Entry& e = cache_[signature_];
  e.function = mx::compile([this](const std::vector<mx::array>& in) { return trace(in); });
  return e;
}

void CompiledSegment::run() {
  if (demoted_ || segment_.tensor_outputs.empty()) return interpret();
  std::vector<mx::array>& inputs = inputs_;  // reused: no allocation per call
  inputs.clear();
  if (!make_signature(inputs)) {
    inputs.clear();
    return interpret();
  }
  ++calls_;
  auto it = cache_.find(signature_);
  bool traced = it == cache_.end();
  if (traced && ++misses_ > kMaxMisses && misses_ * 2 > calls_) {
    inputs.clear();
    demote(std::to_string(misses_) + " signatures in " + std::to_string(calls_) + " calls");
    return interpret();
  }
  Entry& entry = traced ? add_entry() : it->second;
  entry.last_use = ++clock_;
  std::vector<mx::array> outputs;
  try {
    outputs = entry.function(inputs);
  } catch (const std::exception& e) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      state_->set_tensor(Tid{segment_.tensor_inputs[i]}, inputs[i]);
    }
    inputs.clear();
    if (!traced) throw;
    // An op that cannot be traced: the interpreter runs it, and reports a
    // genuine error with the instruction that raised it.
    demote(std::string("tracing failed: ") + e.what());
    return interpret();
  }
  // A trace (in this call, or by MLX in another thread) left tracers in the
  // input slots; the segment's values are fixed by its signature.
  for (size_t i = 0; i < inputs.size(); ++i) {
    state_->set_tensor(Tid{segment_.tensor_inputs[i]}, std::move(inputs[i]));
  }
  inputs.clear();  // no extra reference: an input updated in place may be donated
  // An ask to evaluate (ExecutionState::ask_to_evaluate) is made while tracing;
  // the calls that replay the trace make it again.
  if (traced) entry.evaluates = state_->take_evaluate_ask();
  if (entry.evaluates) state_->ask_to_evaluate();
  if (traced) {
    entry.values.clear();
    for (uint32_t v : segment_.value_outputs) entry.values.push_back(state_->value(Vid{v}));
  } else {
    for (size_t i = 0; i < entry.values.size(); ++i) {
      state_->set_value(Vid{segment_.value_outputs[i]}, entry.values[i]);
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    state_->set_tensor(Tid{segment_.tensor_outputs[i]}, std::move(outputs[i]));
  }
  for (uint32_t t : segment_.tensor_scratch) state_->clear_tensor(Tid{t});
}

bool compile_enabled(const MLXGraph& graph) {
  const char* env = std::getenv("MLXD_COMPILE");
  if (env != nullptr && std::strcmp(env, "0") == 0) return false;
  return graph.compile_chains;
}

}  // namespace mlxd::plugin
