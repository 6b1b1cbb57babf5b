// Compiled execution of instruction chains: each chain is split into segments
// that run as one mx::compile'd function (so MLX fuses their elementwise
// chains), cached per signature of what the segment reads, and the few
// instructions that cannot be traced, which the interpreter runs between them.
//
// What cannot be traced: ops that read array data on the host (Item, Cond,
// While), and instructions whose results change shape with data rather than
// with the input shapes: those that read a value derived from data (an Item
// result, a scalar program input) and those that read what such an instruction
// wrote (the KV cache read up to a position read from a tensor). A segment
// keyed by such a value would be retraced on every call.
#pragma once

#include <mlx/mlx.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "mlx_delegate/execution_state.h"
#include "mlx_dispatch.h"

namespace mlxd::plugin {

// A run [begin, end) of one chain's instructions, traced as one function.
struct Segment {
  uint32_t chain = 0;
  size_t begin = 0;
  size_t end = 0;
  std::vector<uint32_t> tensor_inputs;   // non-constant tensor slots read before written
  std::vector<uint32_t> value_inputs;    // value slots read before written
  std::vector<uint32_t> tensor_outputs;  // tensor slots written and read afterwards
  std::vector<uint32_t> tensor_scratch;  // tensor slots written, dead afterwards
  std::vector<uint32_t> value_outputs;   // value slots written
};

// One step of a chain: a segment, or one instruction for the interpreter.
struct ChainStep {
  size_t instruction = 0;  // first instruction of the step
  int segment = -1;        // index into ChainPlan::segments; -1: interpreted
};

struct ChainPlan {
  std::vector<std::vector<ChainStep>> steps;  // per chain
  std::vector<Segment> segments;
};

// The plan for every chain of `graph` (bound to `state`, which knows the slot
// classes). The init chain, run once at load, is left to the interpreter.
ChainPlan plan_chains(const MLXGraph& graph, const ExecutionState& state);

// Runs instructions [begin, end) of a chain through the interpreter.
using RangeRunner = std::function<void(uint32_t chain, size_t begin, size_t end)>;

// A segment at run time: its compiled functions, one per signature (input
// shapes and dtypes, values read), least recently used dropped beyond a few.
// A segment that keeps missing its cache, or whose trace fails, is demoted to
// the interpreter for good.
class CompiledSegment {
 public:
  // `name` prefixes its log lines (MLX_DELEGATE_LOG=info).
  CompiledSegment(Segment segment, ExecutionState* state, RangeRunner run_range, std::string name);
  void run();
  bool demoted() const { return demoted_; }
  const Segment& segment() const { return segment_; }

 private:
  using Function =
      std::function<std::vector<mlx::core::array>(const std::vector<mlx::core::array>&)>;
  struct Entry {
    Function function;
    std::vector<Value> values;  // the value outputs, fixed by the signature
    uint64_t last_use = 0;
    bool evaluates = false;  // its trace asked for an evaluation after it
  };

  std::vector<mlx::core::array> trace(const std::vector<mlx::core::array>& inputs);
  bool make_signature(std::vector<mlx::core::array>& inputs);
  Entry& add_entry();
  void interpret();
  void demote(const std::string& why);

  Segment segment_;
  ExecutionState* state_;
  RangeRunner run_range_;
  std::string name_;
  std::map<std::vector<int64_t>, Entry> cache_;
  std::vector<int64_t> signature_;        // of the current call
  std::vector<mlx::core::array> inputs_;  // of the current call, empty between calls
  uint64_t calls_ = 0;
  uint64_t misses_ = 0;
  uint64_t clock_ = 0;
  bool demoted_ = false;
};

// Whether chains run compiled: the program's `compile_chains` flag (the
// compile spec `compile`), and not turned off by MLXD_COMPILE=0 in the
// environment.
bool compile_enabled(const MLXGraph& graph);

}  // namespace mlxd::plugin
