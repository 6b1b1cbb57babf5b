// The .bin tensor file of mlxd-run (inputs and outputs); the Python side is
// mlx_delegate/tensor_bin.py. All integers little-endian.
//
//   file header, 16 bytes:
//     0   4  magic "MLXT"
//     4   4  uint32 version (1)
//     8   4  uint32 entry count
//    12   4  uint32 reserved (0)
//   then per entry:
//     0   1  uint8 kind: 0 = tensor, 1 = scalar (an Int / Double / Bool
//            program input or output; rank 0, dtype Int64 / Float64 / Bool)
//     1   1  uint8 dtype: the IR DType code (schema.fbs: Float32 = 0, Float16,
//            BFloat16, Int32, Int64, Int8, UInt8, Bool, Int16, UInt16,
//            UInt32, UInt64, Float64)
//     2   2  uint16 reserved (0)
//     4   4  uint32 rank
//     8  8r  int64 dims[rank]
//     .   8  uint64 nbytes (= product of dims * element size)
//     .   n  the elements, row-major (C-contiguous), little-endian
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

// Throw std::runtime_error naming the file and the problem.
std::vector<BinTensor> read_tensor_file(const std::string& path);
void write_tensor_file(const std::string& path, const std::vector<BinTensor>& tensors);

std::string describe(const BinTensor& t);  // "float32[2, 3]" / "int64 scalar"

}  // namespace mlxd::runner
