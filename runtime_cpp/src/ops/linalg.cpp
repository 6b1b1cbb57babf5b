// Matrix products (quantized ones too), normalization, convolution, attention.
#include <algorithm>
#include <cmath>

#include "cpu_kernels.h"
#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

// MLX 0.32's CPU products in bfloat16 and float16 are loops of its own, not BLAS:
// 8 GFLOP/s on a 1500x768x3072 product (a Whisper encoder's MLP) against 324 in
// float32 through the plugin's OpenBLAS, and slower even for one row (1.56 ms
// against 0.95 for a 3072x768 weight, widening included). On the CPU the products
// below (matmul, linear beyond our half kernel, addmm, convolution, attention)
// widen half operands to float32 and round the result once (widens_on_cpu).

void exec_matmul(const MatmulNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& a = st.tensor(n.a);
  const mx::array& b = st.tensor(n.b);
  bool widen = widens_on_cpu(a, s) && b.dtype() == a.dtype();
  mx::array y = mx::matmul(widened(a, widen, s), widened(b, widen, s), s);
  st.set_tensor(n.out, narrowed(y, a.dtype(), widen, s));
}

void exec_linear(const LinearNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  const mx::array& w = st.tensor(n.weight);
  if (w.ndim() != 2) throw ExecutionError("linear: weight must be 2-D");
  // A half-precision weight (a decode step, a prompt, an audio window): our CPU kernel
  // (cpu_kernels.h), accumulating in float32, the bias added to the sums, the
  // result rounded once. (Mixed dtypes, which MLX promotes, stay MLX's.)
  bool same_types = (x.dtype() == w.dtype() || x.dtype() == mx::float32) &&
                    (!n.bias || st.tensor(*n.bias).dtype() == x.dtype());
  if (HalfMatmulKernel kernel = cpu_half_matmul();
      kernel != nullptr && same_types &&
      mx::to_stream(s).device.type == mx::Device::DeviceType::cpu) {
    std::optional<mx::array> bias;
    if (n.bias) bias = st.tensor(*n.bias);
    if (std::optional<mx::array> y = kernel(x, w, bias, x.dtype(), s)) {
      st.set_tensor(n.out, *y);
      return;
    }
  }
  bool widen = widens_on_cpu(x, s) && same_types;
  mx::array wt = !widen && st.slot_class(n.weight) == SlotClass::constant
                     ? st.transposed_constant(n.weight, s)
                     : mx::transpose(widened(w, widen, s), {1, 0}, s);
  mx::array xw = widened(x, widen, s);
  mx::array y = n.bias ? mx::addmm(widened(st.tensor(*n.bias), widen, s), xw, wt, 1.0f, 1.0f, s)
                       : mx::matmul(xw, wt, s);
  st.set_tensor(n.out, narrowed(y, x.dtype(), widen, s));
}

// The per-tensor scale of an Nvfp4 weight, multiplied in float32 (in the
// activations' half precision it would lose a few bits of every product), the
// result back in `a`'s dtype.
static mx::array tensor_scaled(const mx::array& a, const std::optional<Tid>& tensor_scale,
                               const ExecutionState& st, StreamOrDevice s) {
  if (!tensor_scale) return a;
  mx::array scaled = mx::multiply(a, mx::astype(st.tensor(*tensor_scale), mx::float32, s), s);
  return mx::astype(scaled, a.dtype(), s);
}

// The product of our CPU kernel (cpu_kernels.h) where the plugin has one and
// it takes these operands: it reads half-precision activations, scales and
// biases as they are and accumulates in float32, so nothing is widened first.
static std::optional<mx::array> kernel_quantized_linear(const QuantizedLinearNode& n,
                                                        const mx::array& x, bool widen,
                                                        const ExecutionState& st,
                                                        StreamOrDevice s) {
  QuantizedMatmulKernel kernel = cpu_quantized_matmul();
  if (kernel == nullptr || n.mode != ir::QuantMode_Affine || !n.transpose || !n.biases ||
      mx::to_stream(s).device.type != mx::Device::DeviceType::cpu) {
    return std::nullopt;
  }
  return kernel(x, st.tensor(n.w), st.tensor(n.scales), st.tensor(*n.biases), n.group_size, n.bits,
                widen ? mx::float32 : x.dtype(), s);
}

// Rows from which a product on MLX's CUDA backend dequantizes its affine weight
// first. MLX 0.32's CUDA quantized product runs far below its bfloat16 product
// on many rows (a prompt): on an H200, 512 rows by a 2048x2048 int4 weight take
// 47 µs a product, dequantizing and then the bfloat16 product 36, the bfloat16
// weight 29; int8 42 against 38. From 64 rows on, dequantizing first won for
// both; at 8 and 32 rows int8's packed product won (bench/gpu_start_cost.py
// --kinds prefill). One row (a decode step) stays packed: it reads a quarter
// (int4) of the bytes. Each dequantized weight lives until its product has run on
// the device, and the host builds a prompt's layers ahead of the device: without
// a wait, a 4B int4 prompt's peak GPU memory rose from 5.2 to 7.8 GB, bounded only
// by the model's whole bf16 size. So the step asks for one (dequantized_weight,
// op_util.h), as a prompt's dequantized experts do. With
// the wait, that prompt peaked at 3.8 GB, its first token in 18.5 ms against
// 19.4 without (README).
constexpr int64_t kDequantizedProductRows = 64;

static bool dequantizes_first(const QuantizedLinearNode& n, const mx::array& x, StreamOrDevice s) {
  if (x.ndim() == 0 || !dequantizes_on_cuda(n.mode, n.transpose, x, s)) return false;
  int64_t cols = std::max<int64_t>(x.shape(-1), 1);
  return static_cast<int64_t>(x.size()) / cols >= kDequantizedProductRows;
}

// The weight stays packed: the kernel, or MLX, dequantizes it group by group
// inside the product (except a prompt's on CUDA, above).
void exec_quantized_linear(const QuantizedLinearNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  bool widen = widens_on_cpu(x, s);
  std::optional<mx::array> product = kernel_quantized_linear(n, x, widen, st, s);
  if (!product && dequantizes_first(n, x, s)) {
    mx::array weight = dequantized_weight(n, x, st, s, "quantized_linear");
    product = mx::matmul(x, mx::transpose(weight, {1, 0}, s), s);
  }
  if (!product) {
    QuantizedScales q =
        quantized_scales(n.mode, n.scales, n.biases, st, widen, s, "quantized_linear");
    product = mx::quantized_matmul(widened(x, widen, s), st.tensor(n.w), q.scales, q.biases,
                                   n.transpose, n.group_size, n.bits, q.mode, s);
  }
  mx::array y = *product;
  y = tensor_scaled(y, n.tensor_scale, st, s);
  if (n.bias) y = mx::add(y, widened(st.tensor(*n.bias), widen, s), s);
  st.set_tensor(n.out, narrowed(y, x.dtype(), widen, s));
}

// Affine weights come out in the dtype of their scales (half precision widened
// on the CPU, then rounded once); the fp modes' in float32, which holds every
// value of theirs exactly.
void exec_dequantize(const DequantizeNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& scales = st.tensor(n.scales);
  bool affine = n.mode == ir::QuantMode_Affine;
  bool widen = affine && widens_on_cpu(scales, s);
  mx::Dtype dtype = affine ? scales.dtype() : mx::float32;
  QuantizedScales q = quantized_scales(n.mode, n.scales, n.biases, st, widen, s, "dequantize");
  std::optional<mx::Dtype> out_dtype;
  if (!affine) out_dtype = mx::float32;
  mx::array rows = mx::dequantize(st.tensor(n.w), q.scales, q.biases, n.group_size, n.bits, q.mode,
                                  std::nullopt, out_dtype, s);
  rows = tensor_scaled(rows, n.tensor_scale, st, s);
  st.set_tensor(n.out, rows.dtype() == dtype ? rows : mx::astype(rows, dtype, s));
}

void exec_addmm(const AddmmNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& bias = st.tensor(n.bias);
  const mx::array& a = st.tensor(n.mat1);
  const mx::array& b = st.tensor(n.mat2);
  bool widen = widens_on_cpu(a, s) && b.dtype() == a.dtype() && bias.dtype() == a.dtype();
  mx::array y = mx::addmm(widened(bias, widen, s), widened(a, widen, s), widened(b, widen, s),
                          n.alpha, n.beta, s);
  st.set_tensor(n.out, narrowed(y, a.dtype(), widen, s));
}

void exec_layer_norm(const LayerNormNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int k = n.num_axes;
  if (k < 1 || k > static_cast<int>(x.ndim())) {
    throw ExecutionError("layer_norm: num_axes " + std::to_string(k) + " for a " +
                         std::to_string(x.ndim()) + "-D input");
  }
  std::optional<mx::array> w, b;
  if (n.weight) w = st.tensor(*n.weight);
  if (n.bias) b = st.tensor(*n.bias);
  if (k == 1 && !n.mean_out && !n.rstd_out) {
    std::optional<mx::array> ours;
    if (NormKernel kernel = cpu_norm()) ours = kernel(Norm::layer, x, w, b, n.eps, s);
    st.set_tensor(n.out, ours ? *ours : mx::fast::layer_norm(x, w, b, n.eps, s));
    return;
  }
  std::vector<int> axes;
  for (int i = static_cast<int>(x.ndim()) - k; i < static_cast<int>(x.ndim()); ++i)
    axes.push_back(i);
  mx::array xf = mx::astype(x, mx::float32, s);
  mx::array mean = mx::mean(xf, axes, /*keepdims=*/true, s);
  mx::array var = mx::var(xf, axes, /*keepdims=*/true, 0, s);
  mx::array rstd = mx::rsqrt(mx::add(var, mx::array(n.eps, mx::float32), s), s);
  mx::array y = mx::astype(mx::multiply(mx::subtract(xf, mean, s), rstd, s), x.dtype(), s);
  if (w) y = mx::multiply(y, *w, s);
  if (b) y = mx::add(y, *b, s);
  st.set_tensor(n.out, y);
  if (n.mean_out) st.set_tensor(*n.mean_out, mx::astype(mean, x.dtype(), s));
  if (n.rstd_out) st.set_tensor(*n.rstd_out, mx::astype(rstd, x.dtype(), s));
}

void exec_rms_norm(const RmsNormNode& n, ExecutionState& st, StreamOrDevice s) {
  std::optional<mx::array> w;
  if (n.weight) w = st.tensor(*n.weight);
  const mx::array& x = st.tensor(n.x);
  std::optional<mx::array> ours;
  if (NormKernel kernel = cpu_norm()) ours = kernel(Norm::rms, x, w, std::nullopt, n.eps, s);
  st.set_tensor(n.out, ours ? *ours : mx::fast::rms_norm(x, w, n.eps, s));
}

// MLX takes the frequencies or the base, never both; its array offset must be
// an integer scalar (or one per batch row), int32 being what its kernels read.
void exec_rope(const RopeNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  if (n.dims <= 0 || n.dims % 2 != 0 || n.dims > x.shape(-1)) {
    throw ExecutionError("rope: dims " + std::to_string(n.dims) + " for a last axis of " +
                         std::to_string(x.shape(-1)));
  }
  std::optional<mx::array> freqs;
  std::optional<float> base;
  if (n.freqs) {
    freqs = st.tensor(*n.freqs);
  } else {
    base = n.base;
  }
  mx::array offset = mx::astype(st.tensor(n.offset), mx::int32, s);
  std::optional<mx::array> ours;
  if (RopeKernel kernel = cpu_rope()) {
    ours = kernel(x, n.dims, n.traditional, base, n.scale, offset, freqs, s);
  }
  st.set_tensor(
      n.out,
      ours ? *ours : mx::fast::rope(x, n.dims, n.traditional, base, n.scale, offset, freqs, s));
}

// mx::conv_general on channels-last x (N, *spatial, C) and w (O, *k, C / groups).
// MLX convolves groups in 1-D and 2-D only: 3-D groups are convolved one by one
// (channel slices of x and w) and concatenated.
static mx::array grouped_conv(const mx::array& x, const mx::array& w,
                              const std::vector<int>& stride, const std::vector<int>& lo,
                              const std::vector<int>& hi, const std::vector<int>& dilation,
                              const std::vector<int>& input_dilation, int groups, bool flip,
                              StreamOrDevice s) {
  int nd = static_cast<int>(w.ndim()) - 2;
  if (groups == 1 || nd < 3) {
    return mx::conv_general(x, w, stride, lo, hi, dilation, input_dilation, groups, flip, s);
  }
  int in_per_group = x.shape(-1) / groups, out_per_group = w.shape(0) / groups;
  std::vector<mx::array> parts;
  for (int g = 0; g < groups; ++g) {
    mx::Shape x_start(x.ndim(), 0), x_stop(x.shape());
    x_start.back() = g * in_per_group;
    x_stop.back() = (g + 1) * in_per_group;
    mx::Shape w_start(w.ndim(), 0), w_stop(w.shape());
    w_start[0] = g * out_per_group;
    w_stop[0] = (g + 1) * out_per_group;
    parts.push_back(mx::conv_general(mx::slice(x, x_start, x_stop, s),
                                     mx::slice(w, w_start, w_stop, s), stride, lo, hi, dilation,
                                     input_dilation, 1, flip, s));
  }
  return mx::concatenate(parts, -1, s);
}

// PyTorch layout: x (N, C, *spatial), weight (O, C/groups, *kernel), out
// (N, O, *spatial). MLX convolves channels-last, so transpose around it.
// PyTorch's conv_transpose as a convolution of the stride-dilated input with
// the flipped kernel: x channels-last (N, *spatial, C); w in PyTorch's layout
// (C, O / groups, *kernel). Each side is padded by dilation * (k - 1) - padding
// (+ output_padding on the far side); a negative pad is cropped afterwards.
static mx::array conv_transposed(const mx::array& x, const mx::array& w,
                                 const std::vector<int>& stride, const std::vector<int>& padding,
                                 const std::vector<int>& dilation,
                                 const std::vector<int>& output_padding, int groups,
                                 StreamOrDevice s) {
  int nd = static_cast<int>(w.ndim()) - 2;
  int in_per_group = w.shape(0) / groups, out_per_group = w.shape(1);
  // (C, O/g, *k) -> (g, C/g, O/g, *k) -> (g, O/g, *k, C/g) -> (O, *k, C/g)
  mx::Shape grouped{groups, in_per_group, out_per_group};
  std::vector<int> perm{0, 2};
  mx::Shape weight_shape{groups * out_per_group};
  for (int i = 0; i < nd; ++i) {
    grouped.push_back(w.shape(2 + i));
    perm.push_back(3 + i);
    weight_shape.push_back(w.shape(2 + i));
  }
  perm.push_back(1);
  weight_shape.push_back(in_per_group);
  mx::array weight =
      mx::reshape(mx::transpose(mx::reshape(w, grouped, s), perm, s), weight_shape, s);
  std::vector<int> lo(nd), hi(nd), crop_lo(nd), crop_hi(nd);
  for (int i = 0; i < nd; ++i) {
    int edge = dilation[i] * (w.shape(2 + i) - 1);
    int want_lo = edge - padding[i], want_hi = edge - padding[i] + output_padding[i];
    lo[i] = std::max(want_lo, 0);
    hi[i] = std::max(want_hi, 0);
    crop_lo[i] = lo[i] - want_lo;
    crop_hi[i] = hi[i] - want_hi;
  }
  mx::array y = grouped_conv(x, weight, std::vector<int>(nd, 1), lo, hi, dilation, stride, groups,
                             /*flip=*/true, s);
  bool crop = false;
  mx::Shape start(y.ndim(), 0), stop(y.shape());
  for (int i = 0; i < nd; ++i) {
    start[1 + i] = crop_lo[i];
    stop[1 + i] -= crop_hi[i];
    crop = crop || crop_lo[i] || crop_hi[i];
  }
  return crop ? mx::slice(y, start, stop, s) : y;
}

void exec_conv(const ConvNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  const mx::array& w = st.tensor(n.weight);
  int nd = static_cast<int>(x.ndim()) - 2;
  if (nd < 1 || nd > 3 || static_cast<int>(w.ndim()) != nd + 2) {
    throw ExecutionError("conv: expected a 3-D to 5-D input and a weight of the same rank");
  }
  auto expand = [&](const std::vector<int32_t>& v, int dflt, const char* what) {
    if (v.empty()) return std::vector<int>(nd, dflt);
    if (v.size() == 1) return std::vector<int>(nd, v[0]);
    if (static_cast<int>(v.size()) != nd) {
      throw ExecutionError(std::string("conv: ") + what + " has " + std::to_string(v.size()) +
                           " entries for " + std::to_string(nd) + " spatial dims");
    }
    return std::vector<int>(v.begin(), v.end());
  };
  std::vector<int> stride = expand(n.stride, 1, "stride");
  std::vector<int> padding = expand(n.padding, 0, "padding");
  std::vector<int> dilation = expand(n.dilation, 1, "dilation");
  std::vector<int> to_last{0}, to_first{0, nd + 1};
  for (int i = 0; i < nd; ++i) to_last.push_back(i + 2);
  to_last.push_back(1);
  for (int i = 0; i < nd; ++i) to_first.push_back(i + 1);
  bool widen = widens_on_cpu(x, s) && w.dtype() == x.dtype();
  mx::array xin = mx::transpose(widened(x, widen, s), to_last, s);
  mx::array win = widened(w, widen, s);
  mx::array y = n.transposed
                    ? conv_transposed(xin, win, stride, padding, dilation,
                                      expand(n.output_padding, 0, "output_padding"), n.groups, s)
                    : grouped_conv(xin, mx::transpose(win, to_last, s), stride, padding, padding,
                                   dilation, {}, n.groups, false, s);
  // channels-last: the bias broadcasts
  if (n.bias) y = mx::add(y, widened(st.tensor(*n.bias), widen, s), s);
  st.set_tensor(n.out, narrowed(mx::transpose(y, to_first, s), x.dtype(), widen, s));
}

// PyTorch's attention gives 0 for a query whose mask row excludes every key (a
// left-padded position in a batch); softmax over nothing would give NaN
// (-inf mask) or an average of all values (boolean mask).
static mx::array zero_rows_that_see_no_key(const mx::array& out, const mx::array& mask,
                                           StreamOrDevice s) {
  mx::array sees =
      mask.dtype() == mx::bool_ ? mask : mx::greater(mask, mx::array(-INFINITY, mask.dtype()), s);
  mx::array any_key = mx::any(sees, -1, /*keepdims=*/true, s);
  return mx::where(any_key, out, mx::zeros({}, out.dtype(), s), s);
}

// q, k, v: (B, H, L, D) as in PyTorch. A boolean mask keeps True entries; a
// float mask is added to the scores. scale 0 means 1/sqrt(D).
void exec_scaled_dot_product_attention(const ScaledDotProductAttentionNode& n, ExecutionState& st,
                                       StreamOrDevice s) {
  const mx::array& q = st.tensor(n.q);
  const mx::array& k = st.tensor(n.k);
  const mx::array& v = st.tensor(n.v);
  if (q.ndim() != 4 || k.ndim() != 4 || v.ndim() != 4) {
    throw ExecutionError("scaled_dot_product_attention: q, k and v must be 4-D (B, H, L, D)");
  }
  float scale = n.scale != 0.0f ? n.scale : 1.0f / std::sqrt(static_cast<float>(q.shape(-1)));
  std::optional<mx::array> mask;
  if (n.mask) mask = st.tensor(*n.mask);
  std::string mode = n.causal ? "causal" : (mask ? "array" : "");
  if (n.causal && mask) {
    throw ExecutionError("scaled_dot_product_attention: both causal and an explicit mask");
  }
  if (n.causal && n.lower_right && q.shape(2) == 1) {
    // One new token at the end of the keys sees all of them: a decode step
    // needs no mask at all.
    mode = "";
  } else if (n.causal && !n.lower_right && q.shape(2) != k.shape(2)) {
    // MLX aligns its causal mask bottom-right; PyTorch's is_causal (the IR's
    // `causal` without `lower_right`) is top-left: query i attends to keys j <= i.
    auto rows = mx::reshape(mx::arange(q.shape(2), s), {-1, 1}, s);
    auto cols = mx::reshape(mx::arange(k.shape(2), s), {1, -1}, s);
    mask = mx::greater_equal(rows, cols, s);
    mode = "array";
  }
  if (AttentionKernel fused = cpu_attention()) {
    // Our fused CPU attention (cpu_kernels.h) in the operands' own dtype: MLX's
    // CPU attention writes every head's scores and runs its softmax through libm.
    if (std::optional<mx::array> out = fused(q, k, v, scale, mode == "causal", mask, s)) {
      st.set_tensor(n.out, *out);
      return;
    }
  }
  bool widen = widens_on_cpu(q, s) && k.dtype() == q.dtype() && v.dtype() == q.dtype();
  std::optional<mx::array> scores_mask = mask;
  if (widen && mask && mask->dtype() != mx::bool_) scores_mask = widened(*mask, widen, s);
  mx::array out = mx::fast::scaled_dot_product_attention(widened(q, widen, s), widened(k, widen, s),
                                                         widened(v, widen, s), scale, mode,
                                                         scores_mask, {}, false, s);
  if (n.mask) out = zero_rows_that_see_no_key(out, *mask, s);
  st.set_tensor(n.out, narrowed(out, q.dtype(), widen, s));
}

}  // namespace mlxd
