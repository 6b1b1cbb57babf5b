// Loading and running an IR program inside an MLX backend plugin.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <variant>

#include <mlx/primitives.h>

#include "mlxd_log.h"
#include "compiled_chains.h"
#include "mlx_backend.h"
#include "mlx_delegate/execution_state.h"
#include "mlx_delegate/payload_header.h"
#include "mlx_dispatch.h"
#include "process_group.h"
#include "run_ahead.h"

namespace mx = mlx::core;

namespace mlxd::plugin {

namespace {

// The FlatBuffer inside a payload: after the header when there is one, else
// the whole payload.
std::pair<const uint8_t*, size_t> flatbuffer_region(const uint8_t* payload, size_t size) {
  if (payload == nullptr || size == 0) throw LoadError("empty delegate payload");
  if (!payload::has_header(payload, size)) return {payload, size};
  payload::Regions regions;
  std::string error;
  if (!payload::parse(payload, size, &regions, &error)) throw LoadError(error);
  return {regions.flatbuffer, regions.flatbuffer_size};
}

mx::Shape static_shape(const TensorMeta& meta, const std::string& what) {
  mx::Shape shape;
  for (const auto& d : meta.shape) {
    if (d.vid || d.literal < 0 || d.literal > INT32_MAX) {
      throw LoadError(what + " has a dynamic or invalid shape");
    }
    shape.push_back(static_cast<int32_t>(d.literal));
  }
  return shape;
}

size_t numel(const mx::Shape& s) {
  size_t n = 1;
  for (auto d : s) n *= static_cast<size_t>(d);
  return n;
}

bool op_logging_enabled() {
#if defined(MLXD_OP_LOGGING)
  const char* env = std::getenv("ET_MLX_ENABLE_OP_LOGGING");
  return env != nullptr && std::strcmp(env, "1") == 0;
#else
  return false;
#endif
}

// State the methods of one ExecuTorch program share: a mutable buffer whose
// name starts with kSharedStatePrefix is one cell for every program loaded
// with that name (in this plugin), so what one method writes (Whisper's
// encoder: the cross-attention keys and values) the next call of another
// method reads (the decoder), on the device, with no copy through ExecuTorch.
// ExecuTorch gives a delegate no handle on the program it belongs to, so the
// export makes the names unique to itself (mlx_delegate/compiler/shared_state.py); two
// loads of one file in one process share the state too. The cell lives while
// a program holds it. Methods sharing state must not run at the same time.
constexpr std::string_view kSharedStatePrefix = "mlxd.shared/";

struct SharedStateEntry {
  std::weak_ptr<std::optional<mx::array>> cell;
  mx::Device device;
};

ExecutionState::BufferCell shared_state_cell(const std::string& name, const mx::Shape& shape,
                                             mx::Dtype dtype, mx::Device device) {
  static std::mutex mu;
  static std::map<std::string, SharedStateEntry> registry;
  std::lock_guard<std::mutex> lock(mu);
  auto it = registry.find(name);
  if (it != registry.end()) {
    if (auto cell = it->second.cell.lock()) {
      const mx::array& held = cell->value();
      if (held.shape() != shape || held.dtype() != dtype || !(it->second.device == device)) {
        throw LoadError("shared state '" + name +
                        "' is held by another method with another shape, dtype or device");
      }
      return cell;
    }
  }
  auto cell = std::make_shared<std::optional<mx::array>>(mx::zeros(shape, dtype, device));
  registry.insert_or_assign(name, SharedStateEntry{cell, device});
  return cell;
}

bool is_shared_state(const std::string& name) {
  return name.compare(0, kSharedStatePrefix.size(), kSharedStatePrefix) == 0;
}

using Clock = std::chrono::steady_clock;

double milliseconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

// The arrays a call's graph will compute, by primitive, most first: what MLX
// encodes (or, for views, walks) for each call. Arrays already computed (the
// weights, an input on the host) are not counted.
std::string graph_census(const std::vector<mx::array>& outputs) {
  std::unordered_set<std::uintptr_t> seen;
  std::map<std::string, int> counts;
  std::vector<mx::array> todo(outputs.begin(), outputs.end());
  int total = 0;
  while (!todo.empty()) {
    mx::array a = std::move(todo.back());
    todo.pop_back();
    if (!seen.insert(a.id()).second || !a.has_primitive() || a.is_available()) continue;
    for (const auto& s : a.siblings()) seen.insert(s.id());  // one primitive, several outputs
    ++total;
    ++counts[a.primitive().name()];
    for (const auto& in : a.inputs()) todo.push_back(in);
  }
  std::vector<std::pair<int, std::string>> sorted;
  for (const auto& [name, n] : counts) sorted.emplace_back(-n, name);
  std::sort(sorted.begin(), sorted.end());
  std::string text = std::to_string(total) + " primitives:";
  for (const auto& [n, name] : sorted) text += " " + name + " " + std::to_string(-n);
  return text;
}

class MlxProgram final : public ProgramHandle {
 public:
  MlxProgram(std::string backend, DeviceSpace space, int device_index)
      : backend_(std::move(backend)), device_(space.type, device_index) {}

  // A call started ahead finishes before its program goes away: it may hold
  // collectives that the other ranks, which started the same call, wait on (a
  // rank that left without it closed its sockets under them: SIGPIPE).
  ~MlxProgram() override {
    if (!next_ || next_->started.empty()) return;
    try {
      mx::eval(next_->started);
    } catch (const std::exception& e) {
      log::write(log::Level::debug, backend_ + ": the call started ahead failed: " + e.what());
    }
  }

  size_t num_inputs() const override { return graph_.input_map.size(); }
  size_t num_outputs() const override { return graph_.output_map.size(); }
  const std::string& backend_name() const override { return backend_; }
  int device_index() const override { return device_.index; }

  void load(const uint8_t* payload, size_t size, const ConstantResolver& constants);
  void execute(const std::vector<TensorView>& inputs, std::vector<OutputBuffer>& outputs);

 private:
  void validate() const;
  void join_group_of_collectives() const;
  void check_sub_chains() const;
  void run_chain(uint32_t chain);
  void run_instructions(uint32_t chain, size_t begin, size_t end);
  void evaluate_if_asked();
  void plan_compiled_chains();
  void bind_input(const SlotRef& ref, const TensorView& view, size_t position);
  void write_output(const SlotRef& ref, const std::optional<mx::array>& result, OutputBuffer& out,
                    size_t position);
  std::vector<std::optional<mx::array>> build_call();
  void append_buffers(std::vector<mx::array>& arrays) const;
  void report_graph(bool& reported, const char* how, std::vector<mx::array> outputs);
  void start_call(std::vector<mx::array> arrays);
  void run_ahead(const std::vector<TensorView>& inputs,
                 const std::vector<std::optional<mx::array>>& results);

  std::string backend_;
  mx::Device device_;  // its default stream, of the thread that runs the program
  MLXGraph graph_;
  ExecutionState state_;
  // With compilation on: each chain's steps, and the segments they run.
  ChainPlan plan_;
  std::vector<std::unique_ptr<CompiledSegment>> segments_;
  std::vector<mx::array> to_eval_;  // reused by every call
  // What the last asked evaluation started (evaluate_if_asked), not yet waited for.
  std::vector<mx::array> evaluating_;
  std::optional<RunAheadPlan> run_ahead_plan_;  // the program's RunAhead, when it has one
  std::optional<Prediction> next_;              // the call after the last, as predicted
  // At debug level the first call built in place and the first built ahead
  // report their graphs' primitives (graph_census).
  bool census_in_place_ = false, census_ahead_ = false;
  // How long the last run_ahead took to build the next call's graph, and to
  // start it (mx::async_eval: MLX's encoding and launching of its kernels).
  double ahead_built_ms_ = 0, ahead_started_ms_ = 0;
  std::mutex mu_;
};

// The group is set up at load, not at the first collective (process_group.h),
// and a group of the wrong size is a load error.
void MlxProgram::join_group_of_collectives() const {
  for (const auto& chain : graph_.instruction_chains) {
    for (const auto& instruction : chain.instructions) {
      try {
        if (const auto* n = std::get_if<AllSumNode>(&instruction.node)) {
          join_process_group(n->group_size, "all_sum");
        } else if (const auto* n = std::get_if<AllGatherNode>(&instruction.node)) {
          join_process_group(n->group_size, "all_gather");
        }
      } catch (const ExecutionError& e) {  // a group of another size
        throw LoadError(e.what());
      } catch (const std::exception& e) {  // MLX could not set the group up
        throw LoadError(std::string("setting up the process group for the collectives: ") +
                        e.what());
      }
    }
  }
}

void MlxProgram::validate() const {
  const auto& g = graph_;
  if (g.instruction_chains.empty()) throw LoadError("program has no instruction chain");
  if (g.main_chain >= g.instruction_chains.size()) {
    throw LoadError("main_chain " + std::to_string(g.main_chain) + " out of range (" +
                    std::to_string(g.instruction_chains.size()) + " chains)");
  }
  if (g.init_chain < -1 || g.init_chain >= static_cast<int32_t>(g.instruction_chains.size())) {
    throw LoadError("init_chain " + std::to_string(g.init_chain) + " out of range");
  }
  auto check_ref = [&](const SlotRef& r, const char* map) {
    if (r.kind == ir::SlotKind_Tensor) {
      if (r.idx >= state_.num_tensor_slots()) {
        throw LoadError(std::string(map) + " names tensor slot " + std::to_string(r.idx) + " of " +
                        std::to_string(state_.num_tensor_slots()));
      }
    } else if (r.kind == ir::SlotKind_Value) {
      if (r.idx >= state_.num_value_slots()) {
        throw LoadError(std::string(map) + " names value slot " + std::to_string(r.idx) + " of " +
                        std::to_string(state_.num_value_slots()));
      }
    } else {
      throw LoadError(std::string(map) + " has an unknown slot kind");
    }
  };
  check_sub_chains();
  for (const auto& r : g.input_map) check_ref(r, "input_map");
  for (const auto& r : g.output_map) check_ref(r, "output_map");
  for (const auto& r : g.mutable_buffer_map) {
    check_ref(r, "mutable_buffer_map");
    if (r.kind != ir::SlotKind_Tensor ||
        state_.slot_class(Tid{r.idx}) != SlotClass::mutable_buffer) {
      throw LoadError("mutable_buffer_map entry " + std::to_string(r.idx) +
                      " is not a mutable buffer slot");
    }
  }
  for (const auto& n : g.named_slots) {
    if (n.slot.idx >= state_.num_tensor_slots()) {
      throw LoadError("named slot '" + n.name + "' names tensor slot " +
                      std::to_string(n.slot.idx) + " of " +
                      std::to_string(state_.num_tensor_slots()));
    }
    SlotClass c = state_.slot_class(n.slot);
    if (c != SlotClass::constant && c != SlotClass::mutable_buffer) {
      throw LoadError("named slot '" + n.name + "' is a " + slot_class_name(c) +
                      " slot, not a constant or mutable buffer");
    }
  }
}

// A control-flow node may only name chains after its own: no chain can then
// run itself, directly or not, and every named chain exists.
void MlxProgram::check_sub_chains() const {
  const auto& chains = graph_.instruction_chains;
  for (size_t c = 0; c < chains.size(); ++c) {
    auto check = [&](uint32_t sub, const char* role) {
      if (sub <= c || sub >= chains.size()) {
        throw LoadError(std::string(role) + " " + std::to_string(sub) + " named in chain " +
                        std::to_string(c) + " is not a later chain (" +
                        std::to_string(chains.size()) + " chains)");
      }
    };
    for (const auto& instr : chains[c].instructions) {
      if (const auto* n = std::get_if<CondNode>(&instr.node)) {
        check(n->then_chain, "then_chain");
        check(n->else_chain, "else_chain");
      } else if (const auto* w = std::get_if<WhileNode>(&instr.node)) {
        check(w->cond_chain, "cond_chain");
        check(w->body_chain, "body_chain");
      }
    }
  }
}

void MlxProgram::load(const uint8_t* payload, size_t size, const ConstantResolver& constants) {
  auto [fb, fb_size] = flatbuffer_region(payload, size);
  // FlatBuffers need an aligned buffer; the payload may sit anywhere.
  std::vector<uint64_t> aligned((fb_size + 7) / 8);
  std::memcpy(aligned.data(), fb, fb_size);
  graph_ = mlxd::load_program(reinterpret_cast<const uint8_t*>(aligned.data()), fb_size);
  state_.bind(graph_);
  validate();
  join_group_of_collectives();
  if (graph_.run_ahead) {
    run_ahead_plan_.emplace(*graph_.run_ahead, graph_);
    if (!run_ahead_enabled()) {
      run_ahead_plan_.reset();
      log::write(log::Level::info, backend_ + ": running ahead is off (MLX_DELEGATE_RUN_AHEAD=0)");
    }
  }
  state_.set_chain_runner([this](uint32_t chain) { run_chain(chain); });

  // Constants from the host's named data, wrapped without a copy where the
  // device can read host memory.
  std::vector<bool> named(state_.num_tensor_slots(), false);
  for (const auto& n : graph_.named_slots) {
    SlotClass c = state_.slot_class(n.slot);
    if (graph_.tensor_meta.empty()) throw LoadError("program has named slots but no tensor_meta");
    const TensorMeta& meta = graph_.tensor_meta[n.slot.idx];
    std::string what = std::string(slot_class_name(c)) + " '" + n.name + "'";
    mx::Shape shape = static_shape(meta, what);
    mx::Dtype dtype = to_mlx(static_cast<DType>(meta.dtype));
    size_t need = numel(shape) * dtype.size();
    if (c == SlotClass::mutable_buffer && is_shared_state(n.name)) {
      state_.share_mutable_buffer(n.slot, shared_state_cell(n.name, shape, dtype, device_));
      named[n.slot.idx] = true;
      continue;
    }
    ConstantBuffer buf;
    bool found = constants ? constants(n.name, buf) : false;
    if (!found) {
      if (c == SlotClass::constant) {
        throw LoadError("constant '" + n.name + "' is not in the named data");
      }
      state_.set_mutable_buffer(n.slot, mx::zeros(shape, dtype, device_));
      named[n.slot.idx] = true;
      continue;
    }
    if (buf.nbytes != need || (need > 0 && buf.data == nullptr)) {
      throw LoadError(what + ": named data has " + std::to_string(buf.nbytes) +
                      " bytes, expected " + std::to_string(need));
    }
    mx::array a(const_cast<void*>(buf.data), shape, dtype, [](void*) {});
    if (c == SlotClass::constant) {
      state_.set_constant(n.slot, std::move(a));
    } else {
      // Mutable buffers get their own storage: they are written in place.
      state_.set_mutable_buffer(n.slot, mx::copy(a, device_));
    }
    named[n.slot.idx] = true;
  }
  for (uint32_t i = 0; i < graph_.num_constant_tensors; ++i) {
    if (!named[i]) throw LoadError("constant slot " + std::to_string(i) + " has no name");
  }
  // Unnamed mutable buffers start as zeros of their declared shape.
  uint32_t first_mutable =
      graph_.num_constant_tensors + graph_.num_input_tensors + graph_.num_output_tensors;
  for (uint32_t i = 0; i < graph_.num_mutable_buffer_tensors; ++i) {
    uint32_t t = first_mutable + i;
    if (named[t]) continue;
    if (graph_.tensor_meta.empty()) throw LoadError("mutable buffers need tensor_meta");
    const TensorMeta& meta = graph_.tensor_meta[t];
    state_.set_mutable_buffer(
        Tid{t}, mx::zeros(static_shape(meta, "mutable buffer slot " + std::to_string(t)),
                          to_mlx(static_cast<DType>(meta.dtype)), device_));
  }
  // Op logging shows every op of every call, so it runs the interpreter.
  if (compile_enabled(graph_) && !op_logging_enabled()) {
    plan_compiled_chains();
  } else {
    log::write(log::Level::info, backend_ + ": the program runs instruction by instruction");
  }
  if (graph_.init_chain >= 0) {
    state_.reset();
    run_chain(static_cast<uint32_t>(graph_.init_chain));
  }
  std::vector<mx::array> persistent;
  append_buffers(persistent);
  if (!persistent.empty()) mx::eval(persistent);
}

void MlxProgram::plan_compiled_chains() {
  plan_ = plan_chains(graph_, state_);
  size_t compiled = 0, total = 0;
  for (Segment& segment : plan_.segments) {
    compiled += segment.end - segment.begin;
    segments_.push_back(std::make_unique<CompiledSegment>(
        std::move(segment), &state_,
        [this](uint32_t chain, size_t begin, size_t end) { run_instructions(chain, begin, end); },
        backend_));
  }
  plan_.segments.clear();
  for (const auto& chain : graph_.instruction_chains) total += chain.instructions.size();
  log::write(log::Level::info, backend_ + ": " + std::to_string(segments_.size()) +
                                   " compiled segments hold " + std::to_string(compiled) + " of " +
                                   std::to_string(total) + " instructions");
}

void MlxProgram::run_chain(uint32_t chain) {
  if (chain >= graph_.instruction_chains.size()) {
    throw std::runtime_error(backend_ + ": chain " + std::to_string(chain) + " out of range (" +
                             std::to_string(graph_.instruction_chains.size()) + " chains)");
  }
  if (plan_.steps.empty()) {
    size_t count = graph_.instruction_chains[chain].instructions.size();
    for (size_t i = 0; i < count; ++i) {
      run_instructions(chain, i, i + 1);
      evaluate_if_asked();
    }
    return;
  }
  for (const ChainStep& step : plan_.steps[chain]) {
    if (step.segment >= 0) {
      segments_[step.segment]->run();
    } else {
      run_instructions(chain, step.instruction, step.instruction + 1);
    }
    evaluate_if_asked();
  }
}

// Where a step asked for it (ExecutionState::ask_to_evaluate), what the call has
// built so far starts on the device, and the host waits for what the ask before
// started: a prompt's layer n runs on the device while the host builds layer
// n + 1, and at most two asked layers' transients are alive at once. Waiting
// for layer n itself would leave the device idle while the host builds the next.
void MlxProgram::evaluate_if_asked() {
  if (!state_.take_evaluate_ask()) return;
  std::vector<mx::array> built = state_.built_tensors();
  mx::async_eval(built);
  mx::eval(evaluating_);  // all started already: waits for them
  evaluating_ = std::move(built);
}

void MlxProgram::run_instructions(uint32_t chain, size_t begin, size_t end) {
  const auto& instructions = graph_.instruction_chains[chain].instructions;
  bool log_ops = op_logging_enabled();
  for (size_t i = begin; i < end; ++i) {
    const Instruction& instr = instructions[i];
    try {
      dispatch(instr, state_, device_);
    } catch (const std::exception& e) {
      throw std::runtime_error(backend_ + ": instruction " + std::to_string(i) + " of chain " +
                               std::to_string(chain) + " (" + op_name(instr.op) + "): " + e.what());
    }
    if (log_ops) {
      std::cerr << "[mlx-delegate op] " << backend_ << " chain " << chain << " #" << i << " "
                << op_name(instr.op) << std::endl;
    }
  }
}

void MlxProgram::bind_input(const SlotRef& ref, const TensorView& view, size_t position) {
  if (ref.kind == ir::SlotKind_Value) {
    size_t n = dtype_size(view.dtype);
    if (n == 0 || view.nbytes != n || view.data == nullptr) {
      throw std::invalid_argument("input " + std::to_string(position) +
                                  " is a scalar value: pass one element");
    }
    Value v;
    switch (view.dtype) {
      case DType::Int64: {
        int64_t x;
        std::memcpy(&x, view.data, 8);
        v = x;
        break;
      }
      case DType::Int32: {
        int32_t x;
        std::memcpy(&x, view.data, 4);
        v = int64_t(x);
        break;
      }
      case DType::Float32: {
        float x;
        std::memcpy(&x, view.data, 4);
        v = double(x);
        break;
      }
      case DType::Float64: {
        double x;
        std::memcpy(&x, view.data, 8);
        v = x;
        break;
      }
      case DType::Bool: {
        uint8_t x;
        std::memcpy(&x, view.data, 1);
        v = x != 0;
        break;
      }
      default:
        throw std::invalid_argument("input " + std::to_string(position) + ": a " +
                                    dtype_name(view.dtype) + " scalar value is not supported");
    }
    state_.set_value(Vid{ref.idx}, v);
    return;
  }
  Tid t{ref.idx};
  if (!graph_.tensor_meta.empty()) {
    const TensorMeta& meta = graph_.tensor_meta[t.idx];
    DType want = static_cast<DType>(meta.dtype);
    if (want != view.dtype) {
      throw std::invalid_argument("input " + std::to_string(position) + " is " +
                                  dtype_name(view.dtype) + ", the program expects " +
                                  dtype_name(want));
    }
    if (!meta.shape.empty() || view.shape.empty()) {
      bool ok = meta.shape.size() == view.shape.size();
      for (size_t d = 0; ok && d < meta.shape.size(); ++d) {
        const auto& dim = meta.shape[d];
        if (!dim.vid && dim.literal >= 0 && dim.literal != view.shape[d]) ok = false;
      }
      if (!ok) {
        std::string got, exp;
        for (auto d : view.shape) {
          got += got.empty() ? "" : ",";
          got += std::to_string(d);
        }
        for (const auto& d : meta.shape) {
          exp += exp.empty() ? "" : ",";
          exp += (d.vid || d.literal < 0) ? std::string("?") : std::to_string(d.literal);
        }
        throw std::invalid_argument("input " + std::to_string(position) + " has shape (" + got +
                                    "), the program expects (" + exp + ")");
      }
    }
  }
  mx::array a = array_from_host(view);
  state_.set_tensor(t, std::move(a));
}

void MlxProgram::write_output(const SlotRef& ref, const std::optional<mx::array>& result,
                              OutputBuffer& out, size_t position) {
  if (ref.kind == ir::SlotKind_Value) {
    const Value& v = state_.value(Vid{ref.idx});
    uint8_t bytes[8] = {0};
    out.shape.clear();
    if (const auto* d = std::get_if<double>(&v)) {
      out.dtype = DType::Float64;
      out.nbytes = 8;
      std::memcpy(bytes, d, 8);
    } else if (const auto* b = std::get_if<bool>(&v)) {
      out.dtype = DType::Bool;
      out.nbytes = 1;
      bytes[0] = *b ? 1 : 0;
    } else {
      int64_t i = state_.int_value(Vid{ref.idx});
      out.dtype = DType::Int64;
      out.nbytes = 8;
      std::memcpy(bytes, &i, 8);
    }
    if (out.prepare) {
      if (void* where = out.prepare(out.dtype, out.shape, out.nbytes)) {
        out.data = where;
        out.capacity = out.nbytes;
      }
    }
    if (out.capacity < out.nbytes || out.data == nullptr) {
      throw std::runtime_error("output " + std::to_string(position) + ": buffer too small");
    }
    std::memcpy(out.data, bytes, out.nbytes);
    return;
  }
  try {
    array_to_host(*result, out);
  } catch (const std::exception& e) {
    throw std::runtime_error("output " + std::to_string(position) + ": " + e.what());
  }
}

void MlxProgram::execute(const std::vector<TensorView>& inputs,
                         std::vector<OutputBuffer>& outputs) {
  std::lock_guard<std::mutex> lock(mu_);
  if (inputs.size() != graph_.input_map.size()) {
    throw std::invalid_argument(backend_ + ": program takes " +
                                std::to_string(graph_.input_map.size()) + " inputs, got " +
                                std::to_string(inputs.size()));
  }
  if (outputs.size() != graph_.output_map.size()) {
    throw std::invalid_argument(backend_ + ": program has " +
                                std::to_string(graph_.output_map.size()) + " outputs, got " +
                                std::to_string(outputs.size()) + " output buffers");
  }
  // At debug level each call reports where its time went: building MLX's
  // graph on the host (the interpreter, compiled chains' calls), evaluating it
  // (the device's kernels, and the host waiting for them) and copying out.
  bool timed = log::enabled(log::Level::debug);
  auto start = Clock::now();
  bool predicted = next_ && next_->matches(inputs);
  std::vector<std::optional<mx::array>> results;
  bool started = predicted && !next_->started.empty();
  if (started) {  // the last call started this one: its graph is built and on its way
    results.assign(next_->started.begin(), next_->started.end());
  } else {
    // A call started ahead on a wrong prediction has run all the same; the
    // program vouched that its writes are harmless (schema: RunAhead).
    state_.reset();
    for (size_t i = 0; i < inputs.size(); ++i) bind_input(graph_.input_map[i], inputs[i], i);
    results = build_call();
    if (timed && !census_in_place_) {
      std::vector<mx::array> arrays;
      for (const auto& r : results) {
        if (r) arrays.push_back(*r);
      }
      report_graph(census_in_place_, "in place", std::move(arrays));
    }
  }
  next_.reset();
  auto built = Clock::now();
  // A call that came as predicted predicts the next one: start it now, so
  // that building its graph overlaps this call's work on the device.
  bool ahead = run_ahead_plan_ && predicted;
  if (ahead) {
    if (!started) {
      std::vector<mx::array> arrays;
      for (const auto& r : results) arrays.push_back(*r);
      start_call(std::move(arrays));
    }
    run_ahead(inputs, results);
  }
  auto built_ahead = Clock::now();
  to_eval_.clear();
  for (const auto& r : results) {
    if (r) to_eval_.push_back(*r);
  }
  // Ahead, this call's buffers were started with its outputs, and the
  // state's buffers are already the next call's.
  if (!ahead) append_buffers(to_eval_);
  mx::eval(to_eval_);
  auto evaluated = Clock::now();
  to_eval_.clear();
  evaluating_.clear();
  for (size_t i = 0; i < outputs.size(); ++i) {
    write_output(graph_.output_map[i], results[i], outputs[i], i);
  }
  if (run_ahead_plan_ && !next_) {
    // Not started (a call not predicted): predicted all the same, so that the
    // next call, if it comes as predicted, starts the one after it.
    next_ = Prediction::after(*run_ahead_plan_, inputs, results);
  }
  if (next_) next_->take_outputs(outputs);
  state_.reset();  // drop per-call arrays now (a started call holds its own)
  if (timed) {
    char line[320];
    std::snprintf(line, sizeof line,
                  "execute: graph built in %.3f ms%s, the next call's ahead in %.3f ms "
                  "(built %.3f, started %.3f), evaluated in %.3f ms, outputs copied in %.3f ms",
                  milliseconds(start, built), started ? " (by the last call)" : "",
                  milliseconds(built, built_ahead), ahead ? ahead_built_ms_ : 0.0,
                  ahead ? ahead_started_ms_ : 0.0, milliseconds(built_ahead, evaluated),
                  milliseconds(evaluated, Clock::now()));
    log::write(log::Level::debug, backend_ + ": " + line);
  }
}

// Runs the main chain on the bound inputs; the output slots' arrays (lazy),
// one per output (none for a value output, which stays in its slot).
std::vector<std::optional<mx::array>> MlxProgram::build_call() {
  run_chain(graph_.main_chain);
  std::vector<std::optional<mx::array>> results;
  for (const auto& r : graph_.output_map) {
    if (r.kind == ir::SlotKind_Tensor) {
      results.emplace_back(state_.tensor(Tid{r.idx}));
    } else {
      results.emplace_back();
    }
  }
  return results;
}

// The state's mutable buffers, appended to `arrays`.
void MlxProgram::append_buffers(std::vector<mx::array>& arrays) const {
  uint32_t first_mutable =
      graph_.num_constant_tensors + graph_.num_input_tensors + graph_.num_output_tensors;
  for (uint32_t i = 0; i < graph_.num_mutable_buffer_tensors; ++i) {
    arrays.push_back(state_.tensor(Tid{first_mutable + i}));
  }
}

// The debug report of a call's graph, `outputs` and the state's buffers, once
// (`reported`): "a call built in place: 450 primitives: QuantizedMatmul 65 ...".
void MlxProgram::report_graph(bool& reported, const char* how, std::vector<mx::array> outputs) {
  reported = true;
  append_buffers(outputs);
  log::write(log::Level::debug, backend_ + ": a call built " + how + ": " + graph_census(outputs));
}

// Starts evaluating `arrays` and the state's buffers on the device, returning at once.
void MlxProgram::start_call(std::vector<mx::array> arrays) {
  append_buffers(arrays);
  mx::async_eval(std::move(arrays));
}

// Builds the call after the one with `inputs` and `results` as the program
// predicts it, and starts it (next_). A prediction that cannot be made or
// built (past the end of an LLM's cache) leaves next_ empty or not started.
void MlxProgram::run_ahead(const std::vector<TensorView>& inputs,
                           const std::vector<std::optional<mx::array>>& results) {
  ahead_built_ms_ = ahead_started_ms_ = 0;  // a call not started reports none, not the last's
  try {
    next_ = Prediction::after(*run_ahead_plan_, inputs, results);
    if (!next_) return;
    state_.reset();
    const auto& host = next_->host_inputs();
    for (size_t i = 0; i < host.size(); ++i) {
      if (host[i]) {
        const SlotRef& ref = graph_.input_map[i];
        if (ref.kind == ir::SlotKind_Tensor) {
          state_.set_tensor(Tid{ref.idx}, host[i]->to_array());
        } else {
          bind_input(ref,
                     TensorView{host[i]->dtype, host[i]->shape, host[i]->bytes->data(),
                                host[i]->bytes->size()},
                     i);
        }
      }
    }
    for (const auto& [input, array] : next_->fed_arrays()) {
      state_.set_tensor(Tid{graph_.input_map[input].idx}, array);
    }
    auto begin = Clock::now();
    std::vector<mx::array> started;
    for (auto& r : build_call()) started.push_back(*r);
    auto built = Clock::now();
    if (!census_ahead_ && log::enabled(log::Level::debug)) {
      report_graph(census_ahead_, "ahead", started);
    }
    auto starting = Clock::now();
    start_call(started);
    ahead_built_ms_ = milliseconds(begin, built);
    ahead_started_ms_ = milliseconds(starting, Clock::now());
    next_->started = std::move(started);
  } catch (const std::exception& e) {
    log::write(log::Level::debug,
               backend_ + ": the predicted next call was not started: " + e.what());
    if (next_) next_->started.clear();
  }
}

}  // namespace

std::unique_ptr<ProgramHandle> load_program(const std::string& backend_name, DeviceSpace devices,
                                            int device_index, const uint8_t* payload, size_t size,
                                            const ConstantResolver& constants) {
  auto program = std::make_unique<MlxProgram>(backend_name, devices, device_index);
  try {
    program->load(payload, size, constants);
  } catch (const LoadError& e) {
    throw std::runtime_error(backend_name + ": cannot load program: " + e.what());
  }
  return program;
}

void execute_program(ProgramHandle& program, const std::string& backend_name,
                     const std::vector<TensorView>& inputs, std::vector<OutputBuffer>& outputs) {
  auto* p = dynamic_cast<MlxProgram*>(&program);
  if (p == nullptr || p->backend_name() != backend_name) {
    throw std::invalid_argument("program loaded by backend '" + program.backend_name() +
                                "' (device " + std::to_string(program.device_index()) +
                                ") executed on backend '" + backend_name + "'");
  }
  p->execute(inputs, outputs);
}

}  // namespace mlxd::plugin
