// What mlxd-run and mlxd-generate share: ExecuTorch error names, and loading a
// method with the delegate's load-time device option.
#pragma once

#include <executorch/extension/module/module.h>
#include <executorch/runtime/backend/backend_options_map.h>
#include <executorch/runtime/backend/options.h>

#include <string>

namespace mlxd::runner {

const char* error_name(executorch::runtime::Error e);

// "WHAT: NAME (0xCODE)".
std::string fail(const std::string& what, executorch::runtime::Error e);

// Loads `method`; a non-empty `device` travels as our backend's load-time
// runtime spec "device" (it wins over the compile spec and the environment).
// Throws std::runtime_error with the reason on failure.
void load_method(executorch::extension::Module& module, const std::string& method,
                 const std::string& device, const std::string& model);

}  // namespace mlxd::runner
