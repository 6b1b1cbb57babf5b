// The next call a program predicts (schema table RunAhead): the host copies of
// the inputs it will be given, and the outputs of that call once it has been
// started ahead of time. program.cpp starts it; this file knows what the
// prediction is and whether a call matches it.
#pragma once

#include <mlx/mlx.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "mlx_delegate/backend_interface.h"
#include "mlx_program.h"

namespace mlxd::plugin {

// A program's RunAhead table, checked against its maps once, at load.
class RunAheadPlan {
 public:
  // Throws LoadError when the table names an input or output the program does
  // not have, feeds a value slot or from an output of another dtype, advances
  // an input that is not an integer, or the program has a value output (the
  // outputs of a call started ahead are kept as arrays).
  RunAheadPlan(const RunAhead& table, const MLXGraph& graph);

  struct Feed {
    uint32_t input;
    uint32_t output;
    std::vector<bool> dynamic;  // per dimension of the input: may change with the feed
  };
  const std::vector<Feed>& feeds() const { return feeds_; }
  const std::vector<uint32_t>& advanced() const { return advanced_; }

 private:
  std::vector<Feed> feeds_;
  std::vector<uint32_t> advanced_;
};

// One input of the predicted call, as the host would pass it.
struct HostInput {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::shared_ptr<std::vector<uint8_t>> bytes;

  bool equals(const TensorView& v) const;
  // An array of these bytes; it keeps them alive for as long as MLX holds them.
  mlx::core::array to_array() const;
};

// The call after one with `inputs`, as `plan` predicts it.
class Prediction {
 public:
  // std::nullopt when there is none: a fed input whose shape cannot take the
  // output's elements.
  static std::optional<Prediction> after(
      const RunAheadPlan& plan, const std::vector<TensorView>& inputs,
      const std::vector<std::optional<mlx::core::array>>& outputs);

  // Whether `inputs` are the predicted ones. The fed inputs are known once
  // this call's outputs are on the host (`take_outputs`).
  bool matches(const std::vector<TensorView>& inputs) const;
  void take_outputs(const std::vector<OutputBuffer>& outputs);

  // The inputs to bind for the predicted call, before its predecessor's
  // outputs are evaluated: a fed input is that output, reshaped (lazy).
  const std::vector<std::optional<HostInput>>& host_inputs() const { return inputs_; }
  const std::vector<std::pair<uint32_t, mlx::core::array>>& fed_arrays() const { return fed_; }

  // The started call's tensor outputs; empty while it has not been started.
  std::vector<mlx::core::array> started;

 private:
  const RunAheadPlan* plan_ = nullptr;
  std::vector<std::optional<HostInput>> inputs_;  // empty for a fed input until take_outputs
  std::vector<std::pair<uint32_t, mlx::core::array>> fed_;  // input position, lazy array
};

// MLX_DELEGATE_RUN_AHEAD=0 turns running ahead off (to measure what it gains).
bool run_ahead_enabled();

}  // namespace mlxd::plugin
