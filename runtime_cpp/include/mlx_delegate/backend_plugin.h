// C entry points every backend plugin (libmlx-{name}[-{variant}].so) exports.
//
//   mlx_backend_abi_info()   required; plain C struct, compared by the host
//                            before anything else is called
//   mlx_backend_score()      optional; 0 = unsupported on this machine,
//                            otherwise higher wins within a name group
//   mlx_backend_init()       required; nullptr = initialisation failed
//   mlx_backend_last_error() optional; why the last init failed
//
// No C++ exception may cross these functions: use MLX_BACKEND_IMPL and
// MLX_BACKEND_SCORE_IMPL, which catch everything.
#pragma once

#include <cstring>
#include <exception>
#include <string>

#include "mlx_delegate/backend_interface.h"

#if defined(_WIN32)
#define MLX_BACKEND_EXPORT __declspec(dllexport)
#else
#define MLX_BACKEND_EXPORT __attribute__((visibility("default")))
#endif

extern "C" {

struct MLX_BackendABIInfo {
  int abi_info_size;     // sizeof(MLX_BackendABIInfo), for forward compatibility
  int api_version;       // MLX_BACKEND_API_VERSION
  char compiler_id[32];  // "GNU", "Clang", "MSVC"
  int compiler_major;
  int compiler_minor;
  char stdlib_id[32];      // "libstdc++", "libstdc++-oldabi", "libc++", "msvc"
  int sizeof_string;       // sizeof(std::string)
  int sizeof_BackendInfo;  // sizeof(mlxd::BackendInfo)
};

typedef MLX_BackendABIInfo (*mlx_backend_abi_info_fn)();
typedef int (*mlx_backend_score_fn)();
typedef mlxd::BackendInterface* (*mlx_backend_init_fn)();
typedef const char* (*mlx_backend_last_error_fn)();

}  // extern "C"

// The ABI descriptor of the translation unit that includes this header;
// the host calls it on itself and compares with each plugin's.
inline MLX_BackendABIInfo mlx_make_abi_info() {
  MLX_BackendABIInfo info;
  std::memset(&info, 0, sizeof(info));
  info.abi_info_size = static_cast<int>(sizeof(MLX_BackendABIInfo));
  info.api_version = MLX_BACKEND_API_VERSION;
  const char* compiler = "unknown";
  int major = 0;
  int minor = 0;
#if defined(__clang__)
  compiler = "Clang";
  major = __clang_major__;
  minor = __clang_minor__;
#elif defined(__GNUC__)
  compiler = "GNU";
  major = __GNUC__;
  minor = __GNUC_MINOR__;
#elif defined(_MSC_VER)
  compiler = "MSVC";
  major = _MSC_VER / 100;
  minor = _MSC_VER % 100;
#endif
  const char* stdlib = "unknown";
#if defined(_LIBCPP_VERSION)
  stdlib = "libc++";
#elif defined(__GLIBCXX__)
#if defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI
  stdlib = "libstdc++";
#else
  stdlib = "libstdc++-oldabi";
#endif
#elif defined(_MSC_VER)
  stdlib = "msvc";
#endif
  std::strncpy(info.compiler_id, compiler, sizeof(info.compiler_id) - 1);
  std::strncpy(info.stdlib_id, stdlib, sizeof(info.stdlib_id) - 1);
  info.compiler_major = major;
  info.compiler_minor = minor;
  info.sizeof_string = static_cast<int>(sizeof(std::string));
  info.sizeof_BackendInfo = static_cast<int>(sizeof(mlxd::BackendInfo));
  return info;
}

namespace mlxd::plugin_detail {
// Message of the last failed mlx_backend_init() of this plugin.
inline std::string& last_error() {
  static std::string message;
  return message;
}
}  // namespace mlxd::plugin_detail

// Defines mlx_backend_init() (factory_fn() wrapped in try/catch; nullptr on
// any exception), mlx_backend_abi_info() and mlx_backend_last_error().
#define MLX_BACKEND_IMPL(factory_fn)                                                \
  extern "C" MLX_BACKEND_EXPORT mlxd::BackendInterface* mlx_backend_init() {        \
    try {                                                                           \
      mlxd::plugin_detail::last_error().clear();                                    \
      mlxd::BackendInterface* backend_ = factory_fn();                              \
      if (backend_ == nullptr && mlxd::plugin_detail::last_error().empty()) {       \
        mlxd::plugin_detail::last_error() = "factory returned nullptr";             \
      }                                                                             \
      return backend_;                                                              \
    } catch (const std::exception& e_) {                                            \
      try {                                                                         \
        mlxd::plugin_detail::last_error() = std::string("exception: ") + e_.what(); \
      } catch (...) {                                                               \
      }                                                                             \
      return nullptr;                                                               \
    } catch (...) {                                                                 \
      try {                                                                         \
        mlxd::plugin_detail::last_error() = "unknown exception";                    \
      } catch (...) {                                                               \
      }                                                                             \
      return nullptr;                                                               \
    }                                                                               \
  }                                                                                 \
  extern "C" MLX_BACKEND_EXPORT MLX_BackendABIInfo mlx_backend_abi_info() {         \
    return mlx_make_abi_info();                                                     \
  }                                                                                 \
  extern "C" MLX_BACKEND_EXPORT const char* mlx_backend_last_error() {              \
    return mlxd::plugin_detail::last_error().c_str();                               \
  }

// Defines mlx_backend_score(); an exception from score_fn() scores 0.
#define MLX_BACKEND_SCORE_IMPL(score_fn)                  \
  extern "C" MLX_BACKEND_EXPORT int mlx_backend_score() { \
    try {                                                 \
      return score_fn();                                  \
    } catch (...) {                                       \
      return 0;                                           \
    }                                                     \
  }
