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

#include "mlx_delegate/payload_header.h"
#include "mlx_program.h"

namespace {

// The FlatBuffer's bytes: after the header when there is one, up to the data
// segment.
std::vector<uint64_t> flatbuffer_of(const std::vector<char>& bytes, size_t* size) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t begin = 0, end = bytes.size();
  if (mlxd::payload::has_header(data, bytes.size())) {
    mlxd::payload::Regions regions;
    std::string error;
    if (!mlxd::payload::parse(data, bytes.size(), &regions, &error)) throw mlxd::LoadError(error);
    begin = static_cast<size_t>(regions.flatbuffer - data);
    end = begin + regions.flatbuffer_size;
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
