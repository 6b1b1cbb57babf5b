// Pooling and resizing over the trailing (spatial) axes, in PyTorch's layout.
#include <algorithm>
#include <cmath>
#include <limits>

#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

namespace {

// One pooled axis: its input length and PyTorch's window parameters.
struct PoolAxis {
  int length, kernel, stride, padding, dilation, out;

  // PyTorch's output length (ATen's pooling_output_shape), the rule the
  // compiler checks the exported shapes against (pool_output_length in
  // mlx_delegate/compiler/ops/pooling.py): floor division, so a kernel longer than the
  // padded input still gets a window when ceil mode rounds one up; in ceil
  // mode the last window must start inside the input or its left padding.
  static PoolAxis make(int length, int kernel, int stride, int padding, int dilation, bool ceil) {
    if (kernel < 1 || stride < 1 || dilation < 1) {
      throw ExecutionError("pool: kernel, stride and dilation must be positive");
    }
    int span = length + 2 * padding - dilation * (kernel - 1) - 1;
    int out = floor_div(span + (ceil ? stride - 1 : 0), stride) + 1;
    if (ceil && (out - 1) * stride >= length + padding) --out;
    if (out < 1) throw ExecutionError("pool: no window fits the padded input");
    return {length, kernel, stride, padding, dilation, out};
  }
  // Rounds toward negative infinity, as PyTorch's div_rtn (C++'s / truncates).
  static int floor_div(int a, int b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }
  // Input length the windows read, padding included.
  int needed() const { return (out - 1) * stride + dilation * (kernel - 1) + 1; }
};

int entry(const std::vector<int32_t>& v, size_t i, int dflt) {
  if (v.empty()) return dflt;
  return v.size() == 1 ? v[0] : v.at(i);
}

// An array of `values` shaped to broadcast along `axis` of a rank-`ndim` array.
mx::array along_axis(mx::array values, int axis, int ndim, StreamOrDevice s) {
  mx::Shape shape(ndim, 1);
  shape[axis] = values.size();
  return mx::reshape(values, shape, s);
}

mx::array pad_value(mx::Dtype t, bool max_pool) {
  if (!max_pool) return mx::array(0, t);
  return mx::astype(mx::array(-std::numeric_limits<float>::infinity()), t);
}

}  // namespace

void exec_pool(const PoolNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int nd = static_cast<int>(n.kernel.size());
  int lead = static_cast<int>(x.ndim()) - nd;
  if (nd < 1 || lead < 1) throw ExecutionError("pool: expected (N, C, *spatial) or (C, *spatial)");
  bool max_pool = n.kind == ir::PoolKind_Max;
  if (!mx::issubdtype(x.dtype(), mx::floating)) {
    throw ExecutionError("pool: floating-point inputs only, as PyTorch's");
  }
  std::vector<PoolAxis> axes;
  for (int a = 0; a < nd; ++a) {
    int k = n.kernel[a];
    axes.push_back(PoolAxis::make(x.shape(lead + a), k, entry(n.stride, a, k),
                                  entry(n.padding, a, 0), entry(n.dilation, a, 1), n.ceil_mode));
  }
  // Pad (or crop the tail no window reads) so each axis is exactly what the
  // windows cover, then view the windows with as_strided.
  std::vector<int> pad_axes;
  mx::Shape lo, hi;
  mx::array xp = x;
  for (int a = 0; a < nd; ++a) {
    const PoolAxis& p = axes[a];
    int tail = p.needed() - p.length - p.padding;
    if (tail < 0) {
      mx::Shape start(xp.ndim(), 0), stop(xp.shape());
      stop[lead + a] += tail;
      xp = mx::slice(xp, start, stop, s);
      tail = 0;
    }
    pad_axes.push_back(lead + a);
    lo.push_back(p.padding);
    hi.push_back(tail);
  }
  xp = mx::contiguous(mx::pad(xp, pad_axes, lo, hi, pad_value(x.dtype(), max_pool), "constant", s),
                      false, s);
  mx::Shape shape(xp.shape().begin(), xp.shape().begin() + lead);
  mx::Strides element(xp.ndim(), 1);
  for (int i = static_cast<int>(xp.ndim()) - 2; i >= 0; --i) {
    element[i] = element[i + 1] * xp.shape(i + 1);
  }
  mx::Strides strides(element.begin(), element.begin() + lead);
  for (int a = 0; a < nd; ++a) {
    shape.push_back(axes[a].out);
    strides.push_back(element[lead + a] * axes[a].stride);
  }
  for (int a = 0; a < nd; ++a) {
    shape.push_back(axes[a].kernel);
    strides.push_back(element[lead + a] * axes[a].dilation);
  }
  mx::array windows = mx::as_strided(xp, shape, strides, 0, s);
  std::vector<int> window_axes;
  for (int a = 0; a < nd; ++a) window_axes.push_back(lead + nd + a);
  int rank = lead + nd;

  if (!max_pool) {
    mx::array total = mx::sum(windows, window_axes, false, s);
    mx::array divisor = mx::array(1.0f);
    if (n.divisor_override > 0) {
      divisor = mx::array(static_cast<float>(n.divisor_override));
    } else {
      for (int a = 0; a < nd; ++a) {
        const PoolAxis& p = axes[a];
        std::vector<float> counts(p.out);
        for (int o = 0; o < p.out; ++o) {
          int start = o * p.stride - p.padding;
          int end = std::min(start + p.kernel, p.length + p.padding);
          counts[o] =
              n.count_include_pad ? end - start : std::min(end, p.length) - std::max(start, 0);
        }
        mx::array c(counts.data(), {p.out}, mx::float32);
        divisor = mx::multiply(divisor, along_axis(c, lead + a, rank, s), s);
      }
    }
    st.set_tensor(n.out, mx::divide(total, mx::astype(divisor, x.dtype(), s), s));
    return;
  }

  st.set_tensor(n.out, mx::max(windows, window_axes, false, s));
  if (!n.indices_out) return;
  // Flat window offset of each maximum -> per-axis kernel offset -> input
  // coordinate -> flat index into the (unpadded) input plane.
  mx::Shape flat_shape(shape.begin(), shape.begin() + rank);
  int window_size = 1;
  for (const PoolAxis& p : axes) window_size *= p.kernel;
  flat_shape.push_back(window_size);
  mx::array offset =
      mx::astype(mx::argmax(mx::reshape(windows, flat_shape, s), -1, false, s), mx::int64, s);
  mx::array index = mx::zeros({}, mx::int64, s);
  int64_t inner_window = window_size, inner_plane = 1;
  for (const PoolAxis& p : axes) inner_plane *= p.length;
  for (int a = 0; a < nd; ++a) {
    const PoolAxis& p = axes[a];
    inner_window /= p.kernel;
    inner_plane /= p.length;
    mx::array k = mx::remainder(mx::floor_divide(offset, mx::array(inner_window, mx::int64), s),
                                mx::array(static_cast<int64_t>(p.kernel), mx::int64), s);
    mx::array start = along_axis(
        mx::subtract(mx::multiply(mx::astype(mx::arange(p.out, s), mx::int64, s),
                                  mx::array(static_cast<int64_t>(p.stride), mx::int64), s),
                     mx::array(static_cast<int64_t>(p.padding), mx::int64), s),
        lead + a, rank, s);
    mx::array coord = mx::add(
        start, mx::multiply(k, mx::array(static_cast<int64_t>(p.dilation), mx::int64), s), s);
    index = mx::add(index, mx::multiply(coord, mx::array(inner_plane, mx::int64), s), s);
  }
  st.set_tensor(*n.indices_out, index);
}

void exec_upsample(const UpsampleNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int nd = static_cast<int>(n.out_size.size());
  int lead = static_cast<int>(x.ndim()) - nd;
  if (nd < 1 || lead < 0) throw ExecutionError("upsample: more output sizes than input axes");
  bool linear = n.mode == ir::UpsampleMode_Linear;
  // Linear interpolation of half-precision inputs runs in float32, as PyTorch's does.
  mx::Dtype compute = mx::issubdtype(x.dtype(), mx::floating) && mx::size_of(x.dtype()) < 4
                          ? mx::float32
                          : x.dtype();
  mx::array y = linear ? mx::astype(x, compute, s) : x;
  for (int a = 0; a < nd; ++a) {
    int axis = lead + a, in = x.shape(axis), out = n.out_size[a];
    double given = a < static_cast<int>(n.scales.size()) ? n.scales[a] : 0.0;
    float scale = given > 0 ? static_cast<float>(given) : static_cast<float>(in) / out;
    if (!linear) {
      std::vector<int32_t> idx(out);
      for (int i = 0; i < out; ++i) {
        idx[i] = std::min(static_cast<int>(std::floor(i * scale)), in - 1);
      }
      y = mx::take(y, mx::array(idx.data(), {out}, mx::int32), axis, s);
      continue;
    }
    if (n.align_corners) scale = out > 1 ? static_cast<float>(in - 1) / (out - 1) : 0.0f;
    std::vector<int32_t> i0(out), i1(out);
    std::vector<float> w1(out);
    for (int i = 0; i < out; ++i) {
      float src = n.align_corners ? scale * i : std::max(scale * (i + 0.5f) - 0.5f, 0.0f);
      int base = std::min(static_cast<int>(std::floor(src)), in - 1);
      i0[i] = base;
      i1[i] = base + (base < in - 1 ? 1 : 0);
      w1[i] = std::min(std::max(src - base, 0.0f), 1.0f);
    }
    mx::array lam = along_axis(mx::astype(mx::array(w1.data(), {out}, mx::float32), compute, s),
                               axis, y.ndim(), s);
    mx::array left = mx::take(y, mx::array(i0.data(), {out}, mx::int32), axis, s);
    mx::array right = mx::take(y, mx::array(i1.data(), {out}, mx::int32), axis, s);
    mx::array one = mx::array(1.0f, compute);
    y = mx::add(mx::multiply(left, mx::subtract(one, lam, s), s), mx::multiply(right, lam, s), s);
  }
  st.set_tensor(n.out, mx::astype(y, x.dtype(), s));
}

}  // namespace mlxd
