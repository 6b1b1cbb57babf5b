// Layer and RMS normalisation over the last axis on the CPU, vectorised: a
// row's mean (layer norm) and mean square in float32, then each value
// normalised, scaled by the weight, shifted by the bias and rounded once to
// the row's dtype. MLX 0.32 composes its CPU norms of ops (a reduction, then a
// compiled elementwise kernel with its scalar loops; in half precision the
// normalised value is rounded before the weight multiplies it, and again
// after): a tenth of a Whisper encoder's time.
//
// An MLX primitive (NormCpu), compiled per variant like activation.h. The exec
// functions ask for it at every size: MLX's norm on the CPU is a reduction and
// a fused kernel after it, at least three primitives where this is one (a
// decode step's norms are rows of a few thousand values).
#pragma once

#include <mlx/mlx.h>

#include <optional>

#include "../ops/cpu_kernels.h"

#ifndef MLXD_CPU_ISA
#error "MLXD_CPU_ISA (the kernels' instruction set: portable, avx2, avx512) must be defined"
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace mx = mlx::core;
using ops::Norm;

// x normalised over its last axis (float32, bfloat16 or float16, any strides),
// times `weight` and plus `bias` (1-D, that axis's size, x's dtype) where
// given; `bias` only with Norm::layer. std::nullopt for other operands, fewer
// than `min_size` values, or a stream that is not the CPU's.
std::optional<mx::array> norm(Norm kind, const mx::array& x, const std::optional<mx::array>& weight,
                              const std::optional<mx::array>& bias, float eps, int64_t min_size,
                              mx::StreamOrDevice s = {});

}  // namespace mlxd::cpu::MLXD_CPU_ISA
