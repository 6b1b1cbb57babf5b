#include "mlx_delegate/registry.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

#include "host_log.h"
#include "mlx_delegate/backend_plugin.h"

#ifndef MLXD_BACKEND_DIR
#define MLXD_BACKEND_DIR ""
#endif

namespace mlxd {

namespace {

#if defined(__APPLE__)
constexpr const char* kPluginSuffix = ".dylib";
#else
constexpr const char* kPluginSuffix = ".so";
#endif
constexpr const char* kPluginPrefix = "libmlx-";

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

std::string dirname_of(const std::string& path) {
  auto pos = path.find_last_of('/');
  return pos == std::string::npos ? std::string(".") : path.substr(0, pos);
}

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf) != nullptr) {
    return std::string(buf);
  }
  return path;
}

bool is_dir(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string host_library_dir() {
  Dl_info info;
  std::memset(&info, 0, sizeof(info));
  if (dladdr(reinterpret_cast<void*>(&host_library_dir), &info) != 0 && info.dli_fname) {
    return dirname_of(real_path(info.dli_fname));
  }
  return ".";
}

bool glob_match(const std::string& pattern, const std::string& full, const std::string& group) {
  if (fnmatch(pattern.c_str(), full.c_str(), 0) == 0 ||
      fnmatch(pattern.c_str(), group.c_str(), 0) == 0) {
    return true;
  }
  // "cpu-*" names the whole family, the plain "cpu" included.
  if (pattern.size() > 2 && pattern.compare(pattern.size() - 2, 2, "-*") == 0) {
    return fnmatch(pattern.substr(0, pattern.size() - 2).c_str(), group.c_str(), 0) == 0;
  }
  return false;
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

log::Level reason_level(Reason r) {
  switch (r) {
    case Reason::abi:
    case Reason::api_version:
      return log::Level::error;
    case Reason::dlopen:
    case Reason::init:
      return log::Level::warning;
    default:
      return log::Level::debug;
  }
}

}  // namespace

const char* reason_name(Reason r) noexcept {
  switch (r) {
    case Reason::none:
      return "";
    case Reason::dlopen:
      return "dlopen";
    case Reason::abi:
      return "abi";
    case Reason::score:
      return "score";
    case Reason::init:
      return "init";
    case Reason::api_version:
      return "api_version";
    case Reason::filter:
      return "filter";
    case Reason::outscored:
      return "outscored";
  }
  return "unknown";
}

Device parse_device(const std::string& spec) {
  Device d;
  std::string type = spec;
  auto colon = spec.find(':');
  if (colon != std::string::npos) {
    type = spec.substr(0, colon);
    std::string idx = spec.substr(colon + 1);
    if (idx.empty() || idx.size() > 6 ||
        !std::all_of(idx.begin(), idx.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      throw std::invalid_argument("bad device '" + spec + "': expected cpu, gpu, cpu:N or gpu:N");
    }
    d.index = std::stoi(idx);
  }
  if (type == "cpu") {
    d.type = DeviceType::cpu;
  } else if (type == "gpu") {
    d.type = DeviceType::gpu;
  } else {
    throw std::invalid_argument("bad device '" + spec + "': expected cpu, gpu, cpu:N or gpu:N");
  }
  return d;
}

std::string to_string(const Device& d) {
  return std::string(device_type_name(d.type)) + ":" + std::to_string(d.index);
}

bool parse_plugin_filename(const std::string& filename, std::string* group, std::string* variant) {
  const std::string prefix = kPluginPrefix;
  const std::string suffix = kPluginSuffix;
  if (filename.size() <= prefix.size() + suffix.size() ||
      filename.compare(0, prefix.size(), prefix) != 0 ||
      filename.compare(filename.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  std::string stem =
      filename.substr(prefix.size(), filename.size() - prefix.size() - suffix.size());
  if (stem.empty() || stem.front() == '-' || stem.back() == '-') {
    return false;
  }
  auto dash = stem.find('-');
  *group = stem.substr(0, dash);
  *variant = dash == std::string::npos ? std::string() : stem.substr(dash + 1);
  return true;
}

struct BackendRegistry::Candidate {
  std::string path;  // as found
  std::string real;  // realpath, for de-duplication
  std::string group;
  std::string variant;
  void* handle = nullptr;
  int score = -1;
  bool has_score_fn = false;
  std::string full_name() const { return variant.empty() ? group : group + "-" + variant; }
};

BackendRegistry& BackendRegistry::instance() {
  static BackendRegistry* registry = new BackendRegistry();  // never destroyed
  return *registry;
}

void BackendRegistry::init_search_paths_locked() {
  if (search_paths_ready_) {
    return;
  }
  search_paths_ready_ = true;
  search_paths_.clear();
  const char* env = std::getenv("MLX_BACKEND_PATH");
  if (env != nullptr) {
    std::string s(env);
    size_t start = 0;
    while (start <= s.size()) {
      size_t end = s.find(':', start);
      if (end == std::string::npos) end = s.size();
      if (end > start) search_paths_.push_back(s.substr(start, end - start));
      start = end + 1;
    }
    return;
  }
  std::string compiled = MLXD_BACKEND_DIR;
  if (!compiled.empty()) {
    search_paths_.push_back(compiled);
  }
  std::string next_to_host = host_library_dir() + "/backends";
  if (compiled.empty() || real_path(compiled) != real_path(next_to_host)) {
    search_paths_.push_back(next_to_host);
  }
}

std::vector<std::string>& BackendRegistry::search_paths() {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  init_search_paths_locked();
  return search_paths_;
}

void BackendRegistry::record_locked(const Candidate& c, bool loaded, Reason reason,
                                    const std::string& message) {
  CandidateReport r;
  r.path = c.path;
  r.group = c.group;
  r.variant = c.variant;
  r.loaded = loaded;
  r.reason = reason;
  r.message = message;
  r.score = c.score;
  report_.push_back(r);
  if (loaded) {
    log::write(log::Level::info, "loaded backend " + c.full_name() + " from " + c.path +
                                     (message.empty() ? "" : " (" + message + ")"));
  } else {
    log::write(reason_level(reason),
               "skipped backend " + c.path + ": " + reason_name(reason) + ": " + message);
  }
}

std::vector<BackendRegistry::Candidate> BackendRegistry::discover_locked(
    const std::string* only_group) {
  init_search_paths_locked();
  std::vector<Candidate> out;
  std::vector<std::string> seen;
  for (const auto& loaded : loaded_) {
    seen.push_back(real_path(loaded.library_path));
  }
  for (const auto& dir : search_paths_) {
    if (!is_dir(dir)) {
      log::write(log::Level::debug, "backend search path " + dir + " is not a directory");
      continue;
    }
    DIR* d = opendir(dir.c_str());
    if (d == nullptr) {
      continue;
    }
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) {
      names.emplace_back(e->d_name);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
      Candidate c;
      if (!parse_plugin_filename(name, &c.group, &c.variant)) {
        continue;
      }
      if (only_group != nullptr && c.group != *only_group) {
        continue;
      }
      c.path = dir + "/" + name;
      c.real = real_path(c.path);
      if (std::find(seen.begin(), seen.end(), c.real) != seen.end()) {
        continue;
      }
      seen.push_back(c.real);
      out.push_back(std::move(c));
    }
  }
  return out;
}

// dlopen + ABI check + score. On failure records the reason and closes.
bool BackendRegistry::probe_locked(Candidate& c) {
  dlerror();
  c.handle = dlopen(c.path.c_str(), dlopen_flags());
  if (c.handle == nullptr) {
    record_locked(c, false, Reason::dlopen, dl_error());
    return false;
  }
  auto abi_fn = reinterpret_cast<mlx_backend_abi_info_fn>(dlsym(c.handle, "mlx_backend_abi_info"));
  if (abi_fn == nullptr) {
    dlclose(c.handle);
    c.handle = nullptr;
    record_locked(c, false, Reason::abi, "no mlx_backend_abi_info entry point");
    return false;
  }
  MLX_BackendABIInfo plugin_abi = abi_fn();
  MLX_BackendABIInfo host_abi = mlx_make_abi_info();
  std::string mismatch = abi_mismatch(plugin_abi, host_abi);
  if (!mismatch.empty()) {
    dlclose(c.handle);
    c.handle = nullptr;
    record_locked(c, false, Reason::abi,
                  mismatch + " (plugin: " + abi_to_string(plugin_abi) +
                      "; host: " + abi_to_string(host_abi) + ")");
    return false;
  }
  auto score_fn = reinterpret_cast<mlx_backend_score_fn>(dlsym(c.handle, "mlx_backend_score"));
  c.has_score_fn = score_fn != nullptr;
  c.score = score_fn ? score_fn() : 1;
  if (c.score <= 0) {
    dlclose(c.handle);
    c.handle = nullptr;
    record_locked(c, false, Reason::score,
                  "mlx_backend_score() returned " + std::to_string(c.score) +
                      ": unsupported on this machine");
    return false;
  }
  return true;
}

// mlx_backend_init + api_version + info; registers on success.
bool BackendRegistry::init_locked(Candidate& c) {
  auto init_fn = reinterpret_cast<mlx_backend_init_fn>(dlsym(c.handle, "mlx_backend_init"));
  if (init_fn == nullptr) {
    record_locked(c, false, Reason::init, "no mlx_backend_init entry point");
    dlclose(c.handle);
    c.handle = nullptr;
    return false;
  }
  BackendInterface* backend = nullptr;
  try {
    backend = init_fn();
  } catch (...) {
    backend = nullptr;  // not supposed to happen: the C boundary must not throw
  }
  if (backend == nullptr) {
    std::string why = "mlx_backend_init() returned nullptr";
    auto err_fn =
        reinterpret_cast<mlx_backend_last_error_fn>(dlsym(c.handle, "mlx_backend_last_error"));
    if (err_fn != nullptr) {
      const char* e = err_fn();
      if (e != nullptr && *e != '\0') why += ": " + std::string(e);
    }
    record_locked(c, false, Reason::init, why);
    dlclose(c.handle);
    c.handle = nullptr;
    return false;
  }
  int version = backend->api_version();
  if (version != MLX_BACKEND_API_VERSION) {
    record_locked(c, false, Reason::api_version,
                  "api_version() is " + std::to_string(version) + ", the host expects " +
                      std::to_string(MLX_BACKEND_API_VERSION));
    try {
      delete backend;
    } catch (...) {
    }
    // The library stays mapped: code of it may still be referenced.
    c.handle = nullptr;
    return false;
  }
  LoadedBackend lb;
  try {
    lb.info = backend->info();
  } catch (const std::exception& e) {
    record_locked(c, false, Reason::init, std::string("info() threw: ") + e.what());
    c.handle = nullptr;
    return false;
  }
  lb.backend = backend;
  lb.dl_handle = c.handle;
  lb.library_path = c.path;
  lb.group = c.group;
  lb.variant = c.variant;
  lb.score = c.has_score_fn ? c.score : lb.info.score;
  if (lb.info.device_count < 0) lb.info.device_count = 0;
  loaded_.push_back(std::move(lb));
  reindex_locked();
  record_locked(c, true, Reason::none,
                "score " + std::to_string(c.score) + ", " +
                    device_type_name(loaded_.back().info.device_type) + " x" +
                    std::to_string(loaded_.back().info.device_count));
  return true;
}

void BackendRegistry::reindex_locked() {
  for (DeviceType type : {DeviceType::cpu, DeviceType::gpu}) {
    std::vector<LoadedBackend*> of_type;
    for (auto& lb : loaded_) {
      if (lb.info.device_type == type) of_type.push_back(&lb);
    }
    std::stable_sort(
        of_type.begin(), of_type.end(),
        [](const LoadedBackend* a, const LoadedBackend* b) { return a->score > b->score; });
    int next = 0;
    for (auto* lb : of_type) {
      lb->first_index = next;
      next += lb->info.device_count;
    }
  }
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
  if (!parse_plugin_filename(basename_of(path), &c.group, &c.variant)) {
    std::string base = basename_of(path);
    auto dot = base.find('.');
    c.group = base.substr(0, dot);
  }
  size_t before = report_.size();
  if (probe_locked(c) && init_locked(c)) {
    return loaded_.back().backend;
  }
  const CandidateReport& r = report_.size() > before ? report_.back() : CandidateReport();
  throw std::runtime_error("cannot load backend " + path + ": " + reason_name(r.reason) + ": " +
                           r.message);
}

int BackendRegistry::load_all(const BackendFilter* filter) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  std::vector<Candidate> candidates = discover_locked(nullptr);
  // Group by name stem, preserving discovery order of the groups.
  std::vector<std::string> group_order;
  std::map<std::string, std::vector<Candidate>> groups;
  for (auto& c : candidates) {
    if (!groups.count(c.group)) group_order.push_back(c.group);
    groups[c.group].push_back(std::move(c));
  }
  int newly_loaded = 0;
  for (const auto& g : group_order) {
    bool group_loaded = std::any_of(loaded_.begin(), loaded_.end(),
                                    [&](const LoadedBackend& lb) { return lb.group == g; });
    std::vector<Candidate> alive;
    for (auto& c : groups[g]) {
      if (group_loaded) {
        record_locked(c, false, Reason::outscored,
                      "group '" + g + "' already has a loaded backend");
        continue;
      }
      if (filter != nullptr) {
        std::string full = c.full_name();
        bool allowed = filter->allowed_names.empty();
        for (const auto& p : filter->allowed_names) {
          if (glob_match(p, full, c.group)) allowed = true;
        }
        std::string blocked_by;
        for (const auto& p : filter->blocked_names) {
          if (glob_match(p, full, c.group)) blocked_by = p;
        }
        if (!allowed) {
          record_locked(c, false, Reason::filter, "'" + full + "' matches no allowed name pattern");
          continue;
        }
        if (!blocked_by.empty()) {
          record_locked(c, false, Reason::filter,
                        "'" + full + "' matches blocked pattern '" + blocked_by + "'");
          continue;
        }
      }
      if (!probe_locked(c)) continue;
      if (filter != nullptr && filter->custom_filter) {
        BackendInfo pre;
        pre.name = c.full_name();
        pre.score = c.score;
        bool keep = true;
        try {
          keep = filter->custom_filter(pre);
        } catch (const std::exception& e) {
          keep = false;
          log::write(log::Level::warning, std::string("custom backend filter threw: ") + e.what());
        }
        if (!keep) {
          dlclose(c.handle);
          c.handle = nullptr;
          record_locked(c, false, Reason::filter, "rejected by the custom filter");
          continue;
        }
      }
      alive.push_back(std::move(c));
    }
    // Highest score first; equal scores keep discovery (file name) order.
    std::stable_sort(alive.begin(), alive.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    const Candidate* winner = nullptr;
    for (auto& c : alive) {
      if (winner != nullptr) {
        dlclose(c.handle);
        c.handle = nullptr;
        record_locked(c, false, Reason::outscored,
                      "outscored by " + winner->path + " (score " + std::to_string(winner->score) +
                          " > " + std::to_string(c.score) + ")");
        continue;
      }
      if (init_locked(c)) {
        winner = &c;
        ++newly_loaded;
      }
    }
  }
  return newly_loaded;
}

BackendInterface* BackendRegistry::load_best(const std::string& name) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  for (const auto& lb : loaded_) {
    if (lb.group == name) return lb.backend;
  }
  BackendFilter only;
  only.allowed_names = {name, name + "-*"};
  size_t before = report_.size();
  load_all(&only);
  for (const auto& lb : loaded_) {
    if (lb.group == name) return lb.backend;
  }
  std::string why;
  for (size_t i = before; i < report_.size(); ++i) {
    if (report_[i].group != name) continue;
    why += "\n  " + report_[i].path + ": " + reason_name(report_[i].reason) + ": " +
           report_[i].message;
  }
  std::string paths;
  for (const auto& p : search_paths_) {
    paths += (paths.empty() ? "" : ":");
    paths += p;
  }
  throw std::runtime_error(
      "no backend '" + name + "' could be loaded from " +
      (paths.empty() ? std::string("(no search path)") : paths) +
      (why.empty() ? std::string(": no libmlx-" + name + "*" + kPluginSuffix + " found") : why));
}

const LoadedBackend* BackendRegistry::find_locked(const Device& d, int* local_index) const {
  for (const auto& lb : loaded_) {
    if (lb.info.device_type == d.type && d.index >= lb.first_index &&
        d.index < lb.first_index + lb.info.device_count) {
      if (local_index) *local_index = d.index - lb.first_index;
      return &lb;
    }
  }
  return nullptr;
}

BackendInterface* BackendRegistry::get(const Device& d) const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  const LoadedBackend* lb = find_locked(d, nullptr);
  return lb ? lb->backend : nullptr;
}

const LoadedBackend& BackendRegistry::resolve(const Device& d, int* local_index) const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  const LoadedBackend* lb = find_locked(d, local_index);
  if (lb != nullptr) return *lb;
  int count = device_count(d.type);
  std::string type_upper = d.type == DeviceType::cpu ? "CPU" : "GPU";
  if (count == 0) {
    const_cast<BackendRegistry*>(this)->init_search_paths_locked();
    std::string paths;
    for (const auto& p : search_paths_) {
      paths += (paths.empty() ? "" : ":");
      paths += p;
    }
    const char* env = std::getenv("MLX_BACKEND_PATH");
    throw std::runtime_error(
        "no " + type_upper + " backend loaded for device " + to_string(d) +
        " (search paths: " + (paths.empty() ? std::string("none") : paths) +
        (env ? std::string("; from MLX_BACKEND_PATH") : std::string()) +
        "); build the runtime or point MLX_BACKEND_PATH at a folder with libmlx-" +
        (d.type == DeviceType::cpu ? "cpu" : "cuda") + kPluginSuffix);
  }
  std::string owners;
  for (const auto& b : loaded_) {
    if (b.info.device_type != d.type) continue;
    owners += (owners.empty() ? "" : ", ");
    owners +=
        b.info.name + " " + device_type_name(d.type) + ":" + std::to_string(b.first_index) +
        (b.info.device_count > 1 ? "-" + std::to_string(b.first_index + b.info.device_count - 1)
                                 : "");
  }
  throw std::runtime_error("device " + to_string(d) + " is out of range: " + std::to_string(count) +
                           " " + type_upper + " device(s) loaded (" + owners + ")");
}

BackendInterface* BackendRegistry::get(const std::string& name) const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  for (const auto& lb : loaded_) {
    std::string full = lb.variant.empty() ? lb.group : lb.group + "-" + lb.variant;
    if (full == name || lb.info.name == name) return lb.backend;
  }
  for (const auto& lb : loaded_) {
    if (lb.group == name) return lb.backend;
  }
  return nullptr;
}

bool BackendRegistry::is_available(DeviceType type) const { return device_count(type) > 0; }

int BackendRegistry::device_count(DeviceType type) const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  int n = 0;
  for (const auto& lb : loaded_) {
    if (lb.info.device_type == type) n += lb.info.device_count;
  }
  return n;
}

std::vector<LoadedBackend> BackendRegistry::backends() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  std::vector<LoadedBackend> out = loaded_;
  std::stable_sort(out.begin(), out.end(), [](const LoadedBackend& a, const LoadedBackend& b) {
    if (a.info.device_type != b.info.device_type) return a.info.device_type < b.info.device_type;
    return a.first_index < b.first_index;
  });
  return out;
}

std::vector<CandidateReport> BackendRegistry::report() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  return report_;
}

std::vector<BackendInterface*> BackendRegistry::gpu_backends_locked() const {
  std::vector<BackendInterface*> out;
  for (const auto& lb : backends()) {
    if (lb.info.device_type == DeviceType::gpu) out.push_back(lb.backend);
  }
  return out;
}

// ---- memory routing ------------------------------------------------------

#define MLXD_GETTER(fn)                                     \
  size_t BackendRegistry::fn(const Device& d) const {       \
    BackendInterface* b = get(d);                           \
    return b ? b->fn() : 0;                                 \
  }                                                         \
  size_t BackendRegistry::fn() const {                      \
    std::lock_guard<std::recursive_mutex> lock(mu_);        \
    size_t total = 0;                                       \
    for (auto* b : gpu_backends_locked()) total += b->fn(); \
    return total;                                           \
  }

MLXD_GETTER(get_active_memory)
MLXD_GETTER(get_peak_memory)
MLXD_GETTER(get_cache_memory)
MLXD_GETTER(get_memory_limit)
#undef MLXD_GETTER

#define MLXD_SETTER(fn)                                                             \
  size_t BackendRegistry::fn(const Device& d, size_t limit) {                       \
    BackendInterface* b = get(d);                                                   \
    return b ? b->fn(limit) : 0;                                                    \
  }                                                                                 \
  size_t BackendRegistry::fn(size_t limit) {                                        \
    std::lock_guard<std::recursive_mutex> lock(mu_);                                \
    auto gpus = gpu_backends_locked();                                              \
    if (gpus.size() > 1) {                                                          \
      throw std::runtime_error(#fn "() without a device is ambiguous with " +       \
                               std::to_string(gpus.size()) +                        \
                               " GPU backends loaded; use " #fn "(device, limit)"); \
    }                                                                               \
    return gpus.empty() ? 0 : gpus[0]->fn(limit);                                   \
  }

MLXD_SETTER(set_cache_limit)
MLXD_SETTER(set_memory_limit)
MLXD_SETTER(set_wired_limit)
#undef MLXD_SETTER

void BackendRegistry::reset_peak_memory(const Device& d) {
  if (BackendInterface* b = get(d)) b->reset_peak_memory();
}

void BackendRegistry::clear_cache(const Device& d) {
  if (BackendInterface* b = get(d)) b->clear_cache();
}

void BackendRegistry::reset_peak_memory() {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  for (auto& lb : loaded_) lb.backend->reset_peak_memory();
}

void BackendRegistry::clear_cache() {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  for (auto& lb : loaded_) lb.backend->clear_cache();
}

void BackendRegistry::check_same_backend(const ProgramHandle& a, const ProgramHandle& b) {
  if (a.backend_name() != b.backend_name() || a.device_index() != b.device_index()) {
    throw std::runtime_error("inputs are on different backends (" + a.backend_name() + ":" +
                             std::to_string(a.device_index()) + ", " + b.backend_name() + ":" +
                             std::to_string(b.device_index()) +
                             "); copy the data through the host to one backend");
  }
}

}  // namespace mlxd
