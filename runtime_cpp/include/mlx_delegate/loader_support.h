// What the generated loader (generated/cpp/mlx_program.cpp) needs that does not
// depend on the schema: reading flatc's accessors into the plain mirrors.
// Header-only; included by the generated source only.
#pragma once

#include <optional>
#include <string>

#include <flatbuffers/flatbuffers.h>

#include "mlx_delegate/load_error.h"

namespace mlxd {

// flatc's optional scalar (`= null` in the schema) as the mirror's std::optional.
template <typename T>
std::optional<T> to_optional(const flatbuffers::Optional<T>& value) {
  if (value.has_value()) return *value;
  return std::nullopt;
}

// A table, struct or op node the mirror requires: absent, it fails the load,
// naming `what`.
template <typename T>
const T* present(const T* node, const char* what) {
  if (node == nullptr) throw LoadError(std::string("missing ") + what);
  return node;
}

}  // namespace mlxd
