// Host-side logging to stderr, level from MLX_DELEGATE_LOG
// (debug | info | warning | error | off; default warning).
#pragma once

#include <string>

namespace mlxd::log {

enum class Level { debug = 0, info = 1, warning = 2, error = 3, off = 4 };

Level threshold();
void write(Level level, const std::string& message);

}  // namespace mlxd::log
