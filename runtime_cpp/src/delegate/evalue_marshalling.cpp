// EValue marshalling of the delegate: ExecuTorch arguments to plugin views and results back.
#include "evalue_marshalling.h"

#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <cstring>

#include "delegate_log.h"
#include "dtype_map.h"

namespace et = executorch::runtime;

namespace mlxd::delegate {

namespace {

const char* tag_name(const et::EValue& v) {
  if (v.isNone()) return "None";
  if (v.isTensor()) return "Tensor";
  if (v.isInt()) return "Int";
  if (v.isDouble()) return "Double";
  if (v.isBool()) return "Bool";
  if (v.isString()) return "String";
  if (v.isIntList()) return "IntList";
  if (v.isTensorList()) return "TensorList";
  return "other";
}

bool default_dim_order(const executorch::aten::Tensor& t) {
  auto order = t.dim_order();
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] != static_cast<executorch::aten::DimOrderType>(i)) return false;
  }
  return true;
}

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// Brings an output tensor to the backend's result (dtype checked, shape
// resized within the memory-planned bound, size checked); false with the
// reason otherwise.
bool fit_output(executorch::aten::Tensor t, DType dtype, const std::vector<int64_t>& shape,
                size_t nbytes, std::string* why) {
  DType expected = DType::Float32;
  to_ir_dtype(t.scalar_type(), &expected);
  if (dtype != expected) {
    *why = std::string("backend produced ") + dtype_name(dtype) + ", the program expects " +
           dtype_name(expected);
    return false;
  }
  if (shape.size() != static_cast<size_t>(t.dim())) {
    *why = "backend produced rank " + std::to_string(shape.size()) + ", the program expects " +
           std::to_string(t.dim());
    return false;
  }
  bool same = true;
  for (size_t d = 0; same && d < shape.size(); ++d) {
    same = shape[d] == static_cast<int64_t>(t.size(static_cast<ssize_t>(d)));
  }
  if (!same) {
    et::Error err = et::resize_tensor(t, et::ArrayRef<int64_t>(shape.data(), shape.size()));
    if (err != et::Error::Ok) {
      *why = "cannot resize the output tensor to " + shape_string(shape) +
             " (beyond its memory-planned upper bound?), error " +
             std::to_string(static_cast<unsigned>(err));
      return false;
    }
  }
  if (nbytes != t.nbytes()) {
    *why = std::to_string(nbytes) + " bytes for a tensor of " + std::to_string(t.nbytes());
    return false;
  }
  return true;
}

// Logs why an argument cannot go to the plugin: it is missing, or neither a tensor nor a scalar.
et::Error unsupported_argument(const char* role, size_t index, const et::EValue* v) {
  if (v == nullptr) {
    MLXD_LOG(error, "MLXDelegateBackend: %s %zu is NULL", role, index);
  } else {
    MLXD_LOG(error, "MLXDelegateBackend: %s %zu is a %s; expected a tensor or a scalar", role,
             index, tag_name(*v));
  }
  return et::Error::InvalidArgument;
}

// The tensor's DType; false (logged) for an element type the IR has none for.
bool ir_dtype_of(const char* role, size_t index, const executorch::aten::Tensor& t, DType* dtype) {
  if (to_ir_dtype(t.scalar_type(), dtype)) return true;
  MLXD_LOG(error, "MLXDelegateBackend: %s %zu has unsupported dtype %d", role, index,
           static_cast<int>(t.scalar_type()));
  return false;
}

template <class T>
void view_scalar(T x, DType dtype, std::array<uint8_t, 8>& cell, TensorView& view) {
  std::memcpy(cell.data(), &x, sizeof x);
  view.dtype = dtype;
  view.nbytes = sizeof x;
  view.data = cell.data();
}

// A scalar result stored as `Stored`, as the EValue type that holds it (int64_t, double).
template <class Stored, class Widened>
et::EValue scalar_evalue(const uint8_t* cell) {
  Stored x;
  std::memcpy(&x, cell, sizeof x);
  return et::EValue(Widened{x});
}

}  // namespace

void EValueMarshaller::set_signature(size_t num_inputs, size_t num_outputs) {
  num_inputs_ = num_inputs;
  num_outputs_ = num_outputs;
  output_capacity_.assign(num_outputs, 0);
}

et::Error EValueMarshaller::bind(et::Span<et::EValue*> args) {
  args_ = args;
  inputs_.resize(num_inputs_);
  scalar_in_.resize(num_inputs_);
  for (size_t i = 0; i < num_inputs_; ++i) {
    et::Error err = bind_input(i, args[i]);
    if (err != et::Error::Ok) return err;
  }
  outputs_.resize(num_outputs_);
  scalar_out_.resize(num_outputs_);
  output_errors_.assign(num_outputs_, std::string());
  for (size_t j = 0; j < num_outputs_; ++j) {
    et::Error err = bind_output(j, args[num_inputs_ + j]);
    if (err != et::Error::Ok) return err;
  }
  return et::Error::Ok;
}

et::Error EValueMarshaller::bind_input(size_t i, const et::EValue* v) {
  TensorView& view = inputs_[i];
  view.shape.clear();
  if (v == nullptr) return unsupported_argument("input", i, v);
  if (v->isTensor()) {
    const auto& t = v->toTensor();
    if (!ir_dtype_of("input", i, t, &view.dtype)) return et::Error::InvalidArgument;
    if (!default_dim_order(t)) {
      MLXD_LOG(error, "MLXDelegateBackend: input %zu is not in contiguous (default) dim order", i);
      return et::Error::InvalidArgument;
    }
    for (auto s : t.sizes()) view.shape.push_back(static_cast<int64_t>(s));
    view.data = t.const_data_ptr();
    view.nbytes = t.nbytes();
    return et::Error::Ok;
  }
  // Scalars (symbolic sizes and other non-tensor inputs) go to the plugin
  // as rank-0 host tensors: Int → int64, Double → float64, Bool → bool.
  if (v->isInt()) {
    view_scalar<int64_t>(v->toInt(), DType::Int64, scalar_in_[i], view);
  } else if (v->isDouble()) {
    view_scalar<double>(v->toDouble(), DType::Float64, scalar_in_[i], view);
  } else if (v->isBool()) {
    view_scalar<uint8_t>(v->toBool() ? 1 : 0, DType::Bool, scalar_in_[i], view);
  } else {
    return unsupported_argument("input", i, v);
  }
  return et::Error::Ok;
}

et::Error EValueMarshaller::bind_output(size_t j, et::EValue* v) {
  OutputBuffer& out = outputs_[j];
  out.shape.clear();
  out.nbytes = 0;
  if (v == nullptr) return unsupported_argument("output", j, v);
  if (v->isTensor()) {
    const auto& t = v->toTensor();
    if (!ir_dtype_of("output", j, t, &out.dtype)) return et::Error::InvalidArgument;
    if (t.nbytes() > output_capacity_[j]) output_capacity_[j] = t.nbytes();
    out.data = t.mutable_data_ptr();
    out.capacity = out.data == nullptr ? 0 : output_capacity_[j];
    // Dynamic shapes: resize the ExecuTorch tensor to the result before
    // the backend copies into it (prepare_output). The callable is made once
    // per program; it reaches this call's tensor through args_.
    if (!out.prepare) {
      out.prepare = [this, j](DType dtype, const std::vector<int64_t>& shape, size_t nbytes) {
        return prepare_output(j, dtype, shape, nbytes);
      };
    }
  } else if (v->isInt() || v->isDouble() || v->isBool()) {
    out.data = scalar_out_[j].data();
    out.capacity = 8;
    out.prepare = nullptr;  // the backend writes the cell
  } else {
    return unsupported_argument("output", j, v);
  }
  return et::Error::Ok;
}

void* EValueMarshaller::prepare_output(size_t j, DType dtype, const std::vector<int64_t>& shape,
                                       size_t nbytes) {
  OutputBuffer& out = outputs_[j];
  executorch::aten::Tensor t = args_[num_inputs_ + j]->toTensor();
  std::string why;
  if (!fit_output(t, dtype, shape, nbytes, &why)) {
    // capacity 0 makes the backend fail the call; log_output_errors() says why.
    output_errors_[j] = why;
    out.data = nullptr;
    out.capacity = 0;
    return nullptr;
  }
  return t.mutable_data_ptr();
}

void EValueMarshaller::log_output_errors() const {
  for (size_t j = 0; j < num_outputs_; ++j) {
    if (!output_errors_[j].empty()) {
      MLXD_LOG(error, "MLXDelegateBackend:   output %zu: %s", j, output_errors_[j].c_str());
    }
  }
}

et::Error EValueMarshaller::collect_outputs(et::Span<et::EValue*> args) {
  for (size_t j = 0; j < num_outputs_; ++j) {
    et::Error err = collect_output(j, args[num_inputs_ + j]);
    if (err != et::Error::Ok) return err;
  }
  return et::Error::Ok;
}

et::Error EValueMarshaller::collect_output(size_t j, et::EValue* v) {
  const OutputBuffer& out = outputs_[j];
  if (v->isTensor()) {
    // Already fitted when the backend called prepare; otherwise (a
    // backend writing within `capacity`) the resize happens here, the
    // data pointer staying the same.
    std::string why;
    if (!fit_output(v->toTensor(), out.dtype, out.shape, out.nbytes, &why)) {
      MLXD_LOG(error, "MLXDelegateBackend: output %zu: %s", j, why.c_str());
      return et::Error::InvalidState;
    }
    return et::Error::Ok;
  }
  if (!out.shape.empty() || out.nbytes == 0 || out.nbytes > 8) {
    MLXD_LOG(error,
             "MLXDelegateBackend: output %zu is a scalar, the backend produced a tensor "
             "of shape %s",
             j, shape_string(out.shape).c_str());
    return et::Error::InvalidState;
  }
  const uint8_t* cell = scalar_out_[j].data();
  switch (out.dtype) {
    case DType::Int64:
      *v = scalar_evalue<int64_t, int64_t>(cell);
      return et::Error::Ok;
    case DType::Int32:
      *v = scalar_evalue<int32_t, int64_t>(cell);
      return et::Error::Ok;
    case DType::Float64:
      *v = scalar_evalue<double, double>(cell);
      return et::Error::Ok;
    case DType::Float32:
      *v = scalar_evalue<float, double>(cell);
      return et::Error::Ok;
    case DType::Bool:
      *v = et::EValue(cell[0] != 0);
      return et::Error::Ok;
    default:
      MLXD_LOG(error, "MLXDelegateBackend: output %zu: scalar of dtype %s not supported", j,
               dtype_name(out.dtype));
      return et::Error::InvalidState;
  }
}

}  // namespace mlxd::delegate
