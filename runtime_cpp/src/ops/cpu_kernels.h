// Products and elementwise functions that a CPU plugin built with our kernels
// (src/cpu/, one build per instruction set) computes itself instead of MLX. The exec_* functions
// ask for the kernel; without one installed (the plain CPU plugins, CUDA, Metal), or for a product
// it does not take, they use MLX's ops.
#pragma once

#include <mlx/mlx.h>

#include <optional>

namespace mlxd::ops {

// Affine group-wise quantized x @ w.T (mx::quantized_matmul with transpose),
// accumulated in float32 and rounded once to `out_dtype`; std::nullopt when the
// kernel does not take these operands.
using QuantizedMatmulKernel = std::optional<mlx::core::array> (*)(
    const mlx::core::array& x, const mlx::core::array& w, const mlx::core::array& scales,
    const mlx::core::array& biases, int group_size, int bits, mlx::core::Dtype out_dtype,
    mlx::core::StreamOrDevice s);

void set_cpu_quantized_matmul(QuantizedMatmulKernel kernel);
QuantizedMatmulKernel cpu_quantized_matmul();

// x @ w.T (+ bias [N]) with a bfloat16/float16 weight w [N, K], accumulated in
// float32 and rounded once to `out_dtype`; std::nullopt when the kernel does not
// take these operands.
using HalfMatmulKernel =
    std::optional<mlx::core::array> (*)(const mlx::core::array& x, const mlx::core::array& w,
                                        const std::optional<mlx::core::array>& bias,
                                        mlx::core::Dtype out_dtype, mlx::core::StreamOrDevice s);

void set_cpu_half_matmul(HalfMatmulKernel kernel);
HalfMatmulKernel cpu_half_matmul();

// The elementwise functions whose MLX CPU kernels call libm one value at a time.
enum class Activation { exp, tanh, sigmoid, erf, silu, gelu, gelu_tanh };

// f(x) in x's dtype; std::nullopt when the kernel does not take x (its dtype,
// or too few elements to be worth a pass of their own).
using ActivationKernel = std::optional<mlx::core::array> (*)(Activation f,
                                                             const mlx::core::array& x,
                                                             mlx::core::StreamOrDevice s);

void set_cpu_activation(ActivationKernel kernel);
ActivationKernel cpu_activation();

// Softmax over x's last axis in x's dtype; std::nullopt as ActivationKernel.
using SoftmaxKernel = std::optional<mlx::core::array> (*)(const mlx::core::array& x,
                                                          mlx::core::StreamOrDevice s);

void set_cpu_softmax(SoftmaxKernel kernel);
SoftmaxKernel cpu_softmax();

// softmax(q k^T * scale + mask) v, fused, for q [B, Hq, L, D] and k, v
// [B, Hk, S, D] of one dtype; a boolean mask keeps its true entries, a floating
// one is added; `causal` is MLX's bottom-right causal mode. std::nullopt when the
// kernel does not take these operands (a decode step's one query among them).
using AttentionKernel = std::optional<mlx::core::array> (*)(
    const mlx::core::array& q, const mlx::core::array& k, const mlx::core::array& v, float scale,
    bool causal, const std::optional<mlx::core::array>& mask, mlx::core::StreamOrDevice s);

void set_cpu_attention(AttentionKernel kernel);
AttentionKernel cpu_attention();

enum class Norm { layer, rms };

// x normalised over its last axis (layer: mean and variance; rms: mean square),
// times weight, plus bias (layer only), in x's dtype; std::nullopt when the
// kernel does not take these operands (dtypes, or too few values).
using NormKernel = std::optional<mlx::core::array> (*)(
    Norm kind, const mlx::core::array& x, const std::optional<mlx::core::array>& weight,
    const std::optional<mlx::core::array>& bias, float eps, mlx::core::StreamOrDevice s);

void set_cpu_norm(NormKernel kernel);
NormKernel cpu_norm();

// mx::fast::rope's rotation of x (its dims, traditional, base or freqs, scale
// and offset), in x's dtype; std::nullopt when the kernel does not take these
// operands.
using RopeKernel = std::optional<mlx::core::array> (*)(const mlx::core::array& x, int dims,
                                                       bool traditional, std::optional<float> base,
                                                       float scale, const mlx::core::array& offset,
                                                       const std::optional<mlx::core::array>& freqs,
                                                       mlx::core::StreamOrDevice s);

void set_cpu_rope(RopeKernel kernel);
RopeKernel cpu_rope();

}  // namespace mlxd::ops
