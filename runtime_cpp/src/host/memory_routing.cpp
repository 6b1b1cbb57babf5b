// Memory queries and limits, routed to one device's backend or spread over the loaded backends.
#include <stdexcept>

#include "mlx_delegate/registry.h"

namespace mlxd {

std::vector<BackendInterface*> BackendRegistry::gpu_backends_locked() const {
  std::vector<BackendInterface*> out;
  for (const auto& lb : backends()) {
    if (lb.info.device_type == DeviceType::gpu) out.push_back(lb.backend);
  }
  return out;
}

// Getters: one device's backend (0 without one), or the sum over GPU backends.
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

// Setters: one device's backend, or the only GPU backend (a limit has no meaningful split).
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

}  // namespace mlxd
