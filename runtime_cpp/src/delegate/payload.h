// The delegate payload: a 24-byte header, the IR FlatBuffer, an optional
// data segment.
//
//   bytes  0..3   zero
//   bytes  4..7   magic "MLX0"
//   bytes  8..15  data segment offset (uint64 little-endian), 0 = none
//   bytes 16..23  data segment size (uint64 little-endian)
//   bytes 24..    the FlatBuffer (root table mlxd.ir.MLXGraph, identifier
//                 "MLXG"), up to the data segment or the end of the payload
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mlxd::delegate {

inline constexpr size_t kPayloadHeaderSize = 24;
inline constexpr char kPayloadMagic[4] = {'M', 'L', 'X', '0'};

struct PayloadLayout {
  uint64_t data_offset = 0;
  uint64_t data_size = 0;
  const uint8_t* flatbuffer = nullptr;
  size_t flatbuffer_size = 0;
};

// Checks the header, the bounds of both regions and (when the delegate was
// built with the generated schema header) verifies the FlatBuffer. Returns
// false with a one-line reason in *error; never throws, never reads out of
// bounds.
bool check_payload(const void* data, size_t size, PayloadLayout* layout, std::string* error);

// True when check_payload() also runs the FlatBuffer verifier.
bool payload_verifier_compiled_in() noexcept;

}  // namespace mlxd::delegate
