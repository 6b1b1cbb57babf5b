// Hands this variant's kernels to the exec_* functions (src/ops/cpu_kernels.h).
// Apart from quantized_matmul.cpp so that a program linking the kernels alone
// (the kernel check tool) needs none of the plugin's op library.
#include "../ops/cpu_kernels.h"
#include "activation.h"
#include "attention.h"
#include "half_matmul.h"
#include "norm.h"
#include "quantized_matmul.h"
#include "rope.h"

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

std::optional<mx::array> quantized_matmul_kernel(const mx::array& x, const mx::array& w,
                                                 const mx::array& scales, const mx::array& biases,
                                                 int group_size, int bits, mx::Dtype out_dtype,
                                                 mx::StreamOrDevice s) {
  return quantized_matmul(x, w, scales, biases, group_size, bits, out_dtype, s);
}

std::optional<mx::array> half_matmul_kernel(const mx::array& x, const mx::array& w,
                                            const std::optional<mx::array>& bias,
                                            mx::Dtype out_dtype, mx::StreamOrDevice s) {
  return half_matmul(x, w, bias, out_dtype, s);
}

std::optional<mx::array> activation_kernel(Activation f, const mx::array& x, mx::StreamOrDevice s) {
  return activation(f, x, kActivationMinSize, s);
}

std::optional<mx::array> softmax_kernel(const mx::array& x, mx::StreamOrDevice s) {
  return softmax(x, kActivationMinSize, s);
}

std::optional<mx::array> attention_kernel(const mx::array& q, const mx::array& k,
                                          const mx::array& v, float scale, bool causal,
                                          const std::optional<mx::array>& mask,
                                          mx::StreamOrDevice s) {
  return attention(q, k, v, scale, causal, mask, s);
}

std::optional<mx::array> norm_kernel(ops::Norm kind, const mx::array& x,
                                     const std::optional<mx::array>& weight,
                                     const std::optional<mx::array>& bias, float eps,
                                     mx::StreamOrDevice s) {
  return norm(kind, x, weight, bias, eps, 0, s);
}

std::optional<mx::array> rope_kernel(const mx::array& x, int dims, bool traditional,
                                     std::optional<float> base, float scale,
                                     const mx::array& offset, const std::optional<mx::array>& freqs,
                                     mx::StreamOrDevice s) {
  return rope(x, dims, traditional, base, scale, offset, freqs, s);
}

}  // namespace

void install() {
  ops::set_cpu_quantized_matmul(&quantized_matmul_kernel);
  ops::set_cpu_half_matmul(&half_matmul_kernel);
  ops::set_cpu_activation(&activation_kernel);
  ops::set_cpu_softmax(&softmax_kernel);
  ops::set_cpu_attention(&attention_kernel);
  ops::set_cpu_norm(&norm_kernel);
  ops::set_cpu_rope(&rope_kernel);
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
