// The runtime's one logging switch, read the same way by the host, the
// delegate and the plugins (and by the compiler: mlx_delegate/_logging.py).
// MLX_DELEGATE_LOG names the least severe level logged:
//   debug | info | warning | error | off    (any case; default warning)
// `1` is info and `0` warning, as the delegate's old on/off switch meant them.
// Unset or empty is the default, and so is any other value, which is reported
// once on stderr. The variable is read at every message, so a process may
// change it while it runs.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mlxd::log {

enum class Level { debug = 0, info = 1, warning = 2, error = 3, off = 4 };

inline constexpr const char* kVariable = "MLX_DELEGATE_LOG";

// The level a value of MLX_DELEGATE_LOG names; nullopt where it names none.
std::optional<Level> parse_level(std::string_view value);

// The level MLX_DELEGATE_LOG sets now.
Level threshold();

// Whether a message of `level` is logged now.
bool enabled(Level level);

// "[mlx-delegate LEVEL] message" on stderr, when `level` is enabled.
void write(Level level, const std::string& message);

}  // namespace mlxd::log
