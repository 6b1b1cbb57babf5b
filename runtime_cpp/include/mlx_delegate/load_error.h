// The error the generated loader (generated/cpp/mlx_program.cpp) and the
// runtime's own checks of a loaded program throw. The generated mlx_program.h
// includes it.
#pragma once

#include <stdexcept>

namespace mlxd {

/// Thrown for a payload that is not a valid program; the message says why.
class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mlxd
