#include "runner_common.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "mlx_delegate/delegate_c_api.h"

namespace et = executorch::runtime;

namespace mlxd::runner {

const char* error_name(et::Error e) {
  switch (e) {
    case et::Error::Ok:
      return "Ok";
    case et::Error::Internal:
      return "Internal";
    case et::Error::InvalidState:
      return "InvalidState";
    case et::Error::EndOfMethod:
      return "EndOfMethod";
    case et::Error::NotSupported:
      return "NotSupported";
    case et::Error::NotImplemented:
      return "NotImplemented";
    case et::Error::InvalidArgument:
      return "InvalidArgument";
    case et::Error::InvalidType:
      return "InvalidType";
    case et::Error::OperatorMissing:
      return "OperatorMissing";
    case et::Error::NotFound:
      return "NotFound";
    case et::Error::MemoryAllocationFailed:
      return "MemoryAllocationFailed";
    case et::Error::AccessFailed:
      return "AccessFailed";
    case et::Error::InvalidProgram:
      return "InvalidProgram";
    case et::Error::InvalidExternalData:
      return "InvalidExternalData";
    case et::Error::OutOfResources:
      return "OutOfResources";
    case et::Error::DelegateInvalidCompatibility:
      return "DelegateInvalidCompatibility";
    case et::Error::DelegateMemoryAllocationFailed:
      return "DelegateMemoryAllocationFailed";
    case et::Error::DelegateInvalidHandle:
      return "DelegateInvalidHandle";
    default:
      return "error";
  }
}

std::string fail(const std::string& what, et::Error e) {
  char code[16];
  std::snprintf(code, sizeof code, "0x%x", static_cast<unsigned>(e));
  return what + ": " + error_name(e) + " (" + code + ")";
}

void load_method(executorch::extension::Module& module, const std::string& method,
                 const std::string& device, const std::string& model) {
  et::BackendOption device_option;
  et::LoadBackendOptionsMap backend_options;
  if (!device.empty()) {
    std::snprintf(device_option.key, sizeof device_option.key, "%s", "device");
    std::array<char, et::kMaxOptionValueLength> value{};
    std::snprintf(value.data(), value.size(), "%s", device.c_str());
    device_option.value = value;
    et::Error err = backend_options.set_options(mlxd_delegate_backend_id(),
                                                et::Span<et::BackendOption>(&device_option, 1));
    if (err != et::Error::Ok) throw std::runtime_error(fail("setting the device option", err));
  }
  et::Error err =
      module.load_method(method, nullptr, nullptr, device.empty() ? nullptr : &backend_options);
  if (err != et::Error::Ok)
    throw std::runtime_error(fail("loading method '" + method + "' of " + model, err));
}

void Usage::error(const std::string& message) const {
  std::fprintf(stderr, "%s: %s\n\n%s", program_, message.c_str(), text_);
  std::exit(2);
}

double Usage::number(const std::string& flag, const char* text, double min, double max) const {
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || v < min || v > max) {
    error(flag + " takes a number in [" + std::to_string(min) + ", " + std::to_string(max) +
          "], got '" + text + "'");
  }
  return v;
}

std::vector<int64_t> Usage::ids(const std::string& flag, const char* text) const {
  std::vector<int64_t> ids;
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    char* end = nullptr;
    long long v = std::strtoll(word.c_str(), &end, 10);
    if (*end != '\0' || v < 0) error(flag + ": '" + word + "' is not a token id");
    ids.push_back(v);
  }
  if (ids.empty()) error(flag + " has no token ids");
  return ids;
}

}  // namespace mlxd::runner
