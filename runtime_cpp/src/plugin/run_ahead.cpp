// The next call a program predicts: see run_ahead.h and the schema's RunAhead.
#include "run_ahead.h"

#include <cstdlib>
#include <cstring>
#include <string>

#include "mlx_backend.h"
#include "mlx_delegate/load_error.h"

namespace mx = mlx::core;

namespace mlxd::plugin {

namespace {

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

HostInput copy_of(const TensorView& v) {
  const auto* data = static_cast<const uint8_t*>(v.data);
  return HostInput{v.dtype, v.shape, std::make_shared<std::vector<uint8_t>>(data, data + v.nbytes)};
}

// The integer in a one-element input, or nullopt for another kind of input.
std::optional<int64_t> integer_of(const TensorView& v) {
  if (element_count(v.shape) != 1 || v.data == nullptr) return std::nullopt;
  if (v.dtype == DType::Int64 && v.nbytes == 8) {
    int64_t x;
    std::memcpy(&x, v.data, 8);
    return x;
  }
  if (v.dtype == DType::Int32 && v.nbytes == 4) {
    int32_t x;
    std::memcpy(&x, v.data, 4);
    return x;
  }
  return std::nullopt;
}

HostInput integer_input(DType dtype, const std::vector<int64_t>& shape, int64_t value) {
  auto bytes = std::make_shared<std::vector<uint8_t>>(dtype_size(dtype));
  if (dtype == DType::Int64) {
    std::memcpy(bytes->data(), &value, 8);
  } else {
    int32_t narrow = static_cast<int32_t>(value);
    std::memcpy(bytes->data(), &narrow, 4);
  }
  return HostInput{dtype, shape, std::move(bytes)};
}

// The shape the fed input takes for `count` elements: this call's shape when
// the count is the same, else with its one dynamic dimension taking the rest.
std::optional<std::vector<int64_t>> fed_shape(const RunAheadPlan::Feed& feed,
                                              std::vector<int64_t> shape, int64_t count) {
  if (element_count(shape) == count) return shape;
  int dynamic = -1;
  int64_t rest = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < feed.dynamic.size() && feed.dynamic[d]) {
      if (dynamic >= 0) return std::nullopt;  // two could take it: no single prediction
      dynamic = static_cast<int>(d);
    } else {
      rest *= shape[d];
    }
  }
  if (dynamic < 0 || rest == 0 || count % rest != 0) return std::nullopt;
  shape[dynamic] = count / rest;
  return shape;
}

}  // namespace

RunAheadPlan::RunAheadPlan(const RunAhead& table, const MLXGraph& graph) {
  auto tensor_meta = [&](const SlotRef& ref) -> const TensorMeta* {
    return graph.tensor_meta.empty() ? nullptr : &graph.tensor_meta.at(ref.idx);
  };
  auto input = [&](uint32_t i, const char* role) -> const SlotRef& {
    if (i >= graph.input_map.size()) {
      throw LoadError(std::string("run_ahead: ") + role + " input " + std::to_string(i) + " of " +
                      std::to_string(graph.input_map.size()));
    }
    return graph.input_map[i];
  };
  for (const auto& out : graph.output_map) {
    if (out.kind != ir::SlotKind_Tensor)
      throw LoadError("run_ahead: the program has a value output");
  }
  if (table.fed_inputs.size() != table.fed_from_outputs.size()) {
    throw LoadError("run_ahead: " + std::to_string(table.fed_inputs.size()) + " fed inputs, " +
                    std::to_string(table.fed_from_outputs.size()) + " outputs to feed them");
  }
  for (size_t f = 0; f < table.fed_inputs.size(); ++f) {
    const SlotRef& in = input(table.fed_inputs[f], "fed");
    uint32_t o = table.fed_from_outputs[f];
    if (o >= graph.output_map.size()) {
      throw LoadError("run_ahead: feeds from output " + std::to_string(o) + " of " +
                      std::to_string(graph.output_map.size()));
    }
    if (in.kind != ir::SlotKind_Tensor) throw LoadError("run_ahead: a fed input is a value slot");
    Feed feed{table.fed_inputs[f], o, {}};
    const TensorMeta* meta = tensor_meta(in);
    const TensorMeta* out_meta = tensor_meta(graph.output_map[o]);
    if (meta && out_meta && meta->dtype != out_meta->dtype) {
      throw LoadError("run_ahead: input " + std::to_string(feed.input) + " is fed from output " +
                      std::to_string(o) + " of another dtype");
    }
    if (meta) {
      for (const auto& d : meta->shape) feed.dynamic.push_back(d.vid.has_value() || d.literal < 0);
    }
    feeds_.push_back(std::move(feed));
  }
  for (uint32_t i : table.advanced_inputs) {
    const TensorMeta* meta = tensor_meta(input(i, "advanced"));
    if (meta) {
      auto dtype = static_cast<DType>(meta->dtype);
      if (dtype != DType::Int64 && dtype != DType::Int32) {
        throw LoadError("run_ahead: advanced input " + std::to_string(i) + " is not an integer");
      }
    }
    advanced_.push_back(i);
  }
  if (!advanced_.empty() && feeds_.empty()) {
    throw LoadError("run_ahead: inputs advance by a fed input's length, and none is fed");
  }
}

bool HostInput::equals(const TensorView& v) const {
  return v.dtype == dtype && v.shape == shape && v.nbytes == bytes->size() &&
         (bytes->empty() || std::memcmp(v.data, bytes->data(), bytes->size()) == 0);
}

mx::array HostInput::to_array() const {
  // MLX adopts the bytes or copies them; the deleter keeps them alive until
  // it no longer needs them either way.
  auto keep = bytes;
  mx::Shape mlx_shape(shape.begin(), shape.end());
  return mx::array(bytes->data(), std::move(mlx_shape), to_mlx(dtype), [keep](void*) {});
}

std::optional<Prediction> Prediction::after(const RunAheadPlan& plan,
                                            const std::vector<TensorView>& inputs,
                                            const std::vector<std::optional<mx::array>>& outputs) {
  Prediction p;
  p.plan_ = &plan;
  p.inputs_.resize(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) p.inputs_[i] = copy_of(inputs[i]);
  int64_t taken = 0;
  for (size_t f = 0; f < plan.feeds().size(); ++f) {
    const auto& feed = plan.feeds()[f];
    const mx::array& out = *outputs.at(feed.output);
    auto shape = fed_shape(feed, inputs[feed.input].shape, static_cast<int64_t>(out.size()));
    if (!shape) return std::nullopt;
    if (f == 0) taken = element_count(inputs[feed.input].shape);
    p.inputs_[feed.input].reset();  // known once `out` is on the host
    p.fed_.emplace_back(feed.input, mx::reshape(out, mx::Shape(shape->begin(), shape->end())));
  }
  for (uint32_t i : plan.advanced()) {
    std::optional<int64_t> now = integer_of(inputs[i]);
    if (!now) return std::nullopt;
    p.inputs_[i] = integer_input(inputs[i].dtype, inputs[i].shape, *now + taken);
  }
  return p;
}

void Prediction::take_outputs(const std::vector<OutputBuffer>& outputs) {
  for (const auto& feed : plan_->feeds()) {
    const OutputBuffer& out = outputs.at(feed.output);
    const auto* data = static_cast<const uint8_t*>(out.data);
    std::vector<int64_t> shape;
    for (const auto& [input, array] : fed_) {
      if (input == feed.input) shape.assign(array.shape().begin(), array.shape().end());
    }
    inputs_[feed.input] =
        HostInput{out.dtype, std::move(shape),
                  std::make_shared<std::vector<uint8_t>>(data, data + out.nbytes)};
  }
}

bool Prediction::matches(const std::vector<TensorView>& inputs) const {
  if (inputs.size() != inputs_.size()) return false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs_[i] || !inputs_[i]->equals(inputs[i])) return false;
  }
  return true;
}

bool run_ahead_enabled() {
  static const bool enabled = [] {
    const char* env = std::getenv("MLX_DELEGATE_RUN_AHEAD");
    return env == nullptr || std::strcmp(env, "0") != 0;
  }();
  return enabled;
}

}  // namespace mlxd::plugin
