// What the backend registry's translation units share and the public header does not show.
#pragma once

#include <string>
#include <vector>

#include "mlx_delegate/registry.h"

namespace mlxd {

// Hidden: these are the registry's own helpers, not part of the host library's interface.
#pragma GCC visibility push(hidden)

#if defined(__APPLE__)
inline constexpr const char* kPluginSuffix = ".dylib";
#else
inline constexpr const char* kPluginSuffix = ".so";
#endif
inline constexpr const char* kPluginPrefix = "libmlx-";

// "cpu-openblas" for group "cpu" and variant "openblas"; "cpu" without a variant.
std::string plugin_full_name(const std::string& group, const std::string& variant);

// A colon-separated folder list (MLX_BACKEND_PATH) without its empty entries, and back.
std::vector<std::string> split_path_list(const std::string& list);
std::string join_path_list(const std::vector<std::string>& paths);

// Whether a filter pattern names the candidate `full` ("cpu-openblas") or its `group` ("cpu").
bool glob_match(const std::string& pattern, const std::string& full, const std::string& group);

// The canonical path, or `path` itself when it cannot be resolved.
std::string real_path(const std::string& path);

#pragma GCC visibility pop

// A plugin file on its way through discovery, filters, probing and init.
struct BackendRegistry::Candidate {
  std::string path;  // as found
  std::string real;  // realpath, for de-duplication
  std::string group;
  std::string variant;
  void* handle = nullptr;
  int score = -1;
  bool has_score_fn = false;
  std::string full_name() const { return plugin_full_name(group, variant); }
  // Unmaps a plugin that will not be used (it never created a backend).
  void close_library();
};

}  // namespace mlxd
