// Elementwise transcendental functions on the CPU, vectorised: exp, tanh,
// sigmoid, erf and the activations made of them (SiLU, GELU in both forms), and
// softmax.
// MLX 0.32's CPU kernels compute these one value at a time through libm
// (`expf`, `tanhf`: its SIMD width on x86 is 1), also inside the kernels that
// compiled chains fuse; these compute 16 lanes at a time with polynomials
// (Cephes' expf and tanhf, Abramowitz-Stegun 7.1.26 for erf, as MLX's own erf)
// and split a large tensor over the kernels' threads.
//
// An MLX primitive (ActivationCpu), compiled per variant like quantized_matmul.h.
// In a compiled chain it is a node MLX does not fuse, so the exec functions ask
// for it only on tensors large enough that a separate vectorised pass beats a
// scalar one fused with its neighbours (kActivationMinSize).
#pragma once

#include <mlx/mlx.h>

#include <optional>

#include "../ops/cpu_kernels.h"

#ifndef MLXD_CPU_ISA
#error "MLXD_CPU_ISA (the kernels' instruction set: portable, avx2, avx512) must be defined"
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace mx = mlx::core;
using ops::Activation;

// The fewest elements the exec functions hand the kernel.
inline constexpr int64_t kActivationMinSize = 4096;

// f(x) elementwise in x's dtype (float32, bfloat16 or float16; computed in
// float32, rounded once); std::nullopt for other dtypes, fewer than `min_size`
// elements, or a stream that is not the CPU's.
std::optional<mx::array> activation(Activation f, const mx::array& x,
                                    int64_t min_size = kActivationMinSize,
                                    mx::StreamOrDevice s = {});

// Softmax over x's last axis (float32, bfloat16 or float16; in float32: the
// row's largest value subtracted, exp, one multiply by the sum's reciprocal,
// rounded once); std::nullopt as `activation` says. Rows run on the kernels'
// threads. MLX's CPU softmax calls exp and fmaf through libm for every value
// (a third of a Whisper encoder's time on this machine, in its attention).
std::optional<mx::array> softmax(const mx::array& x, int64_t min_size = kActivationMinSize,
                                 mx::StreamOrDevice s = {});

}  // namespace mlxd::cpu::MLXD_CPU_ISA
