// The delegate's payload check, and its C entry points for FFI callers.
#include "payload.h"

#include <cstring>
#include <string>

#if MLXD_DELEGATE_VERIFY_FLATBUFFER
#include "schema_generated.h"
#endif

#include "mlx_delegate/delegate_c_api.h"

namespace mlxd::delegate {

namespace {

bool fail(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return false;
}

}  // namespace

bool payload_verifier_compiled_in() noexcept { return MLXD_DELEGATE_VERIFY_FLATBUFFER != 0; }

bool check_payload(const void* data, size_t size, PayloadLayout* layout, std::string* error) {
  payload::Regions regions;
  if (!payload::parse(static_cast<const uint8_t*>(data), size, &regions, error)) return false;
  size_t fb_size = regions.flatbuffer_size;
  if (fb_size < 8) {
    return fail(error, "FlatBuffer region of " + std::to_string(fb_size) + " bytes is too short");
  }
  const uint8_t* fb = regions.flatbuffer;
#if MLXD_DELEGATE_VERIFY_FLATBUFFER
  if (!mlxd::ir::MLXGraphBufferHasIdentifier(fb)) {
    return fail(error, "FlatBuffer does not carry the 'MLXG' file identifier");
  }
  flatbuffers::Verifier::Options options;
  options.max_depth = 128;
  options.max_tables = 100u * 1000u * 1000u;
  flatbuffers::Verifier verifier(fb, fb_size, options);
  if (!mlxd::ir::VerifyMLXGraphBuffer(verifier)) {
    return fail(error, "FlatBuffer verification failed (corrupt or not an MLXGraph)");
  }
#else
  if (std::memcmp(fb + 4, "MLXG", 4) != 0) {
    return fail(error, "FlatBuffer does not carry the 'MLXG' file identifier");
  }
#endif
  if (layout != nullptr) {
    layout->data_offset = regions.data_offset;
    layout->data_size = regions.data_size;
    layout->flatbuffer = fb;
    layout->flatbuffer_size = fb_size;
  }
  return true;
}

}  // namespace mlxd::delegate

extern "C" {

__attribute__((visibility("default"))) int mlxd_delegate_verifies_flatbuffer(void) {
  return mlxd::delegate::payload_verifier_compiled_in() ? 1 : 0;
}

__attribute__((visibility("default"))) int mlxd_delegate_check_payload(const void* data,
                                                                       size_t size, char* error,
                                                                       size_t error_size) {
  std::string why;
  if (mlxd::delegate::check_payload(data, size, nullptr, &why)) return 0;
  if (error != nullptr && error_size > 0) {
    std::strncpy(error, why.c_str(), error_size - 1);
    error[error_size - 1] = '\0';
  }
  return -1;
}

}  // extern "C"
