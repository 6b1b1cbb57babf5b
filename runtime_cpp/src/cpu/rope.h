// Rotary position embedding on the CPU, as MLX's fast::rope computes it: the
// first `dims` features of each row of x ([B, ..., T, D], positions along T
// from the offset: one for all, or one per batch entry) rotated in pairs (the
// two halves, or consecutive pairs where `traditional`) by the angle
// (offset + t) * scale * f_i, f_i = base^(-2i / dims) or 1 / freqs[i]; the
// features past `dims` copied.
//
// MLX 0.32 has no CPU kernel for it: on the CPU fast::rope composes it of ops
// every call (an arange, the angles, their cos and sin through libm, slices,
// products and a concatenation: about twenty primitives a call, two calls a
// layer, in x's dtype). This computes each position's cosines and sines once a
// call in float32, rotates every row with them and rounds once to x's dtype.
//
// An MLX primitive (RopeCpu), compiled per variant like norm.h. In a compiled
// chain it is one node where MLX's composition was twenty, so the exec
// function asks for it at every size.
#pragma once

#include <mlx/mlx.h>

#include <optional>

#include "../ops/cpu_kernels.h"

#ifndef MLXD_CPU_ISA
#error "MLXD_CPU_ISA (the kernels' instruction set: portable, avx2, avx512) must be defined"
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace mx = mlx::core;

// x rotated (float32, bfloat16 or float16, at least 3-D, any strides; out in
// x's dtype); `offset` an int32 scalar or one per batch entry (x.shape(0)
// values: exec_rope casts it to int32, as MLX's rope does); exactly one of
// `base` and `freqs` (dims / 2 floating values). std::nullopt for other operands or a stream that
// is not the CPU's.
std::optional<mx::array> rope(const mx::array& x, int dims, bool traditional,
                              std::optional<float> base, float scale, const mx::array& offset,
                              const std::optional<mx::array>& freqs, mx::StreamOrDevice s = {});

}  // namespace mlxd::cpu::MLXD_CPU_ISA
