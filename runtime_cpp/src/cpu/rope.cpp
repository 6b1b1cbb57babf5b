// First the table: each position's cosines and sines (per batch entry where
// the offsets differ; the last one made is kept for the calls after it), then a task takes rows,
// each read once into float32, rotated with its position's row of the table and written once.
#include "rope.h"

#include <mlx/primitives.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "kernel_util.h"
#include "row_io.h"
#include "thread_pool.h"
#include "vector_math.h"

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

int32_t offset_at(const mx::array& offset, int64_t i) {
  return offset.data<int32_t>()[offset.size() == 1 ? 0 : i * offset.strides()[0]];
}

struct RopeProblem {
  const mx::array* x;
  Elt elt;
  int64_t D, dims, half;
  int64_t T;               // positions: x's second-to-last axis
  int64_t rows_per_batch;  // rows of one batch entry (x.shape(0))
  int64_t offsets;         // 1, or one per batch entry
  bool traditional;
  const float* table;  // [offsets][T]: half cosines, then half sines
  void* out;
};

// What a table is made of: the offsets, the positions from each, the scale
// and the frequencies' reciprocals (f_i).
struct TableKey {
  std::vector<int32_t> offsets;
  int64_t T = 0;
  float scale = 0.0f;
  std::vector<float> inv_freq;

  bool operator==(const TableKey& other) const {
    return offsets == other.offsets && T == other.T && scale == other.scale &&
           inv_freq == other.inv_freq;
  }
};

// Rows [begin, end) of `key`'s table, one (offset, t) each, into `table`.
void fill_table(const TableKey& key, int64_t begin, int64_t end, float* table) {
  const int64_t half = static_cast<int64_t>(key.inv_freq.size());
  for (int64_t r = begin; r < end; ++r) {
    const float position = key.scale * static_cast<float>(key.offsets[r / key.T] + r % key.T);
    float* cosines = table + r * 2 * half;
    float* sines = cosines + half;
    for (int64_t i = 0; i < half; ++i) {
      const float theta = position * key.inv_freq[i];
      cosines[i] = std::cos(theta);
      sines[i] = std::sin(theta);
    }
  }
}

// `key`'s table. The last one made on this thread is kept: MLX's CPU stream
// runs its tasks on one thread, and a layer's queries and keys, and every
// layer of a step, rotate by the same positions (a Llama-3.2-1B prefill of
// 512 tokens: 32 calls, one table of 16,384 cosines and sines).
const float* table_of(const TableKey& key) {
  thread_local TableKey made;
  thread_local std::vector<float> table;
  if (!(made == key) || table.empty()) {
    const int64_t rows = static_cast<int64_t>(key.offsets.size()) * key.T;
    const int64_t half = static_cast<int64_t>(key.inv_freq.size());
    table.resize(static_cast<size_t>(rows * 2 * half));
    // A cosine and a sine through libm cost about what 16 values of a row pass do.
    // The workers write through `data`: the name `table` would be each one's own.
    float* data = table.data();
    parallel_ranges(rows, rows * half * 16,
                    [&](int64_t begin, int64_t end) { fill_table(key, begin, end, data); });
    made = key;
  }
  return table.data();
}

void rotate_rows(const RopeProblem& p, int64_t begin, int64_t end) {
  const mx::array& x = *p.x;
  const int64_t D = p.D, half = p.half, step = x.strides().back();
  thread_local std::vector<float> row, rotated;
  row.resize(static_cast<size_t>(D));
  rotated.resize(static_cast<size_t>(D));
  for (int64_t r = begin; r < end; ++r) {
    row_as_float(row_of(x, r), step, p.elt, D, row.data());
    const int64_t o = p.offsets == 1 ? 0 : r / p.rows_per_batch;
    const float* c = p.table + (o * p.T + r % p.T) * 2 * half;
    const float* s = c + half;
    if (p.traditional) {
      for (int64_t i = 0; i < half; ++i) {
        const float a = row[2 * i], b = row[2 * i + 1];
        rotated[2 * i] = a * c[i] - b * s[i];
        rotated[2 * i + 1] = a * s[i] + b * c[i];
      }
    } else {
      const float *a = row.data(), *b = row.data() + half;
      float *ya = rotated.data(), *yb = rotated.data() + half;
      int64_t i = 0;
      for (; i + kLanes <= half; i += kLanes) {
        vf va, vb, vc, vs;
        std::memcpy(&va, a + i, sizeof(va));
        std::memcpy(&vb, b + i, sizeof(vb));
        std::memcpy(&vc, c + i, sizeof(vc));
        std::memcpy(&vs, s + i, sizeof(vs));
        vf ra = va * vc - vb * vs, rb = vb * vc + va * vs;
        std::memcpy(ya + i, &ra, sizeof(ra));
        std::memcpy(yb + i, &rb, sizeof(rb));
      }
      for (; i < half; ++i) {
        ya[i] = a[i] * c[i] - b[i] * s[i];
        yb[i] = b[i] * c[i] + a[i] * s[i];
      }
    }
    std::copy(row.begin() + p.dims, row.end(), rotated.begin() + p.dims);
    float_as_row(rotated.data(), D, p.out, r * D, p.elt);
  }
}

void run_rope(int dims, bool traditional, float base, float scale, bool has_freqs,
              const std::vector<mx::array>& in, mx::array& out) {
  const mx::array &x = in[0], &offset = in[1];
  RopeProblem p;
  p.x = &x;
  elt_of(x.dtype(), &p.elt);
  p.D = x.shape(-1);
  p.dims = dims;
  p.half = dims / 2;
  p.T = x.shape(-2);
  const int64_t rows = p.D == 0 ? 0 : static_cast<int64_t>(x.size()) / p.D;
  p.rows_per_batch = x.shape(0) == 0 ? 0 : rows / x.shape(0);
  p.offsets = static_cast<int64_t>(offset.size());
  p.traditional = traditional;
  p.out = out.data<void>();
  if (rows == 0) return;
  thread_local TableKey key;
  key.T = p.T;
  key.scale = scale;
  key.offsets.resize(static_cast<size_t>(p.offsets));
  for (int64_t o = 0; o < p.offsets; ++o) key.offsets[o] = offset_at(offset, o);
  key.inv_freq.resize(static_cast<size_t>(p.half));
  for (int64_t i = 0; i < p.half; ++i) {
    if (has_freqs) {
      Elt e;
      elt_of(in[2].dtype(), &e);
      key.inv_freq[i] = 1.0f / load_elt(in[2].data<void>(), i * in[2].strides()[0], e);
    } else {
      key.inv_freq[i] = static_cast<float>(std::pow(static_cast<double>(base), -2.0 * i / dims));
    }
  }
  p.table = table_of(key);
  parallel_ranges(rows, static_cast<int64_t>(x.size()),
                  [&](int64_t begin, int64_t end) { rotate_rows(p, begin, end); });
}

class RopeCpu : public mx::UnaryPrimitive {
 public:
  RopeCpu(mx::Stream stream, int dims, bool traditional, float base, float scale, bool has_freqs)
      : mx::UnaryPrimitive(stream),
        dims_(dims),
        traditional_(traditional),
        base_(base),
        scale_(scale),
        has_freqs_(has_freqs) {}

  void eval_cpu(const std::vector<mx::array>& inputs, mx::array& out) override {
    dispatch_on_cpu(stream(), inputs, out,
                    [dims = dims_, traditional = traditional_, base = base_, scale = scale_,
                     has_freqs = has_freqs_](const std::vector<mx::array>& ins, mx::array& out) {
                      run_rope(dims, traditional, base, scale, has_freqs, ins, out);
                    });
  }

  void eval_gpu(const std::vector<mx::array>&, mx::array&) override {
    throw std::runtime_error("mlxd rope runs on the CPU only");
  }

  const char* name() const override { return "MlxdRopeCpu"; }

  bool is_equivalent(const mx::Primitive& other) const override {
    auto* same = dynamic_cast<const RopeCpu*>(&other);
    return same != nullptr && same->dims_ == dims_ && same->traditional_ == traditional_ &&
           same->base_ == base_ && same->scale_ == scale_ && same->has_freqs_ == has_freqs_;
  }

  std::vector<mx::Shape> output_shapes(const std::vector<mx::array>& inputs) override {
    return {inputs[0].shape()};
  }

 private:
  int dims_;
  bool traditional_;
  float base_, scale_;
  bool has_freqs_;
};

bool takes_offset(const mx::array& offset, const mx::array& x) {
  if (offset.dtype() != mx::int32) return false;
  return offset.size() == 1 || (offset.ndim() == 1 && offset.shape(0) == x.shape(0));
}

bool takes_freqs(const std::optional<mx::array>& freqs, int dims) {
  Elt e;
  return !freqs ||
         (freqs->ndim() == 1 && freqs->shape(0) == dims / 2 && elt_of(freqs->dtype(), &e));
}

}  // namespace

std::optional<mx::array> rope(const mx::array& x, int dims, bool traditional,
                              std::optional<float> base, float scale, const mx::array& offset,
                              const std::optional<mx::array>& freqs, mx::StreamOrDevice s) {
  Elt e;
  if (!elt_of(x.dtype(), &e) || x.ndim() < 3 || dims <= 0 || dims % 2 != 0 || dims > x.shape(-1)) {
    return std::nullopt;
  }
  if (base.has_value() == freqs.has_value() || !takes_offset(offset, x) ||
      !takes_freqs(freqs, dims)) {
    return std::nullopt;
  }
  mx::Stream stream = mx::to_stream(s);
  if (stream.device.type != mx::Device::DeviceType::cpu) return std::nullopt;
  std::vector<mx::array> inputs{x, offset};
  if (freqs) inputs.push_back(*freqs);
  auto primitive = std::make_shared<RopeCpu>(stream, dims, traditional, base.value_or(0.0f), scale,
                                             freqs.has_value());
  return mx::array(x.shape(), x.dtype(), std::move(primitive), std::move(inputs));
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
