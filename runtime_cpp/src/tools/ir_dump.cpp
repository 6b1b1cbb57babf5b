// mlxd-ir-dump PAYLOAD: loads an IR payload (with or without its MLX0 header)
// through the generated loader and prints the program as JSON on one line.
// Links the loader and flatbuffers only (no MLX, no ExecuTorch): the tests use
// it to check that every field the Python serializer writes is read back.
#include <cstdint>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

#include "mlx_program.h"

namespace {

constexpr size_t kHeaderSize = 24;

// The FlatBuffer's bytes: after the header when there is one (magic "MLX0" at
// offset 4), up to the data segment offset it records.
std::vector<uint64_t> flatbuffer_of(const std::vector<char>& bytes, size_t* size) {
  size_t begin = 0, end = bytes.size();
  if (bytes.size() >= kHeaderSize && std::memcmp(bytes.data() + 4, "MLX0", 4) == 0) {
    uint64_t segment_offset = 0;
    std::memcpy(&segment_offset, bytes.data() + 8, sizeof segment_offset);
    if (segment_offset < kHeaderSize || segment_offset > bytes.size()) {
      throw mlxd::LoadError("MLX0 header points outside the payload");
    }
    begin = kHeaderSize;
    end = segment_offset;
  }
  *size = end - begin;
  // FlatBuffers needs its buffer aligned: copy into 8-byte aligned storage.
  std::vector<uint64_t> aligned((*size + 7) / 8);
  std::memcpy(aligned.data(), bytes.data() + begin, *size);
  return aligned;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: mlxd-ir-dump PAYLOAD\n";
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  if (!file) {
    std::cerr << "error: cannot read " << argv[1] << "\n";
    return 1;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  try {
    size_t size = 0;
    auto buffer = flatbuffer_of(bytes, &size);
    auto program = mlxd::load_program(reinterpret_cast<const uint8_t*>(buffer.data()), size);
    std::cout << mlxd::to_json(program) << "\n";
  } catch (const std::exception& error) {
    std::cerr << "error: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
