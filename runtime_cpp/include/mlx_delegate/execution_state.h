// The interpreter state of one loaded program inside an MLX backend plugin
// (hand-written; the generated mlx_dispatch.h includes it).
//
// Tensor slots (Tid) are numbered in the global order
//   constants | inputs | outputs | mutable buffers | temps
// and routed by range: constants live in `constants` (set at load, read
// only), mutable buffers in `mutable_buffers` (persist across executions),
// inputs, outputs and temps share `tensors` (cleared by every execution).
// A mutable buffer is a cell of its own, or a cell shared with the programs of
// the other methods of one ExecuTorch program (share_mutable_buffer): what
// one method writes there, the next call of another reads.
// Value slots (Vid) hold runtime scalars (int, float or bool).
#pragma once

#include <mlx/mlx.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "mlx_program.h"

namespace mlxd {

enum class SlotClass { constant, input, output, mutable_buffer, temp };
const char* slot_class_name(SlotClass c) noexcept;

// A runtime scalar: unset, an integer, a float or a bool.
using Value = std::variant<std::monostate, int64_t, double, bool>;

// Raised for a program that is well-formed FlatBuffer but inconsistent at run
// time (a slot read before it was written, an index out of range, ...).
class ExecutionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ExecutionState {
 public:
  ExecutionState() = default;

  // Sizes the slot containers after `program`'s counts (validated: the
  // counts must add up to the tensor_meta size when it is present).
  void bind(const MLXGraph& program);

  // Per-execution reset: inputs, outputs, temps and values are cleared;
  // constants and mutable buffers stay.
  void reset();

  SlotClass slot_class(Tid t) const;
  uint32_t num_tensor_slots() const { return num_tensors_; }
  uint32_t num_value_slots() const { return static_cast<uint32_t>(values_.size()); }

  // Tensor slots. tensor() throws ExecutionError for an unset slot or an id
  // out of range; set_tensor() throws for a constant slot.
  const mlx::core::array& tensor(Tid t) const;
  bool has_tensor(Tid t) const;
  void set_tensor(Tid t, mlx::core::array a);
  // Drops a per-call slot's array (a dead temp of a compiled segment).
  void clear_tensor(Tid t);
  // Constants and mutable buffers, set while loading the program.
  void set_constant(Tid t, mlx::core::array a);
  void set_mutable_buffer(Tid t, mlx::core::array a);
  // The storage of a mutable buffer slot, a cell other programs may hold too.
  using BufferCell = std::shared_ptr<std::optional<mlx::core::array>>;
  void share_mutable_buffer(Tid t, BufferCell cell);
  // A constant with its last two axes swapped (a 2-D constant's transpose, a
  // stack of expert matrices' transposes), made on its first use and
  // evaluated (a view: no copy). A call's graph then reads it as a computed
  // array, where a Transpose of the weight would be one more primitive that
  // every call rebuilds and MLX evaluates (65 of a 1B model's decode step).
  // Throws ExecutionError for a slot that is not a constant of 2 or more axes.
  const mlx::core::array& transposed_constant(Tid t, mlx::core::StreamOrDevice s);

  // Value slots.
  const Value& value(Vid v) const;
  bool has_value(Vid v) const;
  void set_value(Vid v, Value x);
  int64_t int_value(Vid v) const;   // int or bool (a float throws)
  double float_value(Vid v) const;  // any number
  // A literal or a runtime value.
  int64_t resolve(const IntOrVid& x) const;
  double resolve(const FloatOrVid& x) const;
  // A tensor operand or a runtime scalar as a 0-d array of `dtype_like`'s
  // dtype when given.
  mlx::core::array operand(const TidOrVid& x,
                           std::optional<mlx::core::Dtype> dtype_like = std::nullopt) const;

  // The program being run (valid while bound).
  const MLXGraph& program() const;

  // Runs instruction chain `chain` of the program on this state. Control-flow
  // ops (exec_cond, exec_while) call it; the program that owns the state sets
  // the runner, which knows the device and how to report errors.
  using ChainRunner = std::function<void(uint32_t chain)>;
  void set_chain_runner(ChainRunner runner) { chain_runner_ = std::move(runner); }
  void run_chain(uint32_t chain) const;

  // For messages: "tensor slot 7 (temp)".
  std::string describe(Tid t) const;

  // A step whose results hold a large transient (a prompt's quantized weights
  // dequantized) asks that what the call has built so far start on the device,
  // and that the host wait for what the ask before it started, before the next
  // step is built: MLX's CUDA backend keeps a kernel's inputs until the device
  // has run it, and the host builds a prompt's layers far ahead of the device.
  // The program's chain runner takes the ask after each step.
  void ask_to_evaluate() { evaluate_asked_ = true; }
  bool take_evaluate_ask() { return std::exchange(evaluate_asked_, false); }
  // The per-call tensors and mutable buffers set now: what the call has built.
  std::vector<mlx::core::array> built_tensors() const;

 private:
  std::optional<mlx::core::array>& slot_ref(Tid t);
  const std::optional<mlx::core::array>& slot_ref(Tid t) const;
  void check_vid(Vid v) const;

  const MLXGraph* program_ = nullptr;
  uint32_t num_constants_ = 0;
  uint32_t first_input_ = 0;
  uint32_t first_output_ = 0;
  uint32_t first_mutable_ = 0;
  uint32_t first_temp_ = 0;
  uint32_t num_tensors_ = 0;
  std::vector<std::optional<mlx::core::array>> constants_;
  std::vector<std::optional<mlx::core::array>> transposed_constants_;  // made on first use
  std::vector<BufferCell> mutable_buffers_;
  std::vector<std::optional<mlx::core::array>> tensors_;  // inputs, outputs, temps
  std::vector<Value> values_;
  ChainRunner chain_runner_;
  bool evaluate_asked_ = false;
};

}  // namespace mlxd
