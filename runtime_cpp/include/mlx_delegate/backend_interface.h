// The contract between the mlx-delegate host and its backend plugins.
//
// The host links no MLX: every type that crosses this interface is a plain
// C++ standard-library type or one of the small structs below. A plugin
// carries its own MLX and converts at its edge.
//
// Both sides must be built by the same compiler ABI (checked before
// mlx_backend_init() through MLX_BackendABIInfo, see backend_plugin.h).
// Calls through BackendInterface are ordinary C++ calls: methods may throw
// std::exception subclasses and the host catches them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "mlx_dtypes.h"

// Incremented when this interface changes in an ABI-incompatible way.
#define MLX_BACKEND_API_VERSION 3

namespace mlxd {

enum class DeviceType : int32_t { cpu = 0, gpu = 1 };

inline const char* device_type_name(DeviceType t) noexcept {
  return t == DeviceType::gpu ? "gpu" : "cpu";
}

// Element types: the IR schema's `DType` enum, numbers and facts generated
// from it (mlx_dtypes.h).
enum class DType : int32_t {
#define MLXD_DTYPE_ENUMERATOR(name, code, bytes, torch, mlx, executorch) name = code,
  MLXD_FOR_EACH_DTYPE(MLXD_DTYPE_ENUMERATOR)
#undef MLXD_DTYPE_ENUMERATOR
};

// Bytes per element; 0 for an unknown value.
inline size_t dtype_size(DType t) noexcept {
  switch (t) {
#define MLXD_DTYPE_SIZE(name, code, bytes, torch, mlx, executorch) \
  case DType::name:                                                \
    return bytes;
    MLXD_FOR_EACH_DTYPE(MLXD_DTYPE_SIZE)
#undef MLXD_DTYPE_SIZE
  }
  return 0;
}

inline const char* dtype_name(DType t) noexcept {
  switch (t) {
#define MLXD_DTYPE_NAME(name, code, bytes, torch, mlx, executorch) \
  case DType::name:                                                \
    return torch;
    MLXD_FOR_EACH_DTYPE(MLXD_DTYPE_NAME)
#undef MLXD_DTYPE_NAME
  }
  return "unknown";
}

struct BackendInfo {
  std::string name;  // "cpu", "cpu-openblas", "cuda", ...
  DeviceType device_type = DeviceType::cpu;
  int score = 0;  // higher is better; 0 = unsupported here
  int device_count = 1;

  using PropertyMap = std::unordered_map<std::string, std::variant<std::string, size_t>>;
  std::vector<PropertyMap> device_properties;  // one per device
};

// A read-only host buffer with its dtype and shape (row-major, contiguous).
struct TensorView {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  const void* data = nullptr;
  size_t nbytes = 0;
};

// A host buffer the backend writes into. The caller sets `data` and
// `capacity`, or `prepare`; the backend sets `dtype`, `shape` and `nbytes`,
// and throws when the result does not fit.
struct OutputBuffer {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  void* data = nullptr;
  size_t capacity = 0;
  size_t nbytes = 0;
  // Optional: called with the result's dtype, shape and size before the
  // copy; returns where to write those bytes (e.g. after resizing an
  // ExecuTorch tensor). nullptr = write to `data` within `capacity`.
  std::function<void*(DType, const std::vector<int64_t>&, size_t)> prepare;
};

// A constant's bytes, owned by the host for the program's lifetime.
struct ConstantBuffer {
  const void* data = nullptr;
  size_t nbytes = 0;
};

// Resolves a constant (or mutable buffer initial value) by its name in the
// program. Returns false when the name is unknown. The bytes must stay valid
// until the program handle is destroyed (backends may wrap them zero-copy).
using ConstantResolver = std::function<bool(const std::string& name, ConstantBuffer& out)>;

// A program loaded on one device of one backend. Opaque to the host apart
// from the queries below; destroying it releases the backend's resources.
class ProgramHandle {
 public:
  virtual ~ProgramHandle() = default;
  virtual size_t num_inputs() const = 0;
  virtual size_t num_outputs() const = 0;
  // The backend that loaded the program and the backend-local index of its
  // device.
  virtual const std::string& backend_name() const = 0;
  virtual int device_index() const = 0;
};

class BackendInterface {
 public:
  virtual ~BackendInterface() = default;

  virtual int api_version() const = 0;
  virtual BackendInfo info() const = 0;

  // Device queries (device_index is backend-local).
  virtual bool is_available() const = 0;
  virtual int device_count() const = 0;
  virtual const BackendInfo::PropertyMap& device_info(int device_index = 0) const = 0;

  // Programs. `payload` is the delegate payload (the IR FlatBuffer, with or
  // without the MLX0 header); it is validated before use and a malformed one
  // is rejected with std::runtime_error. The payload bytes may be released
  // after the call; constants must outlive the handle.
  //
  // `device_index` is backend-local. A program runs on one device; a model
  // over several devices runs as a process a device, whose programs meet in
  // their collectives (AllSumNode, AllGatherNode).
  virtual std::unique_ptr<ProgramHandle> load_program(int device_index, const uint8_t* payload,
                                                      size_t size,
                                                      const ConstantResolver& constants) = 0;

  // Runs a program: inputs are host buffers in the program's input order,
  // outputs are filled in the program's output order (outputs.size() must be
  // num_outputs()). Mutable buffers persist across calls.
  virtual void execute(ProgramHandle& program, const std::vector<TensorView>& inputs,
                       std::vector<OutputBuffer>& outputs) = 0;

  // Built-in diagnostic kernels (no program needed), used for self tests and
  // benchmarks of a backend: "matmul" (a @ b), "add" (a + b). Returns the
  // number of seconds spent per repetition (after one warm-up run).
  virtual double run_builtin(const std::string& op, int device_index,
                             const std::vector<TensorView>& inputs,
                             std::vector<OutputBuffer>& outputs, int repeat) = 0;

  // Waits for all work queued on the device.
  virtual void synchronize(int device_index = 0) = 0;

  // Memory management (the 9 MLX memory functions).
  virtual size_t get_active_memory() const = 0;
  virtual size_t get_peak_memory() const = 0;
  virtual void reset_peak_memory() = 0;
  virtual size_t get_cache_memory() const = 0;
  virtual size_t set_cache_limit(size_t limit) = 0;
  virtual size_t set_memory_limit(size_t limit) = 0;
  virtual size_t get_memory_limit() const = 0;
  virtual size_t set_wired_limit(size_t limit) = 0;
  virtual void clear_cache() = 0;
};

}  // namespace mlxd
