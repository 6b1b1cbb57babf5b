#include "tensor_bin.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>

#include "tensor_file_generated.h"

namespace mlxd::runner {

namespace tf = mlxd::tensor_file;

namespace {

constexpr uint32_t kVersion = 2;  // the TensorFile.version this build reads and writes
constexpr uint32_t kMaxRank = 64;
constexpr const char* kRewrite =
    "write it again with mlx_delegate.formats.tensor_bin (write_tensors)";

static_assert(static_cast<uint8_t>(EntryKind::tensor) ==
                      static_cast<uint8_t>(tf::EntryKind_Tensor) &&
                  static_cast<uint8_t>(EntryKind::scalar) ==
                      static_cast<uint8_t>(tf::EntryKind_Scalar),
              "EntryKind must match schema/tensor_file.fbs");

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open for reading");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) throw std::runtime_error(path + ": read failed");
  return bytes;
}

uint32_t le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

// The root of a verified buffer of this build's version, or a message that
// says what the file is instead.
const tf::TensorFile* verified_root(const std::string& path, const std::vector<uint8_t>& bytes) {
  const uint8_t* data = bytes.data();
  // The raw layout before FlatBuffers began with "MLXT" and its version.
  if (bytes.size() >= 8 && std::memcmp(data, tf::TensorFileIdentifier(), 4) == 0) {
    throw std::runtime_error(path + " was written in the version-" +
                             std::to_string(le32(data + 4)) +
                             " raw layout; this build reads version " + std::to_string(kVersion) +
                             " (a FlatBuffer of schema/tensor_file.fbs): " + kRewrite);
  }
  if (bytes.size() < 8 || !tf::TensorFileBufferHasIdentifier(data)) {
    throw std::runtime_error(path + ": not a tensor file (no \"" +
                             std::string(tf::TensorFileIdentifier()) + "\" file identifier)");
  }
  flatbuffers::Verifier verifier(data, bytes.size());
  if (!tf::VerifyTensorFileBuffer(verifier)) {
    throw std::runtime_error(path + ": a truncated or corrupt tensor file (" +
                             std::to_string(bytes.size()) +
                             " bytes the FlatBuffers verifier rejects)");
  }
  const tf::TensorFile* root = tf::GetTensorFile(data);
  if (root->version() != kVersion) {
    std::string written = root->version() ? "format version " + std::to_string(root->version())
                                          : std::string("no format version");
    throw std::runtime_error(
        path + " has " + written + "; this build reads version " + std::to_string(kVersion) +
        ": read it with the mlxd-run of the mlx_delegate that wrote it, or " + kRewrite);
  }
  return root;
}

BinTensor checked_entry(const tf::Entry& entry, const std::string& where) {
  BinTensor t;
  if (entry.kind() != tf::EntryKind_Tensor && entry.kind() != tf::EntryKind_Scalar) {
    throw std::runtime_error(where + ": bad kind " +
                             std::to_string(static_cast<int>(entry.kind())));
  }
  t.kind = static_cast<EntryKind>(entry.kind());
  t.dtype = static_cast<DType>(entry.dtype());
  if (dtype_size(t.dtype) == 0) {
    throw std::runtime_error(where + ": unknown dtype code " + std::to_string(entry.dtype()));
  }
  uint32_t rank = entry.dims() ? entry.dims()->size() : 0;
  if (rank > kMaxRank) {
    throw std::runtime_error(where + ": rank " + std::to_string(rank) + " too large");
  }
  if (t.kind == EntryKind::scalar && rank != 0) {
    throw std::runtime_error(where + ": a scalar entry must have rank 0");
  }
  size_t numel = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    int64_t dim = entry.dims()->Get(d);
    if (dim < 0) throw std::runtime_error(where + ": negative dimension");
    if (dim > 0 && numel > std::numeric_limits<size_t>::max() / static_cast<size_t>(dim)) {
      throw std::runtime_error(where + ": too many elements");
    }
    numel *= static_cast<size_t>(dim);
    t.shape.push_back(dim);
  }
  size_t nbytes = entry.data() ? entry.data()->size() : 0;
  if (nbytes / dtype_size(t.dtype) != numel || nbytes % dtype_size(t.dtype) != 0) {
    throw std::runtime_error(where + ": " + std::to_string(nbytes) + " bytes for " + describe(t));
  }
  if (nbytes > 0) t.data.assign(entry.data()->begin(), entry.data()->end());
  return t;
}

}  // namespace

size_t BinTensor::numel() const {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

std::string describe(const BinTensor& t) {
  std::string s = dtype_name(t.dtype);
  if (t.kind == EntryKind::scalar) return s + " scalar";
  s += "[";
  for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(t.shape[i]);
  return s + "]";
}

std::vector<BinTensor> read_tensor_file(const std::string& path) {
  std::vector<uint8_t> bytes = read_file(path);
  const tf::TensorFile* root = verified_root(path, bytes);
  std::vector<BinTensor> out;
  out.reserve(root->entries()->size());
  for (uint32_t i = 0; i < root->entries()->size(); ++i) {
    out.push_back(checked_entry(*root->entries()->Get(i), path + ": entry " + std::to_string(i)));
  }
  return out;
}

void write_tensor_file(const std::string& path, const std::vector<BinTensor>& tensors) {
  // One FlatBuffer holds less than 2 GiB; the builder aborts past that, so ask first.
  size_t size = 64;
  for (const auto& t : tensors) size += t.data.size() + 8 * t.shape.size() + 64;
  if (size > FLATBUFFERS_MAX_BUFFER_SIZE) {
    throw std::runtime_error(path + ": " + std::to_string(size) +
                             " bytes of tensors; a tensor file holds at most 2 GiB");
  }
  flatbuffers::FlatBufferBuilder builder(size);
  std::vector<flatbuffers::Offset<tf::Entry>> entries;
  entries.reserve(tensors.size());
  for (const auto& t : tensors) {
    auto dims = builder.CreateVector(t.shape);
    auto data = builder.CreateVector(t.data);
    entries.push_back(tf::CreateEntry(builder, static_cast<tf::EntryKind>(t.kind),
                                      static_cast<int8_t>(t.dtype), dims, data));
  }
  tf::FinishTensorFileBuffer(
      builder, tf::CreateTensorFile(builder, kVersion, builder.CreateVector(entries)));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path + ": cannot open for writing");
  out.write(reinterpret_cast<const char*>(builder.GetBufferPointer()),
            static_cast<std::streamsize>(builder.GetSize()));
  if (!out) throw std::runtime_error(path + ": write failed");
}

}  // namespace mlxd::runner
