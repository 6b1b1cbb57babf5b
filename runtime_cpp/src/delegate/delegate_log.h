// The delegate's opt-in progress log: MLX_DELEGATE_LOG=1 adds device choices and timings to ET_LOG.
#pragma once

#include <executorch/runtime/platform/log.h>

#include <cstdlib>
#include <cstring>

namespace mlxd::delegate {

// Errors are always logged; this switches on the informational messages.
inline bool verbose() {
  static const bool on = [] {
    const char* v = std::getenv("MLX_DELEGATE_LOG");
    return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
  }();
  return on;
}

}  // namespace mlxd::delegate

#define MLXD_VLOG(...)                                          \
  do {                                                          \
    if (::mlxd::delegate::verbose()) ET_LOG(Info, __VA_ARGS__); \
  } while (0)
