// The one C++ reader of the delegate payload's header. Its layout, magic and
// alignment come from the schema's `PayloadHeader` (generated/cpp/mlx_payload.h).
// Header-only and noexcept: the delegate, the plugins and mlxd-ir-dump use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "mlx_payload.h"

namespace mlxd::payload {

struct Regions {
  const uint8_t* flatbuffer = nullptr;
  size_t flatbuffer_size = 0;
  uint64_t data_offset = 0;  // 0: no data segment
  uint64_t data_size = 0;
};

inline uint64_t read_le(const uint8_t* p, size_t bytes) noexcept {
  uint64_t v = 0;
  for (size_t i = bytes; i-- > 0;) v = (v << 8) | p[i];
  return v;
}

// Whether the bytes carry the header's magic where the header has it; a payload
// without it is a bare FlatBuffer (as the plugins also accept).
inline bool has_header(const uint8_t* bytes, size_t size) noexcept {
  return bytes != nullptr && size >= k_magic_offset + k_magic_size &&
         std::memcmp(bytes + k_magic_offset, kMagic, k_magic_size) == 0;
}

// Checks the header and that the FlatBuffer and the data segment lie inside the
// payload; false with a one-line reason in *error. Never reads out of bounds.
inline bool parse(const uint8_t* bytes, size_t size, Regions* out, std::string* error) {
  auto fail = [error](std::string message) {
    if (error != nullptr) *error = std::move(message);
    return false;
  };
  if (bytes == nullptr) return fail("payload is NULL");
  if (size < kHeaderSize) {
    return fail("truncated MLX0 header: the payload has " + std::to_string(size) +
                " bytes, the header " + std::to_string(kHeaderSize));
  }
  if (read_le(bytes + k_zero_offset, k_zero_size) != 0) {
    return fail("payload header does not start with 4 zero bytes");
  }
  if (!has_header(bytes, size)) {
    char seen[k_magic_size + 1] = {};
    for (size_t i = 0; i < k_magic_size; ++i) {
      uint8_t c = bytes[k_magic_offset + i];
      seen[i] = (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    return fail(std::string("bad payload magic '") + seen + "' (expected '" +
                std::string(kMagic, k_magic_size) + "')");
  }
  uint64_t offset = read_le(bytes + k_data_offset_offset, k_data_offset_size);
  uint64_t segment = read_le(bytes + k_data_size_offset, k_data_size_size);
  size_t flatbuffer_end = size;
  if (offset != 0 || segment != 0) {
    if (offset < kHeaderSize || offset > size || segment > size - offset) {
      return fail("MLX0 header: data segment [" + std::to_string(offset) + ", +" +
                  std::to_string(segment) + ") lies outside the " + std::to_string(size) +
                  "-byte payload");
    }
    flatbuffer_end = static_cast<size_t>(offset);
  }
  if (out != nullptr) {
    out->flatbuffer = bytes + kHeaderSize;
    out->flatbuffer_size = flatbuffer_end - kHeaderSize;
    out->data_offset = offset;
    out->data_size = segment;
  }
  return true;
}

}  // namespace mlxd::payload
