#include "tensor_bin.h"

#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace mlxd::runner {

namespace {

constexpr char kMagic[4] = {'M', 'L', 'X', 'T'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kMaxRank = 64;

class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
    if (!in_) throw std::runtime_error(path + ": cannot open for reading");
  }
  void bytes(void* out, size_t n, const char* what) {
    in_.read(static_cast<char*>(out), static_cast<std::streamsize>(n));
    if (static_cast<size_t>(in_.gcount()) != n) {
      throw std::runtime_error(path_ + ": truncated (while reading " + what + ")");
    }
  }
  template <typename T>
  T le(const char* what) {
    uint8_t b[sizeof(T)];
    bytes(b, sizeof(T), what);
    uint64_t v = 0;
    for (size_t i = sizeof(T); i-- > 0;) v = (v << 8) | b[i];
    if constexpr (sizeof(T) == 8) {
      T out;
      std::memcpy(&out, &v, sizeof(T));
      return out;
    } else {
      return static_cast<T>(v);
    }
  }
  bool at_end() { return in_.peek() == std::char_traits<char>::eof(); }

 private:
  std::string path_;
  std::ifstream in_;
};

template <typename T>
void put_le(std::string& out, T value) {
  uint64_t v = 0;
  std::memcpy(&v, &value, sizeof(T));
  for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
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
  Reader r(path);
  char magic[4];
  r.bytes(magic, 4, "the magic");
  if (std::memcmp(magic, kMagic, 4) != 0) {
    throw std::runtime_error(path + ": not a tensor file (magic is not 'MLXT')");
  }
  uint32_t version = r.le<uint32_t>("the version");
  if (version != kVersion) {
    throw std::runtime_error(path + ": unsupported tensor file version " + std::to_string(version));
  }
  uint32_t count = r.le<uint32_t>("the entry count");
  (void)r.le<uint32_t>("the header");
  std::vector<BinTensor> out;
  for (uint32_t i = 0; i < count; ++i) {
    std::string where = "entry " + std::to_string(i);
    BinTensor t;
    uint8_t kind = r.le<uint8_t>(where.c_str());
    uint8_t dtype = r.le<uint8_t>(where.c_str());
    (void)r.le<uint16_t>(where.c_str());
    uint32_t rank = r.le<uint32_t>(where.c_str());
    if (kind > 1)
      throw std::runtime_error(path + ": " + where + ": bad kind " + std::to_string(kind));
    t.kind = static_cast<EntryKind>(kind);
    t.dtype = static_cast<DType>(dtype);
    if (dtype_size(t.dtype) == 0) {
      throw std::runtime_error(path + ": " + where + ": unknown dtype code " +
                               std::to_string(dtype));
    }
    if (rank > kMaxRank) {
      throw std::runtime_error(path + ": " + where + ": rank " + std::to_string(rank) +
                               " too large");
    }
    if (t.kind == EntryKind::scalar && rank != 0) {
      throw std::runtime_error(path + ": " + where + ": a scalar entry must have rank 0");
    }
    size_t numel = 1;
    for (uint32_t d = 0; d < rank; ++d) {
      int64_t dim = r.le<int64_t>(where.c_str());
      if (dim < 0) throw std::runtime_error(path + ": " + where + ": negative dimension");
      if (dim > 0 && numel > std::numeric_limits<size_t>::max() / static_cast<size_t>(dim)) {
        throw std::runtime_error(path + ": " + where + ": too many elements");
      }
      numel *= static_cast<size_t>(dim);
      t.shape.push_back(dim);
    }
    uint64_t nbytes = r.le<uint64_t>(where.c_str());
    if (nbytes / dtype_size(t.dtype) != numel || nbytes % dtype_size(t.dtype) != 0) {
      throw std::runtime_error(path + ": " + where + ": " + std::to_string(nbytes) + " bytes for " +
                               describe(t));
    }
    t.data.resize(nbytes);
    if (nbytes > 0) r.bytes(t.data.data(), nbytes, where.c_str());
    out.push_back(std::move(t));
  }
  if (!r.at_end()) throw std::runtime_error(path + ": trailing bytes after the last entry");
  return out;
}

void write_tensor_file(const std::string& path, const std::vector<BinTensor>& tensors) {
  std::string buf(kMagic, 4);
  put_le<uint32_t>(buf, kVersion);
  put_le<uint32_t>(buf, static_cast<uint32_t>(tensors.size()));
  put_le<uint32_t>(buf, 0);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path + ": cannot open for writing");
  for (const auto& t : tensors) {
    put_le<uint8_t>(buf, static_cast<uint8_t>(t.kind));
    put_le<uint8_t>(buf, static_cast<uint8_t>(t.dtype));
    put_le<uint16_t>(buf, 0);
    put_le<uint32_t>(buf, static_cast<uint32_t>(t.shape.size()));
    for (int64_t d : t.shape) put_le<int64_t>(buf, d);
    put_le<uint64_t>(buf, static_cast<uint64_t>(t.data.size()));
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    buf.clear();
    out.write(reinterpret_cast<const char*>(t.data.data()),
              static_cast<std::streamsize>(t.data.size()));
  }
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  if (!out) throw std::runtime_error(path + ": write failed");
}

}  // namespace mlxd::runner
