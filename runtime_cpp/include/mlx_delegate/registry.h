// The backend registry of the mlx-delegate host: discovers, checks, scores,
// loads and indexes backend plugins (libmlx-{name}[-{variant}].so). Loaded
// backends are never unloaded.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "mlx_delegate/backend_interface.h"

namespace mlxd {

struct Device {
  DeviceType type = DeviceType::cpu;
  int index = 0;
};

// Parses "cpu", "gpu", "cpu:0", "gpu:1"; throws std::invalid_argument. A
// program runs on one device: several devices are several processes, one a
// device (MLX's distributed layer; mlx_delegate/llm/launch.py).
Device parse_device(const std::string& spec);
std::string to_string(const Device& d);

struct LoadedBackend {
  BackendInterface* backend = nullptr;
  void* dl_handle = nullptr;
  BackendInfo info;
  std::string library_path;
  std::string group;    // name stem: "cpu" for libmlx-cpu-openblas.so
  std::string variant;  // "openblas"; empty for libmlx-cpu.so
  int score = 0;        // mlx_backend_score() (info().score if absent)
  int first_index = 0;  // first global device index of its device type
};

struct BackendFilter {
  // Glob patterns (fnmatch) matched against the candidate name
  // ("cpu-openblas") and its group ("cpu"); "cpu-*" also matches "cpu".
  // An empty allowed list allows everything.
  std::vector<std::string> allowed_names;
  std::vector<std::string> blocked_names;
  // Called after scoring, before init, with name and score filled in
  // (device type and count are only known after init). false = skip.
  std::function<bool(const BackendInfo&)> custom_filter;
};

// Why a candidate was not loaded.
enum class Reason { none, dlopen, abi, score, init, api_version, filter, outscored };
const char* reason_name(Reason r) noexcept;

struct CandidateReport {
  std::string path;
  std::string group;
  std::string variant;
  bool loaded = false;
  Reason reason = Reason::none;
  std::string message;
  int score = -1;  // -1 = not asked
};

class BackendRegistry {
 public:
  static BackendRegistry& instance();

  // Loads one backend from an explicit path (no filter, no competition).
  // Throws std::runtime_error naming the path and the reason on failure;
  // returns the already loaded backend when the path was loaded before.
  BackendInterface* load(const std::string& path);

  // Loads the best variant of group `name` from the search paths; throws
  // when none loads.
  BackendInterface* load_best(const std::string& name);

  // Discovers and loads the winner of every group in the search paths.
  // Returns how many backends were newly loaded.
  int load_all(const BackendFilter* filter = nullptr);

  // The backend owning a global device index; nullptr if none.
  BackendInterface* get(const Device& d) const;
  // Resolves a global device to its backend entry and backend-local index;
  // throws std::runtime_error with a clear message (e.g. "no CPU backend").
  // A copy: another thread may load a backend (and move the entries) while
  // the caller uses it.
  LoadedBackend resolve(const Device& d, int* local_index) const;
  // A loaded backend by name ("cpu-openblas") or by group ("cpu").
  BackendInterface* get(const std::string& name) const;

  bool is_available(DeviceType type) const;
  int device_count(DeviceType type) const;

  // Loaded backends, ordered by device type, then global device index.
  std::vector<LoadedBackend> backends() const;
  // Every candidate seen so far by load/load_best/load_all, in order.
  std::vector<CandidateReport> report() const;

  // Search paths: MLX_BACKEND_PATH (colon-separated) alone when set; else
  // the compile-time MLXD_BACKEND_DIR then backends/ next to the host
  // library. Computed on first use; modifiable.
  std::vector<std::string>& search_paths();

  // Appends a folder to the search paths (plugin packages found by the Python
  // side: the `mlx_delegate.backends` entry points). False, and nothing added,
  // when MLX_BACKEND_PATH is set (it alone decides), when the folder is there
  // already, or in a static build (it searches nothing).
  bool add_search_path(const std::string& dir);

  // Memory routing. Per device: that device's backend (0 / no-op when
  // none). Without a device: getters sum over GPU backends, setters throw
  // when more than one GPU backend is loaded; reset_peak_memory and
  // clear_cache apply to every backend.
  size_t get_active_memory(const Device& d) const;
  size_t get_peak_memory(const Device& d) const;
  void reset_peak_memory(const Device& d);
  size_t get_cache_memory(const Device& d) const;
  size_t set_cache_limit(const Device& d, size_t limit);
  size_t set_memory_limit(const Device& d, size_t limit);
  size_t get_memory_limit(const Device& d) const;
  size_t set_wired_limit(const Device& d, size_t limit);
  void clear_cache(const Device& d);

  size_t get_active_memory() const;
  size_t get_peak_memory() const;
  void reset_peak_memory();
  size_t get_cache_memory() const;
  size_t set_cache_limit(size_t limit);
  size_t set_memory_limit(size_t limit);
  size_t get_memory_limit() const;
  size_t set_wired_limit(size_t limit);
  void clear_cache();

  // Throws when the programs (e.g. producer and consumer of a tensor) were
  // loaded by different backends or devices, naming both.
  static void check_same_backend(const ProgramHandle& a, const ProgramHandle& b);

 private:
  BackendRegistry() = default;
  struct Candidate;
  void record_locked(const Candidate& c, bool loaded, Reason reason, const std::string& message);

  void init_search_paths_locked();
  std::vector<Candidate> discover_locked();

  bool probe_locked(Candidate& c);
  bool init_locked(Candidate& c);
  bool register_locked(Candidate& c, BackendInterface* backend);

  static std::vector<std::vector<Candidate>> group_by_stem(std::vector<Candidate> candidates);
  bool load_group_locked(std::vector<Candidate>& members, const BackendFilter* filter);
  bool admit_locked(Candidate& c, const BackendFilter* filter);
  bool load_highest_score_locked(std::vector<Candidate>& admitted);

  void reindex_locked();
  const LoadedBackend* find_locked(const Device& d, int* local_index) const;
  const LoadedBackend* loaded_of_group_locked(const std::string& group) const;

  std::vector<BackendInterface*> gpu_backends_locked() const;

  mutable std::recursive_mutex mu_;
  bool search_paths_ready_ = false;
  std::vector<std::string> search_paths_;
  std::vector<LoadedBackend> loaded_;
  std::vector<CandidateReport> report_;
};

// Splits "libmlx-cpu-openblas.so" into group "cpu" and variant "openblas";
// false when the file name does not follow the plugin naming convention.
bool parse_plugin_filename(const std::string& filename, std::string* group, std::string* variant);

}  // namespace mlxd
