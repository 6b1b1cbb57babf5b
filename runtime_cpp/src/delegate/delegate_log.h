// The delegate's log: ExecuTorch's ET_LOG, filtered by MLX_DELEGATE_LOG as the
// host and the plugins are (mlxd_log.h, whose functions the host library
// provides). MLXD_LOG(info, ...) shows at info and debug, MLXD_LOG(error, ...)
// at every level but off. ExecuTorch has no warning severity: a warning goes
// out as Info.
#pragma once

#include <executorch/runtime/platform/log.h>

#include "mlxd_log.h"

#define MLXD_ET_SEVERITY_debug Debug
#define MLXD_ET_SEVERITY_info Info
#define MLXD_ET_SEVERITY_warning Info
#define MLXD_ET_SEVERITY_error Error

#define MLXD_LOG(level, ...)                               \
  do {                                                     \
    if (::mlxd::log::enabled(::mlxd::log::Level::level)) { \
      ET_LOG(MLXD_ET_SEVERITY_##level, __VA_ARGS__);       \
    }                                                      \
  } while (0)
