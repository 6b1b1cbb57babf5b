// A task takes rows; a row is read once into float32 (its sums on the way),
// then written normalised.
#include "norm.h"

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

struct NormProblem {
  Norm kind;
  float eps;
  const mx::array* x;
  const float* weight;  // float32 copies, or nullptr
  const float* bias;
  void* out;
  Elt elt;
  int64_t n;  // the last axis
};

void norm_rows(const NormProblem& p, int64_t begin, int64_t end) {
  const mx::array& x = *p.x;
  const int64_t n = p.n, step = x.strides().back();
  thread_local std::vector<float> row;
  row.resize(static_cast<size_t>(n));
  for (int64_t r = begin; r < end; ++r) {
    row_as_float(row_of(x, r), step, p.elt, n, row.data());
    float mean = 0.0f;
    int64_t j = 0;
    if (p.kind == Norm::layer) {
      vf sum = splat(0.0f);
      for (; j + kLanes <= n; j += kLanes) {
        vf v;
        std::memcpy(&v, row.data() + j, sizeof(v));
        sum += v;
      }
      float total = lane_sum(sum);
      for (; j < n; ++j) total += row[j];
      mean = total / static_cast<float>(n);
    }
    vf squares = splat(0.0f);
    for (j = 0; j + kLanes <= n; j += kLanes) {
      vf v;
      std::memcpy(&v, row.data() + j, sizeof(v));
      v -= mean;
      squares += v * v;
    }
    float total = lane_sum(squares);
    for (; j < n; ++j) total += (row[j] - mean) * (row[j] - mean);
    const float rstd = 1.0f / std::sqrt(total / static_cast<float>(n) + p.eps);
    const int64_t at = r * n;
    j = 0;
    for (; j + kLanes <= n; j += kLanes) {
      vf v;
      std::memcpy(&v, row.data() + j, sizeof(v));
      v = (v - mean) * rstd;
      if (p.weight) {
        vf w;
        std::memcpy(&w, p.weight + j, sizeof(w));
        v *= w;
      }
      if (p.bias) {
        vf b;
        std::memcpy(&b, p.bias + j, sizeof(b));
        v += b;
      }
      if (p.elt == Elt::f32) {
        std::memcpy(static_cast<float*>(p.out) + at + j, &v, sizeof(v));
      } else if (p.elt == Elt::bf16) {
        store_bf16(static_cast<uint16_t*>(p.out) + at + j, v);
      } else {
        for (int t = 0; t < kLanes; ++t) store_elt(p.out, at + j + t, p.elt, v[t]);
      }
    }
    for (; j < n; ++j) {
      float v = (row[j] - mean) * rstd;
      if (p.weight) v *= p.weight[j];
      if (p.bias) v += p.bias[j];
      store_elt(p.out, at + j, p.elt, v);
    }
  }
}

std::vector<float> as_floats(const mx::array& a, Elt e) {
  std::vector<float> out(a.size());
  const int64_t step = a.strides().empty() ? 1 : a.strides().back();
  for (size_t i = 0; i < out.size(); ++i) out[i] = load_elt(a.data<void>(), i * step, e);
  return out;
}

void run_norm(Norm kind, float eps, bool has_weight, bool has_bias,
              const std::vector<mx::array>& in, mx::array& out) {
  const mx::array& x = in[0];
  NormProblem p{kind, eps, &x, nullptr, nullptr, out.data<void>(), Elt::f32, x.shape(-1)};
  elt_of(x.dtype(), &p.elt);
  std::vector<float> weight, bias;
  if (has_weight) {
    weight = as_floats(in[1], p.elt);
    p.weight = weight.data();
  }
  if (has_bias) {
    bias = as_floats(in[has_weight ? 2 : 1], p.elt);
    p.bias = bias.data();
  }
  const int64_t rows = p.n == 0 ? 0 : static_cast<int64_t>(x.size()) / p.n;
  parallel_ranges(rows, static_cast<int64_t>(x.size()),
                  [&](int64_t begin, int64_t end) { norm_rows(p, begin, end); });
}

class NormCpu : public mx::UnaryPrimitive {
 public:
  NormCpu(mx::Stream stream, Norm kind, float eps, bool has_weight, bool has_bias)
      : mx::UnaryPrimitive(stream),
        kind_(kind),
        eps_(eps),
        has_weight_(has_weight),
        has_bias_(has_bias) {}

  void eval_cpu(const std::vector<mx::array>& inputs, mx::array& out) override {
    dispatch_on_cpu(stream(), inputs, out,
                    [kind = kind_, eps = eps_, w = has_weight_, b = has_bias_](
                        const std::vector<mx::array>& ins, mx::array& out) {
                      run_norm(kind, eps, w, b, ins, out);
                    });
  }

  void eval_gpu(const std::vector<mx::array>&, mx::array&) override {
    throw std::runtime_error("mlxd norm runs on the CPU only");
  }

  const char* name() const override { return "MlxdNormCpu"; }

  bool is_equivalent(const mx::Primitive& other) const override {
    auto* same = dynamic_cast<const NormCpu*>(&other);
    return same != nullptr && same->kind_ == kind_ && same->eps_ == eps_ &&
           same->has_weight_ == has_weight_ && same->has_bias_ == has_bias_;
  }

  std::vector<mx::Shape> output_shapes(const std::vector<mx::array>& inputs) override {
    return {inputs[0].shape()};
  }

 private:
  Norm kind_;
  float eps_;
  bool has_weight_, has_bias_;
};

bool fits(const std::optional<mx::array>& a, const mx::array& x) {
  return !a || (a->ndim() == 1 && a->shape(0) == x.shape(-1) && a->dtype() == x.dtype());
}

}  // namespace

std::optional<mx::array> norm(Norm kind, const mx::array& x, const std::optional<mx::array>& weight,
                              const std::optional<mx::array>& bias, float eps, int64_t min_size,
                              mx::StreamOrDevice s) {
  Elt e;
  if (!elt_of(x.dtype(), &e) || x.ndim() == 0 || static_cast<int64_t>(x.size()) < min_size) {
    return std::nullopt;
  }
  if (!fits(weight, x) || !fits(bias, x) || (bias && kind != Norm::layer)) return std::nullopt;
  mx::Stream stream = mx::to_stream(s);
  if (stream.device.type != mx::Device::DeviceType::cpu) return std::nullopt;
  std::vector<mx::array> inputs{x};
  if (weight) inputs.push_back(*weight);
  if (bias) inputs.push_back(*bias);
  auto primitive =
      std::make_shared<NormCpu>(stream, kind, eps, weight.has_value(), bias.has_value());
  return mx::array(x.shape(), x.dtype(), std::move(primitive), std::move(inputs));
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
