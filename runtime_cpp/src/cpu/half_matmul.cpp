// The kernel: a tile of MT rows of x and NT rows of w shares each loaded
// vector of either. Two ways through a tile (HalfPath): activations converted to
// float32 once per call and weights widened per vector (every weight and
// activation dtype), or, bfloat16 by bfloat16 on a processor with AVX-512 BF16,
// both kept in bfloat16 and multiplied in pairs by vdpbf16ps.
#include "half_matmul.h"

#include <mlx/backend/cpu/encoder.h>
#include <mlx/primitives.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "cpu_features.h"
#include "kernel_util.h"
#include "thread_pool.h"

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

struct HalfProblem {
  const float* x;        // [M, K] float32 (the widened path)
  const uint16_t* x_bf;  // [M, K] bfloat16 (the bf16 dot path)
  const uint16_t* w;     // [N, K]
  Elt w_elt;
  void* out;  // [M, N]
  Elt out_elt;
  int64_t M, N, K;
};

// Each weight vector widened to float32 (exact), multiplied into float32 rows.
struct Widened {
  template <int MT, int NT>
  static void tile(const HalfProblem& p, int64_t m0, int64_t n0);
};

template <int MT, int NT>
void Widened::tile(const HalfProblem& p, int64_t m0, int64_t n0) {
  const uint16_t* wr[NT];
#pragma GCC unroll 8
  for (int j = 0; j < NT; ++j) wr[j] = p.w + (n0 + j) * p.K;
  const float* xr[MT];
#pragma GCC unroll 8
  for (int i = 0; i < MT; ++i) xr[i] = p.x + (m0 + i) * p.K;
  V::T acc[MT][NT];
#pragma GCC unroll 8
  for (int i = 0; i < MT; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < NT; ++j) acc[i][j] = V::zero();
  int64_t k = 0;
  for (; k + V::W <= p.K; k += V::W) {
#pragma GCC unroll 8
    for (int j = 0; j < NT; ++j) {
      V::T wv = load_half(wr[j] + k, p.w_elt);
#pragma GCC unroll 8
      for (int i = 0; i < MT; ++i) acc[i][j] = V::fma(wv, V::load(xr[i] + k), acc[i][j]);
    }
  }
  for (int i = 0; i < MT; ++i) {
    for (int j = 0; j < NT; ++j) {
      float y = V::sum(acc[i][j]);
      for (int64_t t = k; t < p.K; ++t) y += load_elt(wr[j], t, p.w_elt) * xr[i][t];
      store_elt(p.out, (m0 + i) * p.N + n0 + j, p.out_elt, y);
    }
  }
}

#if defined(__AVX512F__)
// bfloat16 by bfloat16: vdpbf16ps multiplies 32 pairs of bfloat16 and adds each
// lane's two products to 16 float32 sums, without widening either operand. The
// last K % 32 values come through masked loads (zeros beyond K add nothing).
// The instruction rounds to nearest even and reads and writes subnormals as
// zero, whatever MXCSR says. The variant's flags are x86-64-v4, which has no
// BF16: only this function may use it, and only where the processor has it
// (bf16_dot_here).
struct Bf16Dot {
  template <int MT, int NT>
  __attribute__((target("avx512bf16"))) static void tile(const HalfProblem& p, int64_t m0,
                                                         int64_t n0);
};

// 32 values from k (those `mask` keeps) of each row of x and of w, into acc.
template <int MT, int NT>
__attribute__((target("avx512bf16"), always_inline)) inline void bf16_dot_step(
    const uint16_t* const* xr, const uint16_t* const* wr, int64_t k, __mmask32 mask,
    __m512 (&acc)[MT][NT]) {
  __m512bh xv[MT];
#pragma GCC unroll 8
  for (int i = 0; i < MT; ++i) xv[i] = (__m512bh)_mm512_maskz_loadu_epi16(mask, xr[i] + k);
#pragma GCC unroll 8
  for (int j = 0; j < NT; ++j) {
    __m512bh wv = (__m512bh)_mm512_maskz_loadu_epi16(mask, wr[j] + k);
#pragma GCC unroll 8
    for (int i = 0; i < MT; ++i) acc[i][j] = _mm512_dpbf16_ps(acc[i][j], wv, xv[i]);
  }
}

template <int MT, int NT>
__attribute__((target("avx512bf16"))) void Bf16Dot::tile(const HalfProblem& p, int64_t m0,
                                                         int64_t n0) {
  constexpr int kPairs = 32;  // bfloat16 values a vector
  const uint16_t* wr[NT];
#pragma GCC unroll 8
  for (int j = 0; j < NT; ++j) wr[j] = p.w + (n0 + j) * p.K;
  const uint16_t* xr[MT];
#pragma GCC unroll 8
  for (int i = 0; i < MT; ++i) xr[i] = p.x_bf + (m0 + i) * p.K;
  __m512 acc[MT][NT];
#pragma GCC unroll 8
  for (int i = 0; i < MT; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < NT; ++j) acc[i][j] = _mm512_setzero_ps();
  int64_t k = 0;
  for (; k + kPairs <= p.K; k += kPairs) bf16_dot_step<MT, NT>(xr, wr, k, ~__mmask32{0}, acc);
  if (k < p.K) {
    auto tail = static_cast<__mmask32>((uint64_t{1} << (p.K - k)) - 1);
    bf16_dot_step<MT, NT>(xr, wr, k, tail, acc);
  }
  for (int i = 0; i < MT; ++i) {
    for (int j = 0; j < NT; ++j) {
      store_elt(p.out, (m0 + i) * p.N + n0 + j, p.out_elt, V::sum(acc[i][j]));
    }
  }
}
#endif

// Rows [m_begin, m_end) of x against weight rows n0 .. n0+NT.
template <typename Path, int NT>
void half_rows(const HalfProblem& p, int64_t n0, int64_t m_begin, int64_t m_end) {
  int64_t m = m_begin;
  for (; m + 4 <= m_end; m += 4) Path::template tile<4, NT>(p, m, n0);
  switch (m_end - m) {
    case 3:
      Path::template tile<3, NT>(p, m, n0);
      break;
    case 2:
      Path::template tile<2, NT>(p, m, n0);
      break;
    case 1:
      Path::template tile<1, NT>(p, m, n0);
      break;
    default:
      break;
  }
}

// Rows of x per pass over a task's weight rows: a pass's activations (16 rows
// of float32) stay in the cache while the weight rows stream by.
constexpr int64_t kRowsPerPass = 16;

template <typename Path>
void half_columns(const HalfProblem& p, int64_t n_begin, int64_t n_end) {
  const int nt = p.M == 1 ? 4 : kWideNT;
  for (int64_t m0 = 0; m0 < p.M; m0 += kRowsPerPass) {
    const int64_t m1 = std::min(p.M, m0 + kRowsPerPass);
    int64_t n = n_begin;
    for (; n + nt <= n_end; n += nt) {
      if (nt == 4) {
        half_rows<Path, 4>(p, n, m0, m1);
      } else if (nt == 2) {
        half_rows<Path, 2>(p, n, m0, m1);
      } else {
        half_rows<Path, 1>(p, n, m0, m1);
      }
    }
    for (; n < n_end; ++n) half_rows<Path, 1>(p, n, m0, m1);
  }
}

template <typename Path>
void half_run(const HalfProblem& p) {
  const int threads = mlxd::cpu::MLXD_CPU_ISA::threads();
  if (threads <= 1 || p.M * p.N * p.K < (1 << 16) || p.N < 16) {
    half_columns<Path>(p, 0, p.N);
    return;
  }
  const int64_t chunks = std::min<int64_t>(threads * 4, (p.N + 7) / 8);
  const int64_t per = ((p.N + chunks - 1) / chunks + 7) / 8 * 8;
  const int tasks = static_cast<int>((p.N + per - 1) / per);
  parallel_for(tasks, [&](int t) {
    int64_t begin = t * per;
    half_columns<Path>(p, begin, std::min(p.N, begin + per));
  });
}

// Row m of x (any strides), whose last axis steps by x.strides().back().
const void* row_of(const mx::array& x, int64_t m) {
  int64_t offset = 0, rest = m;
  for (int d = static_cast<int>(x.ndim()) - 2; d >= 0; --d) {
    offset += (rest % x.shape(d)) * x.strides()[d];
    rest /= x.shape(d);
  }
  return x.data<char>() + offset * static_cast<int64_t>(x.itemsize());
}

// x as float32 rows [M, K].
void rows_as_float(const mx::array& x, Elt e, int64_t M, int64_t K, float* out) {
  const int64_t k_stride = x.strides().back();
  for (int64_t m = 0; m < M; ++m) {
    const void* row = row_of(x, m);
    for (int64_t k = 0; k < K; ++k) out[m * K + k] = load_elt(row, k * k_stride, e);
  }
}

// Whether this processor runs vdpbf16ps: its report or MLX_DELEGATE_CPU_FEATURES
// (a test turns the path off; it cannot turn on what the processor lacks).
bool bf16_dot_here() {
#if defined(__AVX512F__)
  static const bool here = current_features().avx512bf16 && processor_features().avx512bf16;
  return here;
#else
  return false;  // the portable and AVX2 variants keep one path
#endif
}

bool bf16_dot_takes(const mx::array& x, const mx::array& w) {
  return x.dtype() == mx::bfloat16 && w.dtype() == mx::bfloat16 && bf16_dot_here();
}

// x widened to float32 (thread_local: one buffer a thread, reused), then the tiles.
void run_widened(const mx::array& x, HalfProblem p) {
  Elt x_elt;
  elt_of(x.dtype(), &x_elt);
  thread_local std::vector<float> xf;
  xf.resize(static_cast<size_t>(p.M * p.K));
  rows_as_float(x, x_elt, p.M, p.K, xf.data());
  p.x = xf.data();
  half_run<Widened>(p);
}

#if defined(__AVX512F__)
// x, bfloat16, as contiguous bfloat16 rows [M, K] (the bits as they are).
void rows_as_bf16(const mx::array& x, int64_t M, int64_t K, uint16_t* out) {
  const int64_t k_stride = x.strides().back();
  for (int64_t m = 0; m < M; ++m) {
    const uint16_t* row = static_cast<const uint16_t*>(row_of(x, m));
    for (int64_t k = 0; k < K; ++k) out[m * K + k] = row[k * k_stride];
  }
}

void run_bf16_dot(const mx::array& x, HalfProblem p) {
  thread_local std::vector<uint16_t> xb;
  xb.resize(static_cast<size_t>(p.M * p.K));
  rows_as_bf16(x, p.M, p.K, xb.data());
  p.x_bf = xb.data();
  half_run<Bf16Dot>(p);
}
#endif

class HalfMatmulCpu : public mx::UnaryPrimitive {
 public:
  HalfMatmulCpu(mx::Stream stream, HalfPath path) : mx::UnaryPrimitive(stream), path_(path) {}

  void eval_cpu(const std::vector<mx::array>& inputs, mx::array& out) override {
    const mx::array& x = inputs[0];
    const mx::array& w = inputs[1];
    if (!w.flags().row_contiguous) {
      throw std::runtime_error("mlxd half_matmul: weight not contiguous");
    }
    out.set_data(mx::allocator::malloc(out.nbytes()));
    auto& encoder = mx::cpu::get_command_encoder(stream());
    encoder.set_input_array(x);
    encoder.set_input_array(w);
    encoder.set_output_array(out);
    encoder.dispatch([x = mx::array::unsafe_weak_copy(x), w = mx::array::unsafe_weak_copy(w),
                      out = mx::array::unsafe_weak_copy(out), path = path_]() mutable {
      HalfProblem p{};
      elt_of(w.dtype(), &p.w_elt);
      elt_of(out.dtype(), &p.out_elt);
      p.K = x.shape(-1);
      p.M = p.K == 0 ? 0 : static_cast<int64_t>(x.size()) / p.K;
      p.N = w.shape(0);
      if (p.M == 0 || p.N == 0) return;
      if (p.K == 0) {
        for (int64_t i = 0; i < p.M * p.N; ++i) store_elt(out.data<void>(), i, p.out_elt, 0.0f);
        return;
      }
      p.w = w.data<uint16_t>();
      p.out = out.data<void>();
#if defined(__AVX512F__)
      if (path == HalfPath::bf16_dot) return run_bf16_dot(x, p);
#endif
      run_widened(x, p);
    });
  }

  void eval_gpu(const std::vector<mx::array>&, mx::array&) override {
    throw std::runtime_error("mlxd half_matmul runs on the CPU only");
  }

  const char* name() const override { return "MlxdHalfMatmulCpu"; }

  bool is_equivalent(const mx::Primitive& other) const override {
    auto* same = dynamic_cast<const HalfMatmulCpu*>(&other);
    return same != nullptr && same->path_ == path_;
  }

  std::vector<mx::Shape> output_shapes(const std::vector<mx::array>& inputs) override {
    mx::Shape shape = inputs[0].shape();
    shape.back() = inputs[1].shape(0);
    return {shape};
  }

 private:
  HalfPath path_;
};

}  // namespace

bool half_supports(const mx::array& x, const mx::array& w) {
  Elt e;
  if (w.dtype() != mx::bfloat16 && w.dtype() != mx::float16) return false;
  if (!elt_of(x.dtype(), &e) || x.ndim() < 1 || w.ndim() != 2) return false;
  if (x.shape(-1) != w.shape(1)) return false;
  const int64_t K = x.shape(-1);
  if (K > 0 && static_cast<int64_t>(x.size()) / K > kHalfMatmulMaxRows) return false;
  return w.is_available() && w.flags().row_contiguous;
}

const char* half_path_name(HalfPath path) {
  return path == HalfPath::bf16_dot ? "bf16_dot" : "widened";
}

HalfPath half_path(const mx::array& x, const mx::array& w) {
  return bf16_dot_takes(x, w) ? HalfPath::bf16_dot : HalfPath::widened;
}

std::optional<mx::array> half_matmul(const mx::array& x, const mx::array& w, mx::Dtype out_dtype,
                                     mx::StreamOrDevice s, std::optional<HalfPath> path) {
  Elt e;
  if (!half_supports(x, w) || !elt_of(out_dtype, &e)) return std::nullopt;
  if (path == HalfPath::bf16_dot && !bf16_dot_takes(x, w)) return std::nullopt;
  mx::Stream stream = mx::to_stream(s);
  if (stream.device.type != mx::Device::DeviceType::cpu) return std::nullopt;
  mx::Shape shape = x.shape();
  shape.back() = w.shape(0);
  auto primitive = std::make_shared<HalfMatmulCpu>(stream, path.value_or(half_path(x, w)));
  return mx::array(std::move(shape), out_dtype, std::move(primitive), {x, w});
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
