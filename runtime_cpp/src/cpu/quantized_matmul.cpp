// The kernel: dequantize in registers and multiply-add in float32.
//
// Per output y[m, n] it sums, group by group, scales[n, g] * (x_g . q_g) and
// adds biases[n, .] . xsum[m, .], where xsum[m, g] is the sum of row m's
// activations over group g (computed once per call): the bias term then costs
// one multiply per group instead of one per weight. The activations are
// converted to float32 once per call, into a buffer whose order matches the
// weight's fields as they unpack (4 bits: a block of 32 fields is 16 bytes, whose
// low nibbles are the even fields and high nibbles the odd ones; the buffer
// holds the block's even activations, then its odd ones), so that no shuffle
// of the weight is needed. A tile of MT activation rows and NT weight rows
// shares each unpacked weight block and each loaded activation block.
//
// The exact alternative the brief suggested, quantizing the activations to
// int8 and using VNNI dot products (XNNPACK's 8da4w), changes the result (an
// activation rounded to 8 bits per group); this kernel keeps MLX's numbers.
#include "quantized_matmul.h"

#include <mlx/backend/cpu/encoder.h>
#include <mlx/primitives.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "kernel_util.h"
#include "thread_pool.h"

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

constexpr int kBlock = 32;          // fields per unpacked block
constexpr int kNV = kBlock / V::W;  // vectors per block

// ---- the product ------------------------------------------------------------

struct Problem {
  const float* xp;    // [M, K] float32, each 4-bit block in unpacking order
  const float* xsum;  // [M, G]
  const uint8_t* w;   // [N, K * bits / 8]
  const void* scales;
  const void* biases;
  Elt scale_elt;
  void* out;  // [M, N]
  Elt out_elt;
  int64_t M, N, K;
  int G, group_size, bits;
};

// sum_g a[g] * b[g] in eight independent partial sums (vectorizable).
inline float dot(const float* a, const float* b, int n) {
  float part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int g = 0;
  for (; g + 8 <= n; g += 8) {
    for (int j = 0; j < 8; ++j) part[j] += a[g + j] * b[g + j];
  }
  for (; g < n; ++g) part[0] += a[g] * b[g];
  float s = 0;
  for (int j = 0; j < 8; ++j) s += part[j];
  return s;
}

// y[m0 .. m0+MT, n0 .. n0+NT]; sc, bi: the NT rows' scales and biases in
// float32, row j's at j * p.G. The group size is a template argument, so that a
// group's blocks unroll and every pointer just steps from group to group.
template <int BITS, int GS, int MT, int NT>
void tile(const Problem& p, int64_t m0, int64_t n0, const float* sc, const float* bi) {
  constexpr int kGroupBytes = GS * BITS / 8;
  const int64_t row_bytes = p.K * BITS / 8;
  const int64_t K = p.K;
  const int G = p.G;
  const uint8_t* w = p.w + n0 * row_bytes;
  const float* x = p.xp + m0 * K;
  V::T tot[MT][NT];
#pragma GCC unroll 8
  for (int i = 0; i < MT; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < NT; ++j) tot[i][j] = V::zero();
  for (int g = 0; g < G; ++g, w += kGroupBytes, x += GS) {
    V::T acc[MT][NT];
#pragma GCC unroll 8
    for (int i = 0; i < MT; ++i)
#pragma GCC unroll 8
      for (int j = 0; j < NT; ++j) acc[i][j] = V::zero();
#pragma GCC unroll 4
    for (int b = 0; b < GS / kBlock; ++b) {
#pragma GCC unroll 8
      for (int j = 0; j < NT; ++j) {
        V::T wv[kNV];
        if constexpr (BITS == 4) {
          unpack4(w + j * row_bytes + b * (kBlock / 2), wv);
        } else {
          unpack8(w + j * row_bytes + b * kBlock, wv);
        }
#pragma GCC unroll 8
        for (int i = 0; i < MT; ++i) {
#pragma GCC unroll 8
          for (int v = 0; v < kNV; ++v) {
            acc[i][j] = V::fma(wv[v], V::load(x + i * K + b * kBlock + v * V::W), acc[i][j]);
          }
        }
      }
    }
#pragma GCC unroll 8
    for (int j = 0; j < NT; ++j) {
      V::T s = V::set1(sc[j * G + g]);
#pragma GCC unroll 8
      for (int i = 0; i < MT; ++i) tot[i][j] = V::fma(s, acc[i][j], tot[i][j]);
    }
  }
  for (int i = 0; i < MT; ++i) {
    for (int j = 0; j < NT; ++j) {
      float y = V::sum(tot[i][j]) + dot(bi + j * G, p.xsum + (m0 + i) * G, G);
      store_elt(p.out, (m0 + i) * p.N + n0 + j, p.out_elt, y);
    }
  }
}

template <int BITS, int GS, int NT>
void rows(const Problem& p, int64_t n0, const float* sc, const float* bi) {
  int64_t m = 0;
  for (; m + 4 <= p.M; m += 4) tile<BITS, GS, 4, NT>(p, m, n0, sc, bi);
  switch (p.M - m) {
    case 3:
      tile<BITS, GS, 3, NT>(p, m, n0, sc, bi);
      break;
    case 2:
      tile<BITS, GS, 2, NT>(p, m, n0, sc, bi);
      break;
    case 1:
      tile<BITS, GS, 1, NT>(p, m, n0, sc, bi);
      break;
    default:
      break;
  }
}

// Output columns [n_begin, n_end).
template <int BITS, int GS>
void columns(const Problem& p, int64_t n_begin, int64_t n_end) {
  // One activation row: four weight rows a tile; several: kWideNT.
  constexpr int kMaxNT = 4;
  const int nt = p.M == 1 ? 4 : kWideNT;
  // float32 scales and biases are read where they are; half ones converted per tile.
  const bool convert = p.scale_elt != Elt::f32;
  std::vector<float> sc_buf(convert ? static_cast<size_t>(kMaxNT) * p.G : 0), bi_buf(sc_buf.size());
  auto scales_of = [&](int64_t n0, int count, const float** sc, const float** bi) {
    if (!convert) {
      *sc = static_cast<const float*>(p.scales) + n0 * p.G;
      *bi = static_cast<const float*>(p.biases) + n0 * p.G;
      return;
    }
    for (int j = 0; j < count; ++j) {
      for (int g = 0; g < p.G; ++g) {
        int64_t at = (n0 + j) * p.G + g;
        sc_buf[j * p.G + g] = load_elt(p.scales, at, p.scale_elt);
        bi_buf[j * p.G + g] = load_elt(p.biases, at, p.scale_elt);
      }
    }
    *sc = sc_buf.data();
    *bi = bi_buf.data();
  };
  const float* sc = nullptr;
  const float* bi = nullptr;
  int64_t n = n_begin;
  for (; n + nt <= n_end; n += nt) {
    scales_of(n, nt, &sc, &bi);
    if (nt == 4) {  // p.M == 1: only the one-row tile (the other heights would go unused,
                    // and were most of this file's compile time)
      tile<BITS, GS, 1, 4>(p, 0, n, sc, bi);
    } else if (nt == 2) {
      rows<BITS, GS, 2>(p, n, sc, bi);
    } else {
      rows<BITS, GS, 1>(p, n, sc, bi);
    }
  }
  for (; n < n_end; ++n) {
    scales_of(n, 1, &sc, &bi);
    rows<BITS, GS, 1>(p, n, sc, bi);
  }
}

// ---- many rows: the weight dequantized a block at a time, through the BLAS ---

Sgemm g_sgemm = nullptr;  // set once, when the plugin loads (set_sgemm)

// Weight rows dequantized at a time: 128 x K floats, 1 MB at K = 2048.
constexpr int64_t kGemmBlock = 128;

// Rows [n0, n0 + count) of the weight as float32, scale * q + bias, each block
// of 32 fields in the activations' unpacking order (prepare_activations), so
// that the BLAS's dot products pair the same fields as the tiles do.
template <int BITS>
void dequantize_rows(const Problem& p, int64_t n0, int64_t count, float* out) {
  const int64_t row_bytes = p.K * BITS / 8;
  for (int64_t j = 0; j < count; ++j) {
    const uint8_t* w = p.w + (n0 + j) * row_bytes;
    float* row = out + j * p.K;
    for (int g = 0; g < p.G; ++g) {
      const int64_t at = (n0 + j) * p.G + g;
      const V::T scale = V::set1(load_elt(p.scales, at, p.scale_elt));
      const V::T bias = V::set1(load_elt(p.biases, at, p.scale_elt));
      for (int64_t k = int64_t{g} * p.group_size; k < int64_t{g + 1} * p.group_size; k += kBlock) {
        V::T wv[kNV];
        if constexpr (BITS == 4) {
          unpack4(w + k / 2, wv);
        } else {
          unpack8(w + k, wv);
        }
        for (int v = 0; v < kNV; ++v) V::store(row + k + v * V::W, V::fma(scale, wv[v], bias));
      }
    }
  }
}

// Output columns [n_begin, n_end), a block of weight rows at a time.
template <int BITS>
void gemm_columns(const Problem& p, int64_t n_begin, int64_t n_end) {
  thread_local std::vector<float> weights, products;
  const int64_t block = std::min(kGemmBlock, n_end - n_begin);
  const bool direct = p.out_elt == Elt::f32;  // else float32 products, then rounded
  weights.resize(static_cast<size_t>(block * p.K));
  products.resize(direct ? 0 : static_cast<size_t>(p.M * block));
  for (int64_t n0 = n_begin; n0 < n_end; n0 += block) {
    const int64_t count = std::min(block, n_end - n0);
    dequantize_rows<BITS>(p, n0, count, weights.data());
    if (direct) {
      g_sgemm(p.M, count, p.K, p.xp, p.K, weights.data(), p.K, static_cast<float*>(p.out) + n0,
              p.N);
      continue;
    }
    g_sgemm(p.M, count, p.K, p.xp, p.K, weights.data(), p.K, products.data(), count);
    for (int64_t m = 0; m < p.M; ++m) {
      for (int64_t j = 0; j < count; ++j) {
        store_elt(p.out, m * p.N + n0 + j, p.out_elt, products[m * count + j]);
      }
    }
  }
}

// Products below this many multiply-adds run on the calling thread alone.
constexpr int64_t kParallelWork = 1 << 16;

using Body = void (*)(const Problem&, int64_t, int64_t);

// What computes a range of output columns: the sgemm for many rows, else the tiles.
Body body_of(const Problem& p) {
  if (through_sgemm(p.M)) return p.bits == 8 ? &gemm_columns<8> : &gemm_columns<4>;
  const Body tiles[2][3] = {{&columns<4, 32>, &columns<4, 64>, &columns<4, 128>},
                            {&columns<8, 32>, &columns<8, 64>, &columns<8, 128>}};
  return tiles[p.bits == 8][p.group_size == 32 ? 0 : p.group_size == 64 ? 1 : 2];
}

void run(const Problem& p) {
  const Body body = body_of(p);
  const int threads = mlxd::cpu::MLXD_CPU_ISA::threads();
  const int64_t work = p.M * p.N * p.K;
  if (threads <= 1 || work < kParallelWork || p.N < 16) {
    body(p, 0, p.N);
    return;
  }
  // A few chunks per thread (balance against a thread the system preempts),
  // each a multiple of 8 columns.
  const int64_t chunks = std::min<int64_t>(threads * 4, (p.N + 7) / 8);
  const int64_t per = ((p.N + chunks - 1) / chunks + 7) / 8 * 8;
  const int tasks = static_cast<int>((p.N + per - 1) / per);
  parallel_for(tasks, [&](int t) {
    int64_t begin = t * per;
    body(p, begin, std::min(p.N, begin + per));
  });
}

// Row m of x (any strides), as float32: into xp in unpacking order, and the
// group sums into xsum.
void prepare_activations(const mx::array& x, Elt x_elt, int64_t M, int64_t K, int group_size,
                         int bits, float* xp, float* xsum) {
  const int ndim = static_cast<int>(x.ndim());
  const int64_t k_stride = x.strides()[ndim - 1];
  const char* base = x.data<char>();
  const size_t item = x.itemsize();
  const int G = static_cast<int>(K / group_size);
  for (int64_t m = 0; m < M; ++m) {
    int64_t offset = 0, rest = m;
    for (int d = ndim - 2; d >= 0; --d) {
      offset += (rest % x.shape(d)) * x.strides()[d];
      rest /= x.shape(d);
    }
    const void* row = base + offset * static_cast<int64_t>(item);
    float* out = xp + m * K;
    for (int g = 0; g < G; ++g) {
      float s = 0;
      for (int64_t k = g * group_size; k < (g + 1) * group_size; ++k) {
        float v = load_elt(row, k * k_stride, x_elt);
        s += v;
        int64_t at = k;
        if (bits == 4) {  // the block's even fields first, then its odd ones
          int64_t in_block = k % kBlock;
          at = k - in_block + (in_block % 2) * (kBlock / 2) + in_block / 2;
        }
        out[at] = v;
      }
      xsum[m * G + g] = s;
    }
  }
}

class QuantizedMatmulCpu : public mx::UnaryPrimitive {
 public:
  QuantizedMatmulCpu(mx::Stream stream, int group_size, int bits)
      : mx::UnaryPrimitive(stream), group_size_(group_size), bits_(bits) {}

  void eval_cpu(const std::vector<mx::array>& inputs, mx::array& out) override {
    const mx::array& x = inputs[0];
    const mx::array& w = inputs[1];
    const mx::array& scales = inputs[2];
    const mx::array& biases = inputs[3];
    for (const mx::array* a : {&w, &scales, &biases}) {
      if (!a->flags().row_contiguous) {
        throw std::runtime_error("mlxd quantized_matmul: weight, scales or biases not contiguous");
      }
    }
    out.set_data(mx::allocator::malloc(out.nbytes()));
    auto& encoder = mx::cpu::get_command_encoder(stream());
    encoder.set_input_array(x);
    encoder.set_input_array(w);
    encoder.set_input_array(scales);
    encoder.set_input_array(biases);
    encoder.set_output_array(out);
    encoder.dispatch(
        [x = mx::array::unsafe_weak_copy(x), w = mx::array::unsafe_weak_copy(w),
         scales = mx::array::unsafe_weak_copy(scales), biases = mx::array::unsafe_weak_copy(biases),
         out = mx::array::unsafe_weak_copy(out), group_size = group_size_, bits = bits_]() mutable {
          Problem p{};
          Elt x_elt;
          elt_of(x.dtype(), &x_elt);
          elt_of(scales.dtype(), &p.scale_elt);
          elt_of(out.dtype(), &p.out_elt);
          p.K = x.shape(-1);
          p.M = p.K == 0 ? 0 : static_cast<int64_t>(x.size()) / p.K;
          p.N = w.shape(0);
          p.G = static_cast<int>(p.K / group_size);
          p.group_size = group_size;
          p.bits = bits;
          if (p.M == 0 || p.N == 0) return;
          thread_local std::vector<float> xp, xsum;
          xp.resize(static_cast<size_t>(p.M * p.K));
          xsum.resize(static_cast<size_t>(p.M * p.G));
          prepare_activations(x, x_elt, p.M, p.K, group_size, bits, xp.data(), xsum.data());
          p.xp = xp.data();
          p.xsum = xsum.data();
          p.w = w.data<uint8_t>();
          p.scales = scales.data<void>();
          p.biases = biases.data<void>();
          p.out = out.data<void>();
          run(p);
        });
  }

  void eval_gpu(const std::vector<mx::array>&, mx::array&) override {
    throw std::runtime_error("mlxd quantized_matmul runs on the CPU only");
  }

  const char* name() const override { return "MlxdQuantizedMatmulCpu"; }

  bool is_equivalent(const mx::Primitive& other) const override {
    auto* o = dynamic_cast<const QuantizedMatmulCpu*>(&other);
    return o != nullptr && o->group_size_ == group_size_ && o->bits_ == bits_;
  }

  std::vector<mx::Shape> output_shapes(const std::vector<mx::array>& inputs) override {
    mx::Shape shape = inputs[0].shape();
    shape.back() = inputs[1].shape(0);
    return {shape};
  }

 private:
  int group_size_;
  int bits_;
};

}  // namespace

void set_sgemm(Sgemm sgemm) { g_sgemm = sgemm; }

bool through_sgemm(int64_t rows) { return g_sgemm != nullptr && rows >= kGemmRows; }

bool supports(const mx::array& x, const mx::array& w, const mx::array& scales,
              const mx::array& biases, int group_size, int bits) {
  Elt e;
  if (bits != 4 && bits != 8) return false;
  if (group_size != 32 && group_size != 64 && group_size != 128) return false;
  if (!elt_of(x.dtype(), &e) || !elt_of(scales.dtype(), &e)) return false;
  if (biases.dtype() != scales.dtype() || w.dtype() != mx::uint32) return false;
  if (x.ndim() < 1 || w.ndim() != 2 || scales.ndim() != 2 || biases.ndim() != 2) return false;
  const int64_t K = x.shape(-1), N = w.shape(0);
  if (K % group_size != 0 || w.shape(1) * 32 != K * bits) return false;
  if (scales.shape(0) != N || scales.shape(1) != K / group_size) return false;
  if (biases.shape() != scales.shape()) return false;
  // The packed operands must be there already, row-contiguous (the program's
  // constants are); an activation may be any view.
  for (const mx::array* a : {&w, &scales, &biases}) {
    if (!a->is_available() || !a->flags().row_contiguous) return false;
  }
  return true;
}

std::optional<mx::array> quantized_matmul(const mx::array& x, const mx::array& w,
                                          const mx::array& scales, const mx::array& biases,
                                          int group_size, int bits, mx::Dtype out_dtype,
                                          mx::StreamOrDevice s) {
  Elt e;
  if (!supports(x, w, scales, biases, group_size, bits) || !elt_of(out_dtype, &e)) {
    return std::nullopt;
  }
  mx::Stream stream = mx::to_stream(s);
  if (stream.device.type != mx::Device::DeviceType::cpu) return std::nullopt;
  mx::Shape shape = x.shape();
  shape.back() = w.shape(0);
  return mx::array(std::move(shape), out_dtype,
                   std::make_shared<QuantizedMatmulCpu>(stream, group_size, bits),
                   {x, w, scales, biases});
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
