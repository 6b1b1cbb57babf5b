#include "mlxd_log.h"

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace mlxd::log {

namespace {

constexpr const char* kNames[] = {"debug", "info", "warning", "error", "off"};
constexpr Level kDefault = Level::warning;

bool same_letters(std::string_view value, std::string_view name) {
  if (value.size() != name.size()) return false;
  for (size_t i = 0; i < value.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(value[i])) != name[i]) return false;
  }
  return true;
}

// Once per library that holds this file (the host, each plugin): a wrong value
// read at every message would otherwise repeat at every message.
void report_unknown(const char* value) {
  static std::atomic<bool> reported{false};
  if (reported.exchange(true)) return;
  std::fprintf(stderr,
               "[mlx-delegate warning] %s=%s names no level (debug, info, warning, error, off); "
               "logging at warning\n",
               kVariable, value);
}

}  // namespace

std::optional<Level> parse_level(std::string_view value) {
  for (int i = 0; i <= static_cast<int>(Level::off); ++i) {
    if (same_letters(value, kNames[i])) return static_cast<Level>(i);
  }
  if (value == "1") return Level::info;
  if (value == "0") return Level::warning;
  return std::nullopt;
}

Level threshold() {
  const char* env = std::getenv(kVariable);
  if (env == nullptr || env[0] == '\0') return kDefault;
  std::optional<Level> level = parse_level(env);
  if (!level) {
    report_unknown(env);
    return kDefault;
  }
  return *level;
}

bool enabled(Level level) { return level != Level::off && level >= threshold(); }

void write(Level level, const std::string& message) {
  if (!enabled(level)) return;
  std::fprintf(stderr, "[mlx-delegate %s] %s\n", kNames[static_cast<int>(level)], message.c_str());
}

}  // namespace mlxd::log
