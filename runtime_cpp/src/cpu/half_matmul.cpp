// The kernel: activations converted to float32 once per call; a tile of MT
// rows of x and NT rows of w shares each loaded vector of either.
#include "half_matmul.h"

#include <mlx/backend/cpu/encoder.h>
#include <mlx/primitives.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "kernel_util.h"
#include "thread_pool.h"

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

struct HalfProblem {
  const float* x;     // [M, K] float32
  const uint16_t* w;  // [N, K]
  Elt w_elt;
  void* out;  // [M, N]
  Elt out_elt;
  int64_t M, N, K;
};

template <int MT, int NT>
void half_tile(const HalfProblem& p, int64_t m0, int64_t n0) {
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

// Rows [m_begin, m_end) of x against weight rows n0 .. n0+NT.
template <int NT>
void half_rows(const HalfProblem& p, int64_t n0, int64_t m_begin, int64_t m_end) {
  int64_t m = m_begin;
  for (; m + 4 <= m_end; m += 4) half_tile<4, NT>(p, m, n0);
  switch (m_end - m) {
    case 3:
      half_tile<3, NT>(p, m, n0);
      break;
    case 2:
      half_tile<2, NT>(p, m, n0);
      break;
    case 1:
      half_tile<1, NT>(p, m, n0);
      break;
    default:
      break;
  }
}

// Rows of x per pass over a task's weight rows: a pass's activations (16 rows
// of float32) stay in the cache while the weight rows stream by.
constexpr int64_t kRowsPerPass = 16;

void half_columns(const HalfProblem& p, int64_t n_begin, int64_t n_end) {
  const int nt = p.M == 1 ? 4 : kWideNT;
  for (int64_t m0 = 0; m0 < p.M; m0 += kRowsPerPass) {
    const int64_t m1 = std::min(p.M, m0 + kRowsPerPass);
    int64_t n = n_begin;
    for (; n + nt <= n_end; n += nt) {
      if (nt == 4) {
        half_rows<4>(p, n, m0, m1);
      } else if (nt == 2) {
        half_rows<2>(p, n, m0, m1);
      } else {
        half_rows<1>(p, n, m0, m1);
      }
    }
    for (; n < n_end; ++n) half_rows<1>(p, n, m0, m1);
  }
}

void half_run(const HalfProblem& p) {
  const int threads = mlxd::cpu::MLXD_CPU_ISA::threads();
  if (threads <= 1 || p.M * p.N * p.K < (1 << 16) || p.N < 16) {
    half_columns(p, 0, p.N);
    return;
  }
  const int64_t chunks = std::min<int64_t>(threads * 4, (p.N + 7) / 8);
  const int64_t per = ((p.N + chunks - 1) / chunks + 7) / 8 * 8;
  const int tasks = static_cast<int>((p.N + per - 1) / per);
  parallel_for(tasks, [&](int t) {
    int64_t begin = t * per;
    half_columns(p, begin, std::min(p.N, begin + per));
  });
}

// x (any strides) as float32 rows [M, K].
void rows_as_float(const mx::array& x, Elt e, int64_t M, int64_t K, float* out) {
  const int ndim = static_cast<int>(x.ndim());
  const int64_t k_stride = x.strides()[ndim - 1];
  const char* base = x.data<char>();
  for (int64_t m = 0; m < M; ++m) {
    int64_t offset = 0, rest = m;
    for (int d = ndim - 2; d >= 0; --d) {
      offset += (rest % x.shape(d)) * x.strides()[d];
      rest /= x.shape(d);
    }
    const void* row = base + offset * static_cast<int64_t>(x.itemsize());
    for (int64_t k = 0; k < K; ++k) out[m * K + k] = load_elt(row, k * k_stride, e);
  }
}

class HalfMatmulCpu : public mx::UnaryPrimitive {
 public:
  explicit HalfMatmulCpu(mx::Stream stream) : mx::UnaryPrimitive(stream) {}

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
                      out = mx::array::unsafe_weak_copy(out)]() mutable {
      HalfProblem p{};
      Elt x_elt;
      elt_of(x.dtype(), &x_elt);
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
      thread_local std::vector<float> xf;
      xf.resize(static_cast<size_t>(p.M * p.K));
      rows_as_float(x, x_elt, p.M, p.K, xf.data());
      p.x = xf.data();
      p.w = w.data<uint16_t>();
      p.out = out.data<void>();
      half_run(p);
    });
  }

  void eval_gpu(const std::vector<mx::array>&, mx::array&) override {
    throw std::runtime_error("mlxd half_matmul runs on the CPU only");
  }

  const char* name() const override { return "MlxdHalfMatmulCpu"; }

  bool is_equivalent(const mx::Primitive& other) const override {
    return dynamic_cast<const HalfMatmulCpu*>(&other) != nullptr;
  }

  std::vector<mx::Shape> output_shapes(const std::vector<mx::array>& inputs) override {
    mx::Shape shape = inputs[0].shape();
    shape.back() = inputs[1].shape(0);
    return {shape};
  }
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

std::optional<mx::array> half_matmul(const mx::array& x, const mx::array& w, mx::Dtype out_dtype,
                                     mx::StreamOrDevice s) {
  Elt e;
  if (!half_supports(x, w) || !elt_of(out_dtype, &e)) return std::nullopt;
  mx::Stream stream = mx::to_stream(s);
  if (stream.device.type != mx::Device::DeviceType::cpu) return std::nullopt;
  mx::Shape shape = x.shape();
  shape.back() = w.shape(0);
  return mx::array(std::move(shape), out_dtype, std::make_shared<HalfMatmulCpu>(stream), {x, w});
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
