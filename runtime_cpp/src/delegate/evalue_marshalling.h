// Conversion of a call's ExecuTorch EValues to the plugin's TensorViews and OutputBuffers, and
// back.
#pragma once

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/span.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mlx_delegate/backend_interface.h"

namespace mlxd::delegate {

// One program's argument conversion. Tensors are shared with the plugin
// without a copy; Int / Double / Bool values travel through scratch cells as
// rank-0 tensors. Kept per program so that calls reuse its buffers: after the
// first call, a call allocates nothing here.
class EValueMarshaller {
 public:
  void set_signature(size_t num_inputs, size_t num_outputs);
  size_t num_inputs() const { return num_inputs_; }
  size_t num_outputs() const { return num_outputs_; }

  // Points inputs() and outputs() at `args` (inputs, then outputs); an error
  // (already logged) for an argument the plugin cannot take.
  executorch::runtime::Error bind(executorch::runtime::Span<executorch::runtime::EValue*> args);
  const std::vector<TensorView>& inputs() const { return inputs_; }
  std::vector<OutputBuffer>& outputs() { return outputs_; }

  // After a failed execute: logs why outputs were refused to the plugin.
  void log_output_errors() const;

  // After a successful execute: fits the output tensors to the results and
  // stores scalar results into their EValues.
  executorch::runtime::Error collect_outputs(
      executorch::runtime::Span<executorch::runtime::EValue*> args);

 private:
  using Cell = std::array<uint8_t, 8>;

  executorch::runtime::Error bind_input(size_t i, const executorch::runtime::EValue* v);
  executorch::runtime::Error bind_output(size_t j, executorch::runtime::EValue* v);
  executorch::runtime::Error collect_output(size_t j, executorch::runtime::EValue* v);
  void* prepare_output(size_t j, DType dtype, const std::vector<int64_t>& shape, size_t nbytes);

  executorch::runtime::Span<executorch::runtime::EValue*> args_;  // of the current call
  size_t num_inputs_ = 0;
  size_t num_outputs_ = 0;
  // Byte capacity of each output tensor's buffer when the plugin writes
  // without calling OutputBuffer::prepare: the largest nbytes() seen, which
  // is the memory-planned upper bound on the first execute (ExecuTorch does
  // not expose a tensor's capacity).
  std::vector<size_t> output_capacity_;
  // Why OutputBuffer::prepare refused an output on the current call.
  std::vector<std::string> output_errors_;
  std::vector<TensorView> inputs_;
  std::vector<OutputBuffer> outputs_;
  std::vector<Cell> scalar_in_;
  std::vector<Cell> scalar_out_;
};

}  // namespace mlxd::delegate
