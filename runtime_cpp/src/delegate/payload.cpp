#include "payload.h"

#include <cstring>

#if MLXD_DELEGATE_VERIFY_FLATBUFFER
#include "schema_generated.h"
#endif

namespace mlxd::delegate {

namespace {

uint64_t read_u64_le(const uint8_t* p) noexcept {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

bool fail(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return false;
}

}  // namespace

bool payload_verifier_compiled_in() noexcept { return MLXD_DELEGATE_VERIFY_FLATBUFFER != 0; }

bool check_payload(const void* data, size_t size, PayloadLayout* layout, std::string* error) {
  if (data == nullptr) return fail(error, "payload is NULL");
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (size < kPayloadHeaderSize) {
    return fail(error, "payload of " + std::to_string(size) + " bytes is shorter than the " +
                           std::to_string(kPayloadHeaderSize) + "-byte MLX0 header");
  }
  if (bytes[0] != 0 || bytes[1] != 0 || bytes[2] != 0 || bytes[3] != 0) {
    return fail(error, "payload header does not start with 4 zero bytes");
  }
  if (std::memcmp(bytes + 4, kPayloadMagic, sizeof(kPayloadMagic)) != 0) {
    char seen[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < 4; ++i) {
      uint8_t c = bytes[4 + i];
      seen[i] = (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    return fail(error, std::string("bad payload magic '") + seen + "' (expected 'MLX0')");
  }
  uint64_t offset = read_u64_le(bytes + 8);
  uint64_t seg_size = read_u64_le(bytes + 16);
  size_t fb_end = size;
  if (seg_size > 0 || offset > 0) {
    if (offset < kPayloadHeaderSize || offset > size || seg_size > size - offset) {
      return fail(error, "data segment [" + std::to_string(offset) + ", +" +
                             std::to_string(seg_size) + ") lies outside the " +
                             std::to_string(size) + "-byte payload");
    }
    if (offset > 0) fb_end = static_cast<size_t>(offset);
  }
  size_t fb_size = fb_end - kPayloadHeaderSize;
  if (fb_size < 8) {
    return fail(error, "FlatBuffer region of " + std::to_string(fb_size) + " bytes is too short");
  }
  const uint8_t* fb = bytes + kPayloadHeaderSize;
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
    layout->data_offset = offset;
    layout->data_size = seg_size;
    layout->flatbuffer = fb;
    layout->flatbuffer_size = fb_size;
  }
  return true;
}

}  // namespace mlxd::delegate
