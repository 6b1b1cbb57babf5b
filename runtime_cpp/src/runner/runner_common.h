// What the runners (mlxd-run, mlxd-generate, mlxd-transcribe) share: ExecuTorch
// error names, loading a method with the delegate's load-time device option, and
// the command line's usage errors and numbers.
#pragma once

#include <executorch/extension/module/module.h>
#include <executorch/runtime/backend/backend_options_map.h>
#include <executorch/runtime/backend/options.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mlxd::runner {

const char* error_name(executorch::runtime::Error e);

// "WHAT: NAME (0xCODE)".
std::string fail(const std::string& what, executorch::runtime::Error e);

// Loads `method`; a non-empty `device` travels as our backend's load-time
// runtime spec "device" (it wins over the compile spec and the environment).
// Throws std::runtime_error with the reason on failure.
void load_method(executorch::extension::Module& module, const std::string& method,
                 const std::string& device, const std::string& model);

// A runner's command line: a usage error prints "PROGRAM: MESSAGE", a blank line
// and the usage text to stderr, and exits with status 2.
class Usage {
 public:
  Usage(const char* program, const char* text) : program_(program), text_(text) {}

  [[noreturn]] void error(const std::string& message) const;

  // `text`, the value of `flag`, as a number in [min, max]; else a usage error.
  double number(const std::string& flag, const char* text, double min, double max) const;

  // `text`, the value of `flag`: token ids separated by white space, at least
  // one, none negative; else a usage error.
  std::vector<int64_t> ids(const std::string& flag, const char* text) const;

 private:
  const char* program_;
  const char* text_;
};

}  // namespace mlxd::runner
