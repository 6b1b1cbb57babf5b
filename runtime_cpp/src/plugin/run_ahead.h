// The next call a program predicts (schema table RunAhead): the host copies of
// the inputs it will be given, and the outputs of that call once it has been
// started ahead of time. program.cpp starts it; this file knows what the
// prediction is and whether a call matches it.
#pragma once

#include <mlx/mlx.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
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

// One input of the predicted call, as the host would pass it. A fed input's
// bytes are null until its predecessor's output is on the host.
struct HostInput {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::shared_ptr<std::vector<uint8_t>> bytes;

  bool equals(const TensorView& v) const;
  TensorView view() const;
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
  // The call after this one, once this one's graph is built (`outputs`):
  // predicted before any of its fed inputs is on the host.
  std::optional<Prediction> following() const;

  // Whether `inputs` are the predicted ones. The fed inputs are known once
  // this call's outputs are on the host (`take_outputs`).
  bool matches(const std::vector<TensorView>& inputs) const;
  void take_outputs(const std::vector<OutputBuffer>& outputs);

  // The inputs to bind for the predicted call, before its predecessor's
  // outputs are evaluated: a fed input is that output, reshaped (lazy).
  const std::vector<std::optional<HostInput>>& host_inputs() const { return inputs_; }
  const std::vector<std::pair<uint32_t, mlx::core::array>>& fed_arrays() const { return fed_; }

  // The predicted call's graph once built: its tensor outputs, and the
  // program's mutable buffers after it. Lazy until `started`.
  std::vector<mlx::core::array> outputs;
  std::vector<mlx::core::array> buffers;
  bool started = false;

 private:
  const RunAheadPlan* plan_ = nullptr;
  std::vector<std::optional<HostInput>> inputs_;
  std::vector<std::pair<uint32_t, mlx::core::array>> fed_;  // input position, lazy array
};

// How far a program runs ahead (MLX_DELEGATE_RUN_AHEAD):
//   0: not at all (to measure what running ahead gains);
//   1: the calling thread builds the next call's graph and starts it;
//   2: besides, a thread of the program's (AheadBuilder) builds the graph of
//      the call after the next while the calling thread starts the next, so
//      the host's two halves of a decode step, MLX's graph built and its
//      kernels encoded and launched, overlap.
// Unset: 2 on a GPU, whose decode steps the host's work paces; 1 on the CPU,
// whose cores the second thread would take from the kernels.
int run_ahead_depth(bool gpu);

// One thread that runs one job at a time (a predicted call's graph to build).
// MLX 0.32 evaluates a stream only on the thread that made it, so a job
// builds on the calling thread's stream (set as its default) and leaves the
// evaluating to that thread; it must not evaluate anything itself.
class AheadBuilder {
 public:
  AheadBuilder();
  ~AheadBuilder();  // waits for the job, then joins the thread
  AheadBuilder(const AheadBuilder&) = delete;
  AheadBuilder& operator=(const AheadBuilder&) = delete;

  // Runs `job` on the thread; the job before it must have ended (wait).
  // Jobs catch what they throw.
  void post(std::function<void()> job);
  // Returns once the posted job, if any, has ended.
  void wait();
  bool busy();

 private:
  void loop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::function<void()> job_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace mlxd::plugin
