#include "activation.h"

#include <mlx/backend/cpu/encoder.h>
#include <mlx/primitives.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "kernel_util.h"
#include "thread_pool.h"
#include "vector_math.h"

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

// Cephes' tanhf: an odd polynomial below 0.625, 1 - 2 / (e^2|x| + 1) above.
inline vf v_tanh(vf x) {
  vf a = vabs(x);
  vf z = x * x;
  vf p = splat(-5.70498872745e-3f);
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  vf small = p * z * x + x;
  vf large = copy_sign(1.0f - 2.0f / (v_exp(a + a) + 1.0f), x);
  return select(a < 0.625f, small, select(x != x, x, large));
}

inline vf v_sigmoid(vf x) { return 1.0f / (1.0f + v_exp(-x)); }

// Cephes' erff below 1 (x times a polynomial in x^2: relative error near 0,
// where 1 - (...) would cancel), Abramowitz-Stegun 7.1.26 above (absolute error
// below 1.5e-7 on values above 0.84, as MLX's erf).
inline vf v_erf(vf x) {
  vf a = vabs(x);
  vf z = x * x;
  vf p = splat(7.853861353153693e-5f);
  p = p * z - 8.010193625184903e-4f;
  p = p * z + 5.188327685732524e-3f;
  p = p * z - 2.685381193529856e-2f;
  p = p * z + 1.128358514861418e-1f;
  p = p * z - 3.761262582423300e-1f;
  p = p * z + 1.128379165726710f;
  vf small = x * p;
  vf t = 1.0f / (a * 0.3275911f + 1.0f);
  vf r = splat(1.061405429f);
  r = r * t - 1.453152027f;
  r = r * t + 1.421413741f;
  r = r * t - 0.284496736f;
  r = r * t + 0.254829592f;
  vf large = copy_sign(1.0f - r * t * v_exp(-z), x);
  return select(a < 1.0f, small, select(x != x, x, large));
}

inline vf apply(Activation f, vf x) {
  switch (f) {
    case Activation::exp:
      return v_exp(x);
    case Activation::tanh:
      return v_tanh(x);
    case Activation::sigmoid:
      return v_sigmoid(x);
    case Activation::erf:
      return v_erf(x);
    case Activation::silu:
      return x * v_sigmoid(x);
    case Activation::gelu:
      return 0.5f * x * (1.0f + v_erf(x * 0.70710678118654752f));
    case Activation::gelu_tanh:
      // 0.5 x (1 + tanh(u)) = x sigmoid(2u): no cancellation where tanh(u) nears -1.
      return x * v_sigmoid(1.59576912160573071f * (x + 0.044715f * x * x * x));
  }
  return x;
}

// Where element i of x lies (in elements from its data pointer), for any strides.
int64_t offset_of(const mx::array& x, int64_t i) {
  int64_t offset = 0;
  for (int d = static_cast<int>(x.ndim()) - 1; d >= 0; --d) {
    offset += (i % x.shape(d)) * x.strides()[d];
    i /= x.shape(d);
  }
  return offset;
}

// out[begin, end) = f(x[begin, end)), out contiguous, x of any strides.
void run_range(Activation f, const mx::array& x, Elt in, void* out, Elt out_elt, int64_t begin,
               int64_t end) {
  const void* data = x.data<void>();
  const bool contiguous = x.flags().row_contiguous;
  const bool f32_in = contiguous && in == Elt::f32, f32_out = out_elt == Elt::f32;
  const bool bf16_in = contiguous && in == Elt::bf16, bf16_out = out_elt == Elt::bf16;
  alignas(64) float buf[kLanes];
  for (int64_t i = begin; i < end; i += kLanes) {
    const int n = static_cast<int>(std::min<int64_t>(kLanes, end - i));
    vf v;
    if (f32_in && n == kLanes) {
      __builtin_memcpy(&v, static_cast<const float*>(data) + i, sizeof(v));
    } else if (bf16_in && n == kLanes) {
      v = load_bf16(static_cast<const uint16_t*>(data) + i);
    } else {
      for (int j = 0; j < kLanes; ++j) {
        buf[j] = j >= n ? 0.0f : load_elt(data, contiguous ? i + j : offset_of(x, i + j), in);
      }
      __builtin_memcpy(&v, buf, sizeof(v));
    }
    vf y = apply(f, v);
    if (f32_out && n == kLanes) {
      __builtin_memcpy(static_cast<float*>(out) + i, &y, sizeof(y));
    } else if (bf16_out && n == kLanes) {
      store_bf16(static_cast<uint16_t*>(out) + i, y);
    } else {
      __builtin_memcpy(buf, &y, sizeof(y));
      for (int j = 0; j < n; ++j) store_elt(out, i + j, out_elt, buf[j]);
    }
  }
}

void run(Activation f, const mx::array& x, mx::array& out) {
  Elt in, out_elt;
  elt_of(x.dtype(), &in);
  elt_of(out.dtype(), &out_elt);
  const int64_t size = static_cast<int64_t>(x.size());
  const int threads = mlxd::cpu::MLXD_CPU_ISA::threads();
  constexpr int64_t kPerTask = 1 << 14;  // elements a task takes at least
  if (threads <= 1 || size < 2 * kPerTask) {
    run_range(f, x, in, out.data<void>(), out_elt, 0, size);
    return;
  }
  const int tasks = static_cast<int>(std::min<int64_t>(threads * 4, size / kPerTask));
  const int64_t per = ((size + tasks - 1) / tasks + kLanes - 1) / kLanes * kLanes;
  parallel_for(tasks, [&](int t) {
    int64_t begin = t * per;
    run_range(f, x, in, out.data<void>(), out_elt, begin, std::min(size, begin + per));
  });
}

class ActivationCpu : public mx::UnaryPrimitive {
 public:
  ActivationCpu(mx::Stream stream, Activation f) : mx::UnaryPrimitive(stream), f_(f) {}

  void eval_cpu(const std::vector<mx::array>& inputs, mx::array& out) override {
    const mx::array& x = inputs[0];
    out.set_data(mx::allocator::malloc(out.nbytes()));
    auto& encoder = mx::cpu::get_command_encoder(stream());
    encoder.set_input_array(x);
    encoder.set_output_array(out);
    encoder.dispatch([f = f_, x = mx::array::unsafe_weak_copy(x),
                      out = mx::array::unsafe_weak_copy(out)]() mutable { run(f, x, out); });
  }

  void eval_gpu(const std::vector<mx::array>&, mx::array&) override {
    throw std::runtime_error("mlxd activation runs on the CPU only");
  }

  const char* name() const override { return "MlxdActivationCpu"; }

  bool is_equivalent(const mx::Primitive& other) const override {
    auto* same = dynamic_cast<const ActivationCpu*>(&other);
    return same != nullptr && same->f_ == f_;
  }

  std::vector<mx::Shape> output_shapes(const std::vector<mx::array>& inputs) override {
    return {inputs[0].shape()};
  }

 private:
  Activation f_;
};

// ---- softmax over the last axis ----------------------------------------------

// One row of n values (float32 in `row`, written back in place): max, exp, scale.
void softmax_row(float* row, int64_t n) {
  const float scale = 1.0f / exp_sum(row, n, 1.0f, row_max(row, n));
  for (int64_t i = 0; i < n; ++i) row[i] *= scale;
}

void run_softmax(const mx::array& x, mx::array& out) {
  Elt in, out_elt;
  elt_of(x.dtype(), &in);
  elt_of(out.dtype(), &out_elt);
  const int64_t n = x.ndim() == 0 ? 1 : x.shape(-1);
  const int64_t rows = n == 0 ? 0 : static_cast<int64_t>(x.size()) / n;
  const bool contiguous = x.flags().row_contiguous;
  auto some_rows = [&](int64_t begin, int64_t end) {
    std::vector<float> buf(out_elt == Elt::f32 ? 0 : n);
    for (int64_t r = begin; r < end; ++r) {
      float* row = out_elt == Elt::f32 ? out.data<float>() + r * n : buf.data();
      for (int64_t j = 0; j < n; ++j) {
        int64_t i = r * n + j;
        row[j] = load_elt(x.data<void>(), contiguous ? i : offset_of(x, i), in);
      }
      softmax_row(row, n);
      if (out_elt != Elt::f32) {
        for (int64_t j = 0; j < n; ++j) store_elt(out.data<void>(), r * n + j, out_elt, row[j]);
      }
    }
  };
  parallel_ranges(rows, static_cast<int64_t>(x.size()), some_rows);
}

class SoftmaxCpu : public mx::UnaryPrimitive {
 public:
  explicit SoftmaxCpu(mx::Stream stream) : mx::UnaryPrimitive(stream) {}

  void eval_cpu(const std::vector<mx::array>& inputs, mx::array& out) override {
    const mx::array& x = inputs[0];
    out.set_data(mx::allocator::malloc(out.nbytes()));
    auto& encoder = mx::cpu::get_command_encoder(stream());
    encoder.set_input_array(x);
    encoder.set_output_array(out);
    encoder.dispatch([x = mx::array::unsafe_weak_copy(x),
                      out = mx::array::unsafe_weak_copy(out)]() mutable { run_softmax(x, out); });
  }

  void eval_gpu(const std::vector<mx::array>&, mx::array&) override {
    throw std::runtime_error("mlxd softmax runs on the CPU only");
  }

  const char* name() const override { return "MlxdSoftmaxCpu"; }

  bool is_equivalent(const mx::Primitive& other) const override {
    return dynamic_cast<const SoftmaxCpu*>(&other) != nullptr;
  }

  std::vector<mx::Shape> output_shapes(const std::vector<mx::array>& inputs) override {
    return {inputs[0].shape()};
  }
};

}  // namespace

std::optional<mx::array> softmax(const mx::array& x, int64_t min_size, mx::StreamOrDevice s) {
  Elt e;
  if (!elt_of(x.dtype(), &e) || x.ndim() == 0 || static_cast<int64_t>(x.size()) < min_size) {
    return std::nullopt;
  }
  mx::Stream stream = mx::to_stream(s);
  if (stream.device.type != mx::Device::DeviceType::cpu) return std::nullopt;
  return mx::array(x.shape(), x.dtype(), std::make_shared<SoftmaxCpu>(stream), {x});
}

std::optional<mx::array> activation(Activation f, const mx::array& x, int64_t min_size,
                                    mx::StreamOrDevice s) {
  Elt e;
  if (!elt_of(x.dtype(), &e) || static_cast<int64_t>(x.size()) < min_size) return std::nullopt;
  mx::Stream stream = mx::to_stream(s);
  if (stream.device.type != mx::Device::DeviceType::cpu) return std::nullopt;
  return mx::array(x.shape(), x.dtype(), std::make_shared<ActivationCpu>(stream, f), {x});
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
