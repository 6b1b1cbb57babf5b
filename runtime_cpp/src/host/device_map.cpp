// Global device indices over the loaded backends, and the lookups of a backend by device or name.
#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "registry_internal.h"

namespace mlxd {

namespace {

std::string upper_type_name(DeviceType type) { return type == DeviceType::cpu ? "CPU" : "GPU"; }

// "cpu:2" or "gpu:0-1": the global indices a backend owns.
std::string owned_indices(const LoadedBackend& b) {
  std::string first = std::to_string(b.first_index);
  std::string last = std::to_string(b.first_index + b.info.device_count - 1);
  return std::string(device_type_name(b.info.device_type)) + ":" + first +
         (b.info.device_count > 1 ? "-" + last : "");
}

std::string no_backend_message(const Device& d, const std::vector<std::string>& search_paths) {
  std::string paths = join_path_list(search_paths);
  const char* env = std::getenv("MLX_BACKEND_PATH");
  return "no " + upper_type_name(d.type) + " backend loaded for device " + to_string(d) +
         " (search paths: " + (paths.empty() ? std::string("none") : paths) +
         (env ? std::string("; from MLX_BACKEND_PATH") : std::string()) +
         "); build the runtime or point MLX_BACKEND_PATH at a folder with libmlx-" +
         (d.type == DeviceType::cpu ? "cpu" : "cuda") + kPluginSuffix;
}

std::string out_of_range_message(const Device& d, int count,
                                 const std::vector<LoadedBackend>& loaded) {
  std::string owners;
  for (const auto& b : loaded) {
    if (b.info.device_type != d.type) continue;
    owners += (owners.empty() ? "" : ", ");
    owners += b.info.name + " " + owned_indices(b);
  }
  return "device " + to_string(d) + " is out of range: " + std::to_string(count) + " " +
         upper_type_name(d.type) + " device(s) loaded (" + owners + ")";
}

}  // namespace

// Numbers the devices of each type across backends, highest score first.
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

const LoadedBackend* BackendRegistry::loaded_of_group_locked(const std::string& group) const {
  for (const auto& lb : loaded_) {
    if (lb.group == group) return &lb;
  }
  return nullptr;
}

BackendInterface* BackendRegistry::get(const Device& d) const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  const LoadedBackend* lb = find_locked(d, nullptr);
  return lb ? lb->backend : nullptr;
}

LoadedBackend BackendRegistry::resolve(const Device& d, int* local_index) const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  const LoadedBackend* lb = find_locked(d, local_index);
  if (lb != nullptr) return *lb;
  int count = device_count(d.type);
  if (count == 0) {
    const_cast<BackendRegistry*>(this)->init_search_paths_locked();
    throw std::runtime_error(no_backend_message(d, search_paths_));
  }
  throw std::runtime_error(out_of_range_message(d, count, backends()));  // in index order
}

BackendInterface* BackendRegistry::get(const std::string& name) const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  for (const auto& lb : loaded_) {
    if (plugin_full_name(lb.group, lb.variant) == name || lb.info.name == name) return lb.backend;
  }
  const LoadedBackend* lb = loaded_of_group_locked(name);
  return lb ? lb->backend : nullptr;
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

void BackendRegistry::check_same_backend(const ProgramHandle& a, const ProgramHandle& b) {
  if (a.backend_name() != b.backend_name() || a.device_index() != b.device_index()) {
    throw std::runtime_error("inputs are on different backends (" + a.backend_name() + ":" +
                             std::to_string(a.device_index()) + ", " + b.backend_name() + ":" +
                             std::to_string(b.device_index()) +
                             "); copy the data through the host to one backend");
  }
}

}  // namespace mlxd
