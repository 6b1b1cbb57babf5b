// The .bin tensor file of mlxd-run (inputs and outputs) and mlxd-transcribe
// (features): a FlatBuffer of schema/tensor_file.fbs (file identifier "MLXT",
// format version 2), read and written through flatc's header for it
// (generated/cpp/tensor_file_generated.h); the Python side is
// mlx_delegate/formats/tensor_bin.py. Each entry is a tensor or a scalar (an Int /
// Double / Bool program input or output: rank 0, dtype Int64 / Float64 /
// Bool) with its IR DType code, dims and row-major little-endian bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mlx_delegate/backend_interface.h"

namespace mlxd::runner {

enum class EntryKind : uint8_t { tensor = 0, scalar = 1 };

struct BinTensor {
  EntryKind kind = EntryKind::tensor;
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;  // nbytes bytes

  size_t numel() const;
};

// Throw std::runtime_error naming the file and the problem: another format, a
// file of the raw version-1 layout or of another format version, a corrupt or
// truncated buffer (the FlatBuffers verifier), an entry whose bytes do not
// match its dtype and dims.
std::vector<BinTensor> read_tensor_file(const std::string& path);
void write_tensor_file(const std::string& path, const std::vector<BinTensor>& tensors);

std::string describe(const BinTensor& t);  // "float32[2, 3]" / "int64 scalar"

}  // namespace mlxd::runner
