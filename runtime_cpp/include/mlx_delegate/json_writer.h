// The runtime's one JSON writer: the generated loader's to_json and the host's
// C API write with it. Header-only.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace mlxd {

// Floats as doubles (the exact value of a float, which JSON readers parse
// back); NaN and infinities as JavaScript writes them.
template <typename T>
  requires std::is_floating_point_v<T>
void write_json(std::string& out, T value) {
  if (std::isnan(value)) {
    out += "NaN";
  } else if (std::isinf(value)) {
    out += value > 0 ? "Infinity" : "-Infinity";
  } else {
    char text[64];
    out.append(text, std::to_chars(text, text + sizeof text, static_cast<double>(value)).ptr);
  }
}

inline void write_json(std::string& out, bool value) { out += value ? "true" : "false"; }

template <typename T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
void write_json(std::string& out, T value) {
  out += std::to_string(value);
}

template <typename T>
  requires std::is_enum_v<T>
void write_json(std::string& out, T value) {
  out += std::to_string(static_cast<int64_t>(value));
}

inline void write_json(std::string& out, const std::string& value) {
  out += '"';
  for (unsigned char c : value) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

// Records (structs of the generated loader) have their own write_json, found
// by argument-dependent lookup.
template <typename T>
void write_json(std::string& out, const std::optional<T>& value) {
  if (value) {
    write_json(out, *value);
  } else {
    out += "null";
  }
}

template <typename T>
void write_json(std::string& out, const std::vector<T>& values) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    write_json(out, values[i]);
  }
  out += ']';
}

// A variant as the alternative it holds.
template <typename... T>
void write_json(std::string& out, const std::variant<T...>& value) {
  std::visit([&out](const auto& held) { write_json(out, held); }, value);
}

// `value` as a JSON string literal.
inline std::string json_string(const std::string& value) {
  std::string out;
  write_json(out, value);
  return out;
}

}  // namespace mlxd
