// The ExecuTorch delegate backend "MLXDelegateBackend": checks the payload,
// picks a backend plugin and device through the host registry, and forwards
// program loading and execution to the plugin. Links no MLX.
//
// Device selection, first match wins:
//   1. the load-time runtime spec "device" (LoadBackendOptionsMap, e.g. from
//      mlxd-run --device),
//   2. the process-wide override set through
//      executorch::runtime::set_option("MLXDelegateBackend", {"device": ...})
//      or mlxd_delegate_set_device(),
//   3. the environment variable MLX_DELEGATE_DEVICE,
//   4. the compile spec "device" written at export time,
//   5. the default: the first GPU when a GPU backend is loaded, else the CPU.
// "auto" (or an empty value) at any level means "no preference here". When
// the device comes from the compile spec or the default and no backend owns
// it, a GPU request falls back to the CPU with a warning; from levels 1 to 3 it
// is an error.
//
// Logging: errors always go through ET_LOG; MLX_DELEGATE_LOG=1 also logs each
// program's device choice, constants and per-execute timing.
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/platform/log.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dtype_map.h"
#include "mlx_delegate/backend_interface.h"
#include "mlx_delegate/registry.h"
#include "payload.h"

namespace et = executorch::runtime;

namespace mlxd::delegate {

namespace {

bool verbose() {
  static const bool on = [] {
    const char* v = std::getenv("MLX_DELEGATE_LOG");
    return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
  }();
  return on;
}

#define MLXD_VLOG(...)                        \
  do {                                        \
    if (verbose()) ET_LOG(Info, __VA_ARGS__); \
  } while (0)

// The process-wide device override (level 2 above).
std::mutex g_override_mu;
std::string g_device_override;

std::string device_override() {
  std::lock_guard<std::mutex> lock(g_override_mu);
  return g_device_override;
}

void set_device_override(std::string value) {
  std::lock_guard<std::mutex> lock(g_override_mu);
  g_device_override = std::move(value);
}

bool no_preference(const std::string& s) { return s.empty() || s == "auto"; }

// Loads the plugins once (unless the application already loaded some, e.g.
// through mlx_delegate.backends.load_all with a filter). Returns false when
// no backend is available, after logging why.
bool ensure_backends_loaded() {
  static std::mutex mu;
  static bool tried = false;
  std::lock_guard<std::mutex> lock(mu);
  auto& registry = BackendRegistry::instance();
  if (!registry.backends().empty()) return true;
  if (!tried) {
    tried = true;
    try {
      int n = registry.load_all();
      MLXD_VLOG("MLXDelegateBackend: loaded %d backend plugin(s)", n);
    } catch (const std::exception& e) {
      ET_LOG(Error, "MLXDelegateBackend: loading backend plugins failed: %s", e.what());
    }
    if (registry.backends().empty()) {
      std::string paths;
      for (const auto& p : registry.search_paths()) paths += (paths.empty() ? "" : ":") + p;
      ET_LOG(Error, "MLXDelegateBackend: no MLX backend plugin loaded (search paths: %s)",
             paths.empty() ? "<none>" : paths.c_str());
      for (const auto& c : registry.report()) {
        if (!c.loaded) {
          ET_LOG(Error, "MLXDelegateBackend:   %s: %s: %s", c.path.c_str(), reason_name(c.reason),
                 c.message.c_str());
        }
      }
    }
  }
  return !registry.backends().empty();
}

std::string spec_string(const et::CompileSpec& spec) {
  const char* p = static_cast<const char*>(spec.value.buffer);
  size_t n = p == nullptr ? 0 : spec.value.nbytes;
  while (n > 0 && p[n - 1] == '\0') --n;  // tolerate a NUL-terminated value
  return std::string(p == nullptr ? "" : p, n);
}

struct DeviceChoice {
  std::string spec;     // as requested ("" = default)
  std::string source;   // "runtime spec", "set_option", "MLX_DELEGATE_DEVICE", ...
  bool strict = false;  // an error (not a fallback) when no backend owns it
};

DeviceChoice choose_device_spec(et::BackendInitContext& context,
                                et::ArrayRef<et::CompileSpec> compile_specs) {
  auto runtime = context.get_runtime_spec<const char*>("device");
  if (runtime.ok() && runtime.get() != nullptr && !no_preference(runtime.get())) {
    return {runtime.get(), "runtime spec", true};
  }
  std::string o = device_override();
  if (!no_preference(o)) return {o, "set_option", true};
  const char* env = std::getenv("MLX_DELEGATE_DEVICE");
  if (env != nullptr && !no_preference(env)) return {env, "MLX_DELEGATE_DEVICE", true};
  for (const auto& spec : compile_specs) {
    if (spec.key != nullptr && std::strcmp(spec.key, "device") == 0) {
      std::string v = spec_string(spec);
      if (!no_preference(v)) return {v, "compile spec", false};
    }
  }
  return {"", "default", false};
}

// One delegated program (the DelegateHandle).
struct MlxDelegateProgram {
  BackendInterface* backend = nullptr;
  std::string backend_name;
  Device device;
  int local_index = 0;

  // Named-data buffers handed to the plugin zero-copy; they must outlive
  // `program` (members are destroyed in reverse order).
  std::vector<et::FreeableBuffer> constants;
  std::unordered_map<std::string, size_t> constant_index;

  std::unique_ptr<ProgramHandle> program;
  size_t num_inputs = 0;
  size_t num_outputs = 0;

  std::mutex mu;
  // Byte capacity of each output tensor's buffer when the plugin writes
  // without calling OutputBuffer::prepare: the largest nbytes() seen, which
  // is the memory-planned upper bound on the first execute (ExecuTorch does
  // not expose a tensor's capacity).
  std::vector<size_t> output_capacity;
  // Why OutputBuffer::prepare refused an output on the current call.
  std::vector<std::string> output_errors;
  // Per-call scratch, kept to avoid reallocation.
  std::vector<TensorView> inputs;
  std::vector<OutputBuffer> outputs;
  std::vector<std::array<uint8_t, 8>> scalar_in;
  std::vector<std::array<uint8_t, 8>> scalar_out;
};

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

class MlxDelegateBackend final : public et::BackendInterface {
 public:
  bool is_available() const override { return ensure_backends_loaded(); }

  et::Result<et::DelegateHandle*> init(et::BackendInitContext& context,
                                       et::FreeableBuffer* processed,
                                       et::ArrayRef<et::CompileSpec> compile_specs) const override {
    if (processed == nullptr) {
      ET_LOG(Error, "MLXDelegateBackend: no payload");
      return et::Error::InvalidProgram;
    }
    PayloadLayout layout;
    std::string why;
    if (!check_payload(processed->data(), processed->size(), &layout, &why)) {
      ET_LOG(Error, "MLXDelegateBackend: rejected payload (%zu bytes): %s", processed->size(),
             why.c_str());
      return et::Error::InvalidProgram;
    }
    if (!ensure_backends_loaded()) return et::Error::NotFound;

    auto handle = std::make_unique<MlxDelegateProgram>();
    auto& registry = BackendRegistry::instance();
    DeviceChoice choice = choose_device_spec(context, compile_specs);
    try {
      if (no_preference(choice.spec)) {
        handle->device = registry.is_available(DeviceType::gpu) ? Device{DeviceType::gpu, 0}
                                                                : Device{DeviceType::cpu, 0};
      } else {
        handle->device = parse_device(choice.spec);
      }
    } catch (const std::exception& e) {
      ET_LOG(Error, "MLXDelegateBackend: bad device '%s' (from %s): %s", choice.spec.c_str(),
             choice.source.c_str(), e.what());
      return et::Error::InvalidArgument;
    }
    const LoadedBackend* owner = nullptr;
    try {
      owner = &registry.resolve(handle->device, &handle->local_index);
    } catch (const std::exception& e) {
      if (choice.strict || handle->device.type == DeviceType::cpu) {
        ET_LOG(Error, "MLXDelegateBackend: device %s (from %s): %s",
               to_string(handle->device).c_str(), choice.source.c_str(), e.what());
        return et::Error::NotFound;
      }
      ET_LOG(Info, "MLXDelegateBackend: device %s (from %s) unavailable (%s); using cpu",
             to_string(handle->device).c_str(), choice.source.c_str(), e.what());
      handle->device = Device{DeviceType::cpu, 0};
      try {
        owner = &registry.resolve(handle->device, &handle->local_index);
      } catch (const std::exception& e2) {
        ET_LOG(Error, "MLXDelegateBackend: %s", e2.what());
        return et::Error::NotFound;
      }
    }
    handle->backend = owner->backend;
    handle->backend_name = owner->info.name;

    // Constants resolve through the named data map, zero-copy: the plugin
    // gets the FreeableBuffer's pointer, kept alive by the handle.
    const et::NamedDataMap* named = context.get_named_data_map();
    MlxDelegateProgram* h = handle.get();
    ConstantResolver resolver = [h, named](const std::string& name, ConstantBuffer& out) {
      auto it = h->constant_index.find(name);
      if (it == h->constant_index.end()) {
        if (named == nullptr) {
          ET_LOG(Error,
                 "MLXDelegateBackend: constant '%s' requested but the program has no "
                 "named data map",
                 name.c_str());
          return false;
        }
        auto data = named->get_data(std::string_view(name));
        if (!data.ok()) {
          ET_LOG(Error, "MLXDelegateBackend: constant '%s' not in the named data map (error 0x%x)",
                 name.c_str(), static_cast<unsigned>(data.error()));
          return false;
        }
        h->constants.push_back(std::move(data.get()));
        it = h->constant_index.emplace(name, h->constants.size() - 1).first;
      }
      const et::FreeableBuffer& buf = h->constants[it->second];
      out.data = buf.data();
      out.nbytes = buf.size();
      return true;
    };

    auto start = std::chrono::steady_clock::now();
    try {
      handle->program = handle->backend->load_program(
          handle->local_index, static_cast<const uint8_t*>(processed->data()), processed->size(),
          resolver);
    } catch (const std::exception& e) {
      ET_LOG(Error, "MLXDelegateBackend: backend '%s' rejected the program on %s: %s",
             handle->backend_name.c_str(), to_string(handle->device).c_str(), e.what());
      return et::Error::InvalidProgram;
    } catch (...) {
      ET_LOG(Error, "MLXDelegateBackend: backend '%s' failed to load the program (unknown error)",
             handle->backend_name.c_str());
      return et::Error::InvalidProgram;
    }
    if (!handle->program) {
      ET_LOG(Error, "MLXDelegateBackend: backend '%s' returned no program",
             handle->backend_name.c_str());
      return et::Error::InvalidProgram;
    }
    handle->num_inputs = handle->program->num_inputs();
    handle->num_outputs = handle->program->num_outputs();
    handle->output_capacity.assign(handle->num_outputs, 0);
    // The plugin keeps what it needs; the payload is no longer used.
    processed->Free();
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    MLXD_VLOG(
        "MLXDelegateBackend: method '%s' on %s (backend %s, local device %d, device from "
        "%s): %zu inputs, %zu outputs, %zu named constants, loaded in %.2f ms",
        context.get_method_name() ? context.get_method_name() : "?",
        to_string(handle->device).c_str(), handle->backend_name.c_str(), handle->local_index,
        choice.source.c_str(), handle->num_inputs, handle->num_outputs, handle->constants.size(),
        ms);
    return static_cast<et::DelegateHandle*>(handle.release());
  }

  et::Error execute(et::BackendExecutionContext& /*context*/, et::DelegateHandle* raw,
                    et::Span<et::EValue*> args) const override {
    if (raw == nullptr) return et::Error::InvalidState;
    auto& h = *static_cast<MlxDelegateProgram*>(raw);
    std::lock_guard<std::mutex> lock(h.mu);
    if (args.size() != h.num_inputs + h.num_outputs) {
      ET_LOG(Error, "MLXDelegateBackend: %zu arguments, expected %zu inputs + %zu outputs",
             args.size(), h.num_inputs, h.num_outputs);
      return et::Error::InvalidArgument;
    }
    auto start = std::chrono::steady_clock::now();
    h.inputs.resize(h.num_inputs);
    h.scalar_in.resize(h.num_inputs);
    for (size_t i = 0; i < h.num_inputs; ++i) {
      const et::EValue* v = args[i];
      TensorView& view = h.inputs[i];
      view.shape.clear();
      if (v == nullptr) {
        ET_LOG(Error, "MLXDelegateBackend: input %zu is NULL", i);
        return et::Error::InvalidArgument;
      }
      if (v->isTensor()) {
        const auto& t = v->toTensor();
        if (!to_ir_dtype(t.scalar_type(), &view.dtype)) {
          ET_LOG(Error, "MLXDelegateBackend: input %zu has unsupported dtype %d", i,
                 static_cast<int>(t.scalar_type()));
          return et::Error::InvalidArgument;
        }
        if (!default_dim_order(t)) {
          ET_LOG(Error, "MLXDelegateBackend: input %zu is not in contiguous (default) dim order",
                 i);
          return et::Error::InvalidArgument;
        }
        for (auto s : t.sizes()) view.shape.push_back(static_cast<int64_t>(s));
        view.data = t.const_data_ptr();
        view.nbytes = t.nbytes();
        continue;
      }
      // Scalars (symbolic sizes and other non-tensor inputs) go to the plugin
      // as rank-0 host tensors: Int → int64, Double → float64, Bool → bool.
      auto& cell = h.scalar_in[i];
      if (v->isInt()) {
        int64_t x = v->toInt();
        std::memcpy(cell.data(), &x, sizeof x);
        view.dtype = DType::Int64;
        view.nbytes = sizeof x;
      } else if (v->isDouble()) {
        double x = v->toDouble();
        std::memcpy(cell.data(), &x, sizeof x);
        view.dtype = DType::Float64;
        view.nbytes = sizeof x;
      } else if (v->isBool()) {
        cell[0] = v->toBool() ? 1 : 0;
        view.dtype = DType::Bool;
        view.nbytes = 1;
      } else {
        ET_LOG(Error, "MLXDelegateBackend: input %zu is a %s; expected a tensor or a scalar", i,
               tag_name(*v));
        return et::Error::InvalidArgument;
      }
      view.data = cell.data();
    }

    h.outputs.resize(h.num_outputs);
    h.scalar_out.resize(h.num_outputs);
    h.output_errors.assign(h.num_outputs, std::string());
    for (size_t j = 0; j < h.num_outputs; ++j) {
      et::EValue* v = args[h.num_inputs + j];
      OutputBuffer& out = h.outputs[j];
      out.shape.clear();
      out.nbytes = 0;
      if (v == nullptr) {
        ET_LOG(Error, "MLXDelegateBackend: output %zu is NULL", j);
        return et::Error::InvalidArgument;
      }
      if (v->isTensor()) {
        const auto& t = v->toTensor();
        if (!to_ir_dtype(t.scalar_type(), &out.dtype)) {
          ET_LOG(Error, "MLXDelegateBackend: output %zu has unsupported dtype %d", j,
                 static_cast<int>(t.scalar_type()));
          return et::Error::InvalidArgument;
        }
        if (t.nbytes() > h.output_capacity[j]) h.output_capacity[j] = t.nbytes();
        out.data = t.mutable_data_ptr();
        out.capacity = out.data == nullptr ? 0 : h.output_capacity[j];
        // Dynamic shapes: resize the ExecuTorch tensor to the result before
        // the backend copies into it. On a mismatch, capacity 0 makes the
        // backend fail the call; the reason is logged below.
        out.prepare = [&h, &out, v, j](DType dtype, const std::vector<int64_t>& shape,
                                       size_t nbytes) -> void* {
          std::string why;
          if (!fit_output(v->toTensor(), dtype, shape, nbytes, &why)) {
            h.output_errors[j] = why;
            out.data = nullptr;
            out.capacity = 0;
            return nullptr;
          }
          return v->toTensor().mutable_data_ptr();
        };
      } else if (v->isInt() || v->isDouble() || v->isBool()) {
        out.data = h.scalar_out[j].data();
        out.capacity = 8;
        out.prepare = nullptr;
      } else {
        ET_LOG(Error, "MLXDelegateBackend: output %zu is a %s; expected a tensor or a scalar", j,
               tag_name(*v));
        return et::Error::InvalidArgument;
      }
    }

    try {
      h.backend->execute(*h.program, h.inputs, h.outputs);
    } catch (const std::exception& e) {
      ET_LOG(Error, "MLXDelegateBackend: execution on %s (backend %s) failed: %s",
             to_string(h.device).c_str(), h.backend_name.c_str(), e.what());
      for (size_t j = 0; j < h.num_outputs; ++j) {
        if (!h.output_errors[j].empty()) {
          ET_LOG(Error, "MLXDelegateBackend:   output %zu: %s", j, h.output_errors[j].c_str());
        }
      }
      return et::Error::Internal;
    } catch (...) {
      ET_LOG(Error, "MLXDelegateBackend: execution on %s (backend %s) failed (unknown error)",
             to_string(h.device).c_str(), h.backend_name.c_str());
      return et::Error::Internal;
    }

    for (size_t j = 0; j < h.num_outputs; ++j) {
      et::EValue* v = args[h.num_inputs + j];
      const OutputBuffer& out = h.outputs[j];
      if (v->isTensor()) {
        // Already fitted when the backend called prepare; otherwise (a
        // backend writing within `capacity`) the resize happens here, the
        // data pointer staying the same.
        std::string why;
        if (!fit_output(v->toTensor(), out.dtype, out.shape, out.nbytes, &why)) {
          ET_LOG(Error, "MLXDelegateBackend: output %zu: %s", j, why.c_str());
          return et::Error::InvalidState;
        }
        continue;
      }
      if (!out.shape.empty() || out.nbytes == 0 || out.nbytes > 8) {
        ET_LOG(Error,
               "MLXDelegateBackend: output %zu is a scalar, the backend produced a tensor "
               "of shape %s",
               j, shape_string(out.shape).c_str());
        return et::Error::InvalidState;
      }
      const uint8_t* cell = h.scalar_out[j].data();
      switch (out.dtype) {
        case DType::Int64: {
          int64_t x;
          std::memcpy(&x, cell, 8);
          *v = et::EValue(x);
          break;
        }
        case DType::Int32: {
          int32_t x;
          std::memcpy(&x, cell, 4);
          *v = et::EValue(int64_t{x});
          break;
        }
        case DType::Float64: {
          double x;
          std::memcpy(&x, cell, 8);
          *v = et::EValue(x);
          break;
        }
        case DType::Float32: {
          float x;
          std::memcpy(&x, cell, 4);
          *v = et::EValue(double{x});
          break;
        }
        case DType::Bool:
          *v = et::EValue(cell[0] != 0);
          break;
        default:
          ET_LOG(Error, "MLXDelegateBackend: output %zu: scalar of dtype %s not supported", j,
                 dtype_name(out.dtype));
          return et::Error::InvalidState;
      }
    }
    MLXD_VLOG("MLXDelegateBackend: execute on %s: %.3f ms", to_string(h.device).c_str(),
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                  .count());
    return et::Error::Ok;
  }

  void destroy(et::DelegateHandle* raw) const override {
    delete static_cast<MlxDelegateProgram*>(raw);
  }

  et::Error set_option(et::BackendOptionContext& /*context*/,
                       const et::Span<et::BackendOption>& options) override {
    for (const auto& opt : options) {
      if (std::strcmp(opt.key, "device") != 0) {
        ET_LOG(Error, "MLXDelegateBackend: unknown option '%s' (known: device)", opt.key);
        return et::Error::InvalidArgument;
      }
      const auto* text = std::get_if<std::array<char, et::kMaxOptionValueLength>>(&opt.value);
      if (text == nullptr) {
        ET_LOG(Error, "MLXDelegateBackend: option 'device' takes a string");
        return et::Error::InvalidArgument;
      }
      std::string value(text->data());
      if (!no_preference(value)) {
        try {
          parse_device(value);
        } catch (const std::exception& e) {
          ET_LOG(Error, "MLXDelegateBackend: bad device '%s': %s", value.c_str(), e.what());
          return et::Error::InvalidArgument;
        }
      }
      set_device_override(value);
    }
    return et::Error::Ok;
  }

  et::Error get_option(et::BackendOptionContext& /*context*/,
                       et::Span<et::BackendOption>& options) override {
    for (auto& opt : options) {
      if (std::strcmp(opt.key, "device") == 0) {
        std::array<char, et::kMaxOptionValueLength> value{};
        std::string o = device_override();
        std::strncpy(value.data(), o.c_str(), value.size() - 1);
        opt.value = value;
      }
    }
    return et::Error::Ok;
  }
};

MlxDelegateBackend g_backend;
const et::Error g_registered = et::register_backend(et::Backend{payload::kBackendId, &g_backend});

}  // namespace

}  // namespace mlxd::delegate

// C entry points for FFI callers (ctypes) and the runner.
extern "C" {

// The backend id ("MLXDelegateBackend").
__attribute__((visibility("default"))) const char* mlxd_delegate_backend_id(void) {
  return mlxd::payload::kBackendId;
}

// 1 when this library's backend is the one ExecuTorch resolves for the id.
__attribute__((visibility("default"))) int mlxd_delegate_registered(void) {
  return mlxd::delegate::g_registered == executorch::runtime::Error::Ok &&
                 executorch::runtime::get_backend_class(mlxd::payload::kBackendId) ==
                     &mlxd::delegate::g_backend
             ? 1
             : 0;
}

// Sets (or, with NULL / "" / "auto", clears) the process-wide device override;
// 0 on success, -1 for a malformed device string.
__attribute__((visibility("default"))) int mlxd_delegate_set_device(const char* device) {
  std::string value = device == nullptr ? "" : device;
  if (!mlxd::delegate::no_preference(value)) {
    try {
      mlxd::parse_device(value);
    } catch (const std::exception&) {
      return -1;
    }
  }
  mlxd::delegate::set_device_override(value);
  return 0;
}

// 1 when the payload checker also verifies the FlatBuffer.
__attribute__((visibility("default"))) int mlxd_delegate_verifies_flatbuffer(void) {
  return mlxd::delegate::payload_verifier_compiled_in() ? 1 : 0;
}

// Checks a payload as init() does (header, bounds, FlatBuffer); 0 if valid,
// -1 otherwise with the reason copied into `error` (may be NULL).
__attribute__((visibility("default"))) int mlxd_delegate_check_payload(const void* data,
                                                                       size_t size, char* error,
                                                                       size_t error_size) {
  std::string why;
  if (mlxd::delegate::check_payload(data, size, nullptr, &why)) return 0;
  if (error != nullptr && error_size > 0) {
    std::strncpy(error, why.c_str(), error_size - 1);
    error[error_size - 1] = '\0';
  }
  return -1;
}

}  // extern "C"
