// Device policy of the delegate: plugin loading on first use, device choice and its backend.
#include "device_policy.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>

#include "delegate_log.h"
#include "mlx_delegate/delegate_c_api.h"

namespace et = executorch::runtime;

namespace mlxd::delegate {

namespace {

std::mutex g_override_mu;
std::string g_device_override;

bool no_preference(const std::string& s) { return s.empty() || s == "auto"; }

void log_why_no_backend_loaded(BackendRegistry& registry) {
  std::string paths;
  for (const auto& p : registry.search_paths()) paths += (paths.empty() ? "" : ":") + p;
  MLXD_LOG(error, "MLXDelegateBackend: no MLX backend plugin loaded (search paths: %s)",
           paths.empty() ? "<none>" : paths.c_str());
  for (const auto& c : registry.report()) {
    if (!c.loaded) {
      MLXD_LOG(error, "MLXDelegateBackend:   %s: %s: %s", c.path.c_str(), reason_name(c.reason),
               c.message.c_str());
    }
  }
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

Device default_device() {
  return BackendRegistry::instance().is_available(DeviceType::gpu) ? Device{DeviceType::gpu, 0}
                                                                   : Device{DeviceType::cpu, 0};
}

// The registry's entry for the device (a copy); empty with the registry's reason in *why.
std::optional<LoadedBackend> find_owner(const Device& device, int* local_index, std::string* why) {
  try {
    return BackendRegistry::instance().resolve(device, local_index);
  } catch (const std::exception& e) {
    *why = e.what();
    return std::nullopt;
  }
}

// Resolves the placement's device, falling back to the CPU where the choice allows it.
std::optional<LoadedBackend> find_owner_or_fallback(const DeviceChoice& choice, Placement* p) {
  std::string why;
  std::optional<LoadedBackend> owner = find_owner(p->device, &p->local_index, &why);
  if (owner) return owner;
  // Only a GPU that no backend provides falls back; an index past the last
  // device of a loaded type is a mistake, whatever level asked for it.
  bool gpu_loaded = BackendRegistry::instance().is_available(DeviceType::gpu);
  std::string asked = to_string(p->device);
  if (choice.strict || p->device.type != DeviceType::gpu || gpu_loaded) {
    MLXD_LOG(error, "MLXDelegateBackend: device %s (from %s): %s", asked.c_str(),
             choice.source.c_str(), why.c_str());
    return std::nullopt;
  }
  p->device = Device{DeviceType::cpu, 0};
  MLXD_LOG(warning, "MLXDelegateBackend: device %s (from %s) unavailable (%s); using %s",
           asked.c_str(), choice.source.c_str(), why.c_str(), to_string(p->device).c_str());
  owner = find_owner(p->device, &p->local_index, &why);
  if (!owner) MLXD_LOG(error, "MLXDelegateBackend: %s", why.c_str());
  return owner;
}

}  // namespace

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
      MLXD_LOG(info, "MLXDelegateBackend: loaded %d backend plugin(s)", n);
    } catch (const std::exception& e) {
      MLXD_LOG(error, "MLXDelegateBackend: loading backend plugins failed: %s", e.what());
    }
    if (registry.backends().empty()) log_why_no_backend_loaded(registry);
  }
  return !registry.backends().empty();
}

et::Error place_program(et::BackendInitContext& context,
                        et::ArrayRef<et::CompileSpec> compile_specs, Placement* placement) {
  DeviceChoice choice = choose_device_spec(context, compile_specs);
  placement->source = choice.source;
  try {
    placement->device = no_preference(choice.spec) ? default_device() : parse_device(choice.spec);
  } catch (const std::exception& e) {
    MLXD_LOG(error, "MLXDelegateBackend: bad device '%s' (from %s): %s", choice.spec.c_str(),
             choice.source.c_str(), e.what());
    return et::Error::InvalidArgument;
  }
  std::optional<LoadedBackend> owner = find_owner_or_fallback(choice, placement);
  if (!owner) return et::Error::NotFound;
  placement->backend = owner->backend;
  placement->backend_name = owner->info.name;
  return et::Error::Ok;
}

std::string device_override() {
  std::lock_guard<std::mutex> lock(g_override_mu);
  return g_device_override;
}

bool set_device_override(const std::string& value, std::string* error) {
  if (!no_preference(value)) {
    try {
      parse_device(value);
    } catch (const std::exception& e) {
      *error = e.what();
      return false;
    }
  }
  std::lock_guard<std::mutex> lock(g_override_mu);
  g_device_override = value;
  return true;
}

}  // namespace mlxd::delegate

extern "C" __attribute__((visibility("default"))) int mlxd_delegate_set_device(const char* device) {
  std::string error;
  return mlxd::delegate::set_device_override(device == nullptr ? "" : device, &error) ? 0 : -1;
}
