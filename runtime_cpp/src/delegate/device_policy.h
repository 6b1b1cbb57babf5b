// Which backend plugin and device a delegated program runs on.
//
// Device selection, first match wins:
//   1. the load-time runtime spec "device" (LoadBackendOptionsMap, e.g. from
//      mlxd-run --device),
//   2. the process-wide override set through
//      executorch::runtime::set_option("MLXDelegateBackend", {"device": ...})
//      or mlxd_delegate_set_device(),
//   3. the environment variable MLX_DELEGATE_DEVICE,
//   4. the compile spec "device" written at export time,
//   5. the default: the first GPU when a GPU backend is loaded, else the CPU.
// A program runs on one device (several devices: a process each). "auto" (or
// an empty value) at any level means "no preference here". A GPU from the
// compile spec or the default falls back to the CPU (info log) when no GPU
// backend is loaded at all. Every other device that no backend owns is an error naming the
// devices there are: any device from levels 1 to 3, a CPU index past the last
// CPU, a GPU index past the last GPU (gpu:1 with one GPU).
#pragma once

#include <executorch/runtime/backend/interface.h>

#include <string>

#include "mlx_delegate/registry.h"

namespace mlxd::delegate {

// Loads the plugins once (unless the application already loaded some, e.g.
// through mlx_delegate.host.backends.load_all with a filter). Returns false when
// no backend is available, after logging why.
bool ensure_backends_loaded();

// Where a program runs: one device.
struct Placement {
  BackendInterface* backend = nullptr;
  std::string backend_name;
  Device device;
  int local_index = 0;  // the device's index within its backend
  std::string source;   // which level of the selection chose the device
};

// Chooses the program's device by the order above and resolves it to its
// backend; an error (already logged) when that fails.
executorch::runtime::Error place_program(
    executorch::runtime::BackendInitContext& context,
    executorch::runtime::ArrayRef<executorch::runtime::CompileSpec> compile_specs,
    Placement* placement);

// The process-wide override (level 2); empty when unset.
std::string device_override();
// Sets the override, or clears it with "" or "auto"; false with the parse
// error in *error when `value` names no device.
bool set_device_override(const std::string& value, std::string* error);

}  // namespace mlxd::delegate
