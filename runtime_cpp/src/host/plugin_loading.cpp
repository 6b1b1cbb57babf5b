// Loading one plugin: dlopen, the ABI check, its score and mlx_backend_init.
#include <dlfcn.h>

#include <cstring>
#include <sstream>
#include <stdexcept>

#include "mlx_delegate/backend_plugin.h"
#include "registry_internal.h"

namespace mlxd {

namespace {

int dlopen_flags() {
#if defined(RTLD_DEEPBIND) && !defined(__APPLE__)
  return RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND;
#else
  return RTLD_NOW | RTLD_LOCAL;
#endif
}

std::string dl_error() {
  const char* e = dlerror();
  return e ? std::string(e) : std::string("unknown dlopen error");
}

std::string basename_of(const std::string& path) {
  auto pos = path.find_last_of('/');
  return pos == std::string::npos ? path : path.substr(pos + 1);
}

std::string abi_to_string(const MLX_BackendABIInfo& a) {
  std::ostringstream os;
  os << a.compiler_id << " " << a.compiler_major << "." << a.compiler_minor << ", " << a.stdlib_id
     << ", api " << a.api_version << ", sizeof(std::string) " << a.sizeof_string
     << ", sizeof(BackendInfo) " << a.sizeof_BackendInfo;
  return os.str();
}

// Empty when compatible, otherwise what differs.
std::string abi_mismatch(const MLX_BackendABIInfo& plugin, const MLX_BackendABIInfo& host) {
  std::vector<std::string> diffs;
  if (plugin.abi_info_size < static_cast<int>(sizeof(MLX_BackendABIInfo))) {
    diffs.push_back("abi_info_size " + std::to_string(plugin.abi_info_size) + " < " +
                    std::to_string(sizeof(MLX_BackendABIInfo)));
  }
  // The plugin's strings need not be NUL-terminated within their arrays.
  auto cstr = [](const char* s, size_t n) { return std::string(s, strnlen(s, n)); };
  std::string pc = cstr(plugin.compiler_id, sizeof(plugin.compiler_id));
  std::string ps = cstr(plugin.stdlib_id, sizeof(plugin.stdlib_id));
  if (pc != host.compiler_id || plugin.compiler_major != host.compiler_major) {
    diffs.push_back("compiler " + pc + " " + std::to_string(plugin.compiler_major) + " vs " +
                    host.compiler_id + " " + std::to_string(host.compiler_major));
  }
  if (ps != host.stdlib_id) {
    diffs.push_back("built with " + ps + " but the host uses " + host.stdlib_id);
  }
  if (plugin.sizeof_string != host.sizeof_string) {
    diffs.push_back("sizeof(std::string) " + std::to_string(plugin.sizeof_string) + " vs " +
                    std::to_string(host.sizeof_string));
  }
  if (plugin.sizeof_BackendInfo != host.sizeof_BackendInfo) {
    diffs.push_back("sizeof(BackendInfo) " + std::to_string(plugin.sizeof_BackendInfo) + " vs " +
                    std::to_string(host.sizeof_BackendInfo));
  }
  if (plugin.api_version != host.api_version) {
    diffs.push_back("api_version " + std::to_string(plugin.api_version) + " vs " +
                    std::to_string(host.api_version));
  }
  std::string out;
  for (const auto& d : diffs) {
    out += (out.empty() ? "" : "; ");
    out += d;
  }
  return out;
}

// Why the opened plugin cannot be used with this host; empty when it can.
std::string abi_problem(void* handle) {
  auto abi_fn = reinterpret_cast<mlx_backend_abi_info_fn>(dlsym(handle, "mlx_backend_abi_info"));
  if (abi_fn == nullptr) return "no mlx_backend_abi_info entry point";
  MLX_BackendABIInfo plugin_abi = abi_fn();
  MLX_BackendABIInfo host_abi = mlx_make_abi_info();
  std::string mismatch = abi_mismatch(plugin_abi, host_abi);
  if (mismatch.empty()) return mismatch;
  return mismatch + " (plugin: " + abi_to_string(plugin_abi) +
         "; host: " + abi_to_string(host_abi) + ")";
}

BackendInterface* create_backend(mlx_backend_init_fn init_fn) {
  try {
    return init_fn();
  } catch (...) {
    return nullptr;  // not supposed to happen: the C boundary must not throw
  }
}

// Why mlx_backend_init() gave no backend, with the plugin's own explanation if it has one.
std::string init_failure(void* handle) {
  std::string why = "mlx_backend_init() returned nullptr";
  auto err_fn =
      reinterpret_cast<mlx_backend_last_error_fn>(dlsym(handle, "mlx_backend_last_error"));
  if (err_fn != nullptr) {
    const char* e = err_fn();
    if (e != nullptr && *e != '\0') why += ": " + std::string(e);
  }
  return why;
}

}  // namespace

void BackendRegistry::Candidate::close_library() {
  dlclose(handle);
  handle = nullptr;
}

// dlopen + ABI check + score. On failure records the reason and closes.
bool BackendRegistry::probe_locked(Candidate& c) {
  dlerror();
  c.handle = dlopen(c.path.c_str(), dlopen_flags());
  if (c.handle == nullptr) {
    record_locked(c, false, Reason::dlopen, dl_error());
    return false;
  }
  std::string abi = abi_problem(c.handle);
  if (!abi.empty()) {
    c.close_library();
    record_locked(c, false, Reason::abi, abi);
    return false;
  }
  auto score_fn = reinterpret_cast<mlx_backend_score_fn>(dlsym(c.handle, "mlx_backend_score"));
  c.has_score_fn = score_fn != nullptr;
  c.score = score_fn ? score_fn() : 1;
  if (c.score <= 0) {
    // A plugin may say why (a variant names the instructions it lacks) through
    // mlx_backend_last_error, which its score sets.
    std::string why = "unsupported on this machine";
    auto err_fn =
        reinterpret_cast<mlx_backend_last_error_fn>(dlsym(c.handle, "mlx_backend_last_error"));
    if (err_fn != nullptr) {
      const char* e = err_fn();
      if (e != nullptr && *e != '\0') why = e;
    }
    c.close_library();
    record_locked(c, false, Reason::score,
                  "mlx_backend_score() returned " + std::to_string(c.score) + ": " + why);
    return false;
  }
  return true;
}

// mlx_backend_init + api_version; registers on success.
bool BackendRegistry::init_locked(Candidate& c) {
  auto init_fn = reinterpret_cast<mlx_backend_init_fn>(dlsym(c.handle, "mlx_backend_init"));
  if (init_fn == nullptr) {
    record_locked(c, false, Reason::init, "no mlx_backend_init entry point");
    c.close_library();
    return false;
  }
  BackendInterface* backend = create_backend(init_fn);
  if (backend == nullptr) {
    record_locked(c, false, Reason::init, init_failure(c.handle));
    c.close_library();
    return false;
  }
  return register_locked(c, backend);
}

BackendInterface* BackendRegistry::load(const std::string& path) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  std::string real = real_path(path);
  for (const auto& lb : loaded_) {
    if (real_path(lb.library_path) == real) return lb.backend;
  }
  Candidate c;
  c.path = path;
  c.real = real;
  std::string base = basename_of(path);
  if (!parse_plugin_filename(base, &c.group, &c.variant)) {
    // Not named like a plugin: the file name up to its first dot is its group.
    c.group = base.substr(0, base.find('.'));
  }
  size_t before = report_.size();
  if (probe_locked(c) && init_locked(c)) {
    return loaded_.back().backend;
  }
  const CandidateReport& r = report_.size() > before ? report_.back() : CandidateReport();
  throw std::runtime_error("cannot load backend " + path + ": " + reason_name(r.reason) + ": " +
                           r.message);
}

}  // namespace mlxd
