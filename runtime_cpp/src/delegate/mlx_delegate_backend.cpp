// The ExecuTorch backend "MLXDelegateBackend": init, execute and destroy of delegated programs.
//
// init checks the payload, places the program on a backend plugin
// (device_policy.h) and has the plugin load it; execute converts the
// arguments (evalue_marshalling.h) and runs the program. Links no MLX.
//
// Logging (delegate_log.h): errors at `error`; MLX_DELEGATE_LOG=info also logs
// each program's device choice, constants and per-execute timing.
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/platform/log.h>

#include <array>
#include <chrono>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "delegate_log.h"
#include "device_policy.h"
#include "evalue_marshalling.h"
#include "mlx_delegate/backend_interface.h"
#include "mlx_delegate/delegate_c_api.h"
#include "payload.h"

namespace et = executorch::runtime;

namespace mlxd::delegate {

namespace {

// One delegated program (the DelegateHandle).
struct MlxDelegateProgram {
  Placement placement;

  // Named-data buffers handed to the plugin zero-copy; they must outlive
  // `program` (members are destroyed in reverse order).
  std::vector<et::FreeableBuffer> constants;
  std::unordered_map<std::string, size_t> constant_index;

  std::unique_ptr<ProgramHandle> program;

  std::mutex mu;  // one execute at a time: the marshaller's buffers are per program
  EValueMarshaller marshaller;
};

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// Constants resolve through the named data map, zero-copy: the plugin gets
// the FreeableBuffer's pointer, kept alive by the program handle.
ConstantResolver constant_resolver(MlxDelegateProgram* h, const et::NamedDataMap* named) {
  return [h, named](const std::string& name, ConstantBuffer& out) {
    auto it = h->constant_index.find(name);
    if (it == h->constant_index.end()) {
      if (named == nullptr) {
        MLXD_LOG(error,
                 "MLXDelegateBackend: constant '%s' requested but the program has no "
                 "named data map",
                 name.c_str());
        return false;
      }
      auto data = named->get_data(std::string_view(name));
      if (!data.ok()) {
        MLXD_LOG(error, "MLXDelegateBackend: constant '%s' not in the named data map (error 0x%x)",
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
}

// Hands the payload to the placed backend; an error (logged) when it does not give a program.
et::Error load_program(MlxDelegateProgram& h, const et::FreeableBuffer& payload,
                       const et::NamedDataMap* named) {
  const Placement& p = h.placement;
  try {
    h.program = p.backend->load_program(p.local_index, static_cast<const uint8_t*>(payload.data()),
                                        payload.size(), constant_resolver(&h, named));
  } catch (const std::exception& e) {
    MLXD_LOG(error, "MLXDelegateBackend: backend '%s' rejected the program on %s: %s",
             p.backend_name.c_str(), to_string(p.device).c_str(), e.what());
    return et::Error::InvalidProgram;
  } catch (...) {
    MLXD_LOG(error, "MLXDelegateBackend: backend '%s' failed to load the program (unknown error)",
             p.backend_name.c_str());
    return et::Error::InvalidProgram;
  }
  if (!h.program) {
    MLXD_LOG(error, "MLXDelegateBackend: backend '%s' returned no program", p.backend_name.c_str());
    return et::Error::InvalidProgram;
  }
  return et::Error::Ok;
}

// Runs the program on its backend; an error (logged) when the backend throws.
et::Error run_on_backend(MlxDelegateProgram& h) {
  const Placement& p = h.placement;
  try {
    p.backend->execute(*h.program, h.marshaller.inputs(), h.marshaller.outputs());
  } catch (const std::exception& e) {
    MLXD_LOG(error, "MLXDelegateBackend: execution on %s (backend %s) failed: %s",
             to_string(p.device).c_str(), p.backend_name.c_str(), e.what());
    h.marshaller.log_output_errors();
    return et::Error::Internal;
  } catch (...) {
    MLXD_LOG(error, "MLXDelegateBackend: execution on %s (backend %s) failed (unknown error)",
             to_string(p.device).c_str(), p.backend_name.c_str());
    return et::Error::Internal;
  }
  return et::Error::Ok;
}

class MlxDelegateBackend final : public et::BackendInterface {
 public:
  bool is_available() const override { return ensure_backends_loaded(); }

  et::Result<et::DelegateHandle*> init(et::BackendInitContext& context,
                                       et::FreeableBuffer* processed,
                                       et::ArrayRef<et::CompileSpec> compile_specs) const override {
    if (processed == nullptr) {
      MLXD_LOG(error, "MLXDelegateBackend: no payload");
      return et::Error::InvalidProgram;
    }
    std::string why;
    if (!check_payload(processed->data(), processed->size(), nullptr, &why)) {
      MLXD_LOG(error, "MLXDelegateBackend: rejected payload (%zu bytes): %s", processed->size(),
               why.c_str());
      return et::Error::InvalidProgram;
    }
    if (!ensure_backends_loaded()) return et::Error::NotFound;

    auto handle = std::make_unique<MlxDelegateProgram>();
    et::Error err = place_program(context, compile_specs, &handle->placement);
    if (err != et::Error::Ok) return err;
    auto start = std::chrono::steady_clock::now();
    err = load_program(*handle, *processed, context.get_named_data_map());
    if (err != et::Error::Ok) return err;
    handle->marshaller.set_signature(handle->program->num_inputs(), handle->program->num_outputs());
    // The plugin keeps what it needs; the payload is no longer used.
    processed->Free();
    const Placement& p = handle->placement;
    MLXD_LOG(info,
             "MLXDelegateBackend: method '%s' on %s (backend %s, local device %d, device from "
             "%s): %zu inputs, %zu outputs, %zu named constants, loaded in %.2f ms",
             context.get_method_name() ? context.get_method_name() : "?",
             to_string(p.device).c_str(), p.backend_name.c_str(), p.local_index, p.source.c_str(),
             handle->marshaller.num_inputs(), handle->marshaller.num_outputs(),
             handle->constants.size(), milliseconds_since(start));
    return static_cast<et::DelegateHandle*>(handle.release());
  }

  et::Error execute(et::BackendExecutionContext& /*context*/, et::DelegateHandle* raw,
                    et::Span<et::EValue*> args) const override {
    if (raw == nullptr) return et::Error::InvalidState;
    auto& h = *static_cast<MlxDelegateProgram*>(raw);
    std::lock_guard<std::mutex> lock(h.mu);
    if (args.size() != h.marshaller.num_inputs() + h.marshaller.num_outputs()) {
      MLXD_LOG(error, "MLXDelegateBackend: %zu arguments, expected %zu inputs + %zu outputs",
               args.size(), h.marshaller.num_inputs(), h.marshaller.num_outputs());
      return et::Error::InvalidArgument;
    }
    auto start = std::chrono::steady_clock::now();
    et::Error err = h.marshaller.bind(args);
    if (err == et::Error::Ok) err = run_on_backend(h);
    if (err == et::Error::Ok) err = h.marshaller.collect_outputs(args);
    if (err != et::Error::Ok) return err;
    MLXD_LOG(info, "MLXDelegateBackend: execute on %s: %.3f ms",
             to_string(h.placement.device).c_str(), milliseconds_since(start));
    return et::Error::Ok;
  }

  void destroy(et::DelegateHandle* raw) const override {
    delete static_cast<MlxDelegateProgram*>(raw);
  }

  et::Error set_option(et::BackendOptionContext& /*context*/,
                       const et::Span<et::BackendOption>& options) override {
    for (const auto& opt : options) {
      if (std::strcmp(opt.key, "device") != 0) {
        MLXD_LOG(error, "MLXDelegateBackend: unknown option '%s' (known: device)", opt.key);
        return et::Error::InvalidArgument;
      }
      const auto* text = std::get_if<std::array<char, et::kMaxOptionValueLength>>(&opt.value);
      if (text == nullptr) {
        MLXD_LOG(error, "MLXDelegateBackend: option 'device' takes a string");
        return et::Error::InvalidArgument;
      }
      std::string value(text->data());
      std::string error;
      if (!set_device_override(value, &error)) {
        MLXD_LOG(error, "MLXDelegateBackend: bad device '%s': %s", value.c_str(), error.c_str());
        return et::Error::InvalidArgument;
      }
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

// C entry points (mlx_delegate/delegate_c_api.h; mlxd_delegate_set_device is in
// device_policy.cpp, the payload ones in payload.cpp).
extern "C" {

__attribute__((visibility("default"))) const char* mlxd_delegate_backend_id(void) {
  return mlxd::payload::kBackendId;
}

__attribute__((visibility("default"))) int mlxd_delegate_registered(void) {
  return mlxd::delegate::g_registered == executorch::runtime::Error::Ok &&
                 executorch::runtime::get_backend_class(mlxd::payload::kBackendId) ==
                     &mlxd::delegate::g_backend
             ? 1
             : 0;
}

}  // extern "C"
