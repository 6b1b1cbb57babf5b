#include "host_log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace mlxd::log {

Level threshold() {
  const char* env = std::getenv("MLX_DELEGATE_LOG");
  if (env == nullptr) return Level::warning;
  if (std::strcmp(env, "debug") == 0) return Level::debug;
  if (std::strcmp(env, "info") == 0) return Level::info;
  if (std::strcmp(env, "error") == 0) return Level::error;
  if (std::strcmp(env, "off") == 0) return Level::off;
  return Level::warning;
}

void write(Level level, const std::string& message) {
  if (level < threshold()) return;
  static const char* names[] = {"debug", "info", "warning", "error", "off"};
  std::fprintf(stderr, "[mlx-delegate %s] %s\n", names[static_cast<int>(level)], message.c_str());
}

}  // namespace mlxd::log
