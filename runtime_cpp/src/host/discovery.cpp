// Finding plugin files: the search paths (MLX_BACKEND_PATH or the built-in folders) and their scan.
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>

#include "mlxd_log.h"
#include "registry_internal.h"

#ifndef MLXD_BACKEND_DIR
#define MLXD_BACKEND_DIR ""
#endif

namespace mlxd {

namespace {

std::string dirname_of(const std::string& path) {
  auto pos = path.find_last_of('/');
  return pos == std::string::npos ? std::string(".") : path.substr(0, pos);
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

// The compile-time folder, then backends/ next to the host library (once if they are the same).
std::vector<std::string> built_in_search_paths() {
  std::vector<std::string> paths;
  std::string compiled = MLXD_BACKEND_DIR;
  if (!compiled.empty()) {
    paths.push_back(compiled);
  }
  std::string next_to_host = host_library_dir() + "/backends";
  if (compiled.empty() || real_path(compiled) != real_path(next_to_host)) {
    paths.push_back(next_to_host);
  }
  return paths;
}

// The entries of a folder in name order, so that discovery does not depend on the file system.
std::vector<std::string> sorted_entries(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) {
    return names;
  }
  while (dirent* e = readdir(d)) {
    names.emplace_back(e->d_name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

void BackendRegistry::init_search_paths_locked() {
  if (search_paths_ready_) {
    return;
  }
  search_paths_ready_ = true;
  const char* env = std::getenv("MLX_BACKEND_PATH");
  search_paths_ = env != nullptr ? split_path_list(env) : built_in_search_paths();
}

std::vector<std::string>& BackendRegistry::search_paths() {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  init_search_paths_locked();
  return search_paths_;
}

bool BackendRegistry::add_search_path(const std::string& dir) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  init_search_paths_locked();
  if (std::getenv("MLX_BACKEND_PATH") != nullptr) {
    return false;
  }
  std::string real = real_path(dir);
  for (const auto& p : search_paths_) {
    if (real_path(p) == real) {
      return false;
    }
  }
  search_paths_.push_back(dir);
  return true;
}

// Plugin files of the search paths, in search path then name order; a file
// already loaded or reached twice (links, repeated folders) is left out.
std::vector<BackendRegistry::Candidate> BackendRegistry::discover_locked() {
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
    for (const auto& name : sorted_entries(dir)) {
      Candidate c;
      if (!parse_plugin_filename(name, &c.group, &c.variant)) {
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

}  // namespace mlxd
