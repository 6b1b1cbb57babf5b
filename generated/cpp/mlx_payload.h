// generated from schema/schema.fbs by templates/ir/cpp/mlx_payload.h.j2, do not edit
//
// The delegate payload's header (`PayloadHeader` in the schema): its layout,
// magic and alignment, and the id of the delegate backend that receives it.
// The parser is runtime_cpp's payload_header.h.
#pragma once

#include <cstddef>

namespace mlxd::payload {

inline constexpr const char* kBackendId = "MLXDelegateBackend";
inline constexpr char kMagic[4] = {'M', 'L', 'X', '0'};
inline constexpr size_t kHeaderSize = 24;
inline constexpr size_t kAlignment = 16;

// Byte offset and size of each header field.
inline constexpr size_t k_zero_offset = 0;
inline constexpr size_t k_zero_size = 4;
inline constexpr size_t k_magic_offset = 4;
inline constexpr size_t k_magic_size = 4;
inline constexpr size_t k_data_offset_offset = 8;
inline constexpr size_t k_data_offset_size = 8;
inline constexpr size_t k_data_size_offset = 16;
inline constexpr size_t k_data_size_size = 8;

}  // namespace mlxd::payload
