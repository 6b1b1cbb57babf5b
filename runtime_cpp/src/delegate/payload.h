// The delegate payload: the header of the schema's `PayloadHeader` (read by
// mlx_delegate/payload_header.h), the IR FlatBuffer (root table
// mlxd.ir.MLXGraph, identifier "MLXG"), an optional data segment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "mlx_delegate/payload_header.h"

namespace mlxd::delegate {

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
