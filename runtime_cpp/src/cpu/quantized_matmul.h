// Group-wise affine quantized products on the CPU, on MLX's packed layout:
//   y[..., n] = sum_k x[..., k] * (scales[n, g] * q[n, k] + biases[n, g]),  g = k / group_size,
// q[n, k] the k-th `bits`-bit field of row n of the uint32 weight (lowest bits
// first), as mx::quantized_matmul(x, w, scales, biases, transpose=true) computes it.
//
// An MLX primitive (QuantizedMatmulCpu), so that it sits in a graph, and in a
// compiled chain, like any other op. Its kernel is compiled once per variant
// (MLXD_CPU_ISA: portable, avx2, avx512) into that variant's plugin.
#pragma once

#include <mlx/mlx.h>

#include <cstdint>
#include <optional>

#ifndef MLXD_CPU_ISA
#error "MLXD_CPU_ISA (the kernels' instruction set: portable, avx2, avx512) must be defined"
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace mx = mlx::core;

// Whether the kernel takes this product: bits 4 or 8, group size 32, 64 or
// 128, float32/bfloat16/float16 activations, scales and biases, a 2-D weight
// already evaluated and row-contiguous, with scales and biases alike.
bool supports(const mx::array& x, const mx::array& w, const mx::array& scales,
              const mx::array& biases, int group_size, int bits);

// The product (transposed weight, as a linear layer), accumulated in float32
// and rounded once to `out_dtype`; std::nullopt when `supports` says no.
std::optional<mx::array> quantized_matmul(const mx::array& x, const mx::array& w,
                                          const mx::array& scales, const mx::array& biases,
                                          int group_size, int bits, mx::Dtype out_dtype,
                                          mx::StreamOrDevice s = {});

// Installs this variant's kernels as the exec_* functions' CPU products
// (mlxd::ops::set_cpu_quantized_matmul).
void install();

// C[M, N] = A[M, K] . B[N, K]^T, row-major float32 with leading dimensions,
// on the calling thread: a BLAS's sgemm.
using Sgemm = void (*)(int64_t M, int64_t N, int64_t K, const float* a, int64_t lda, const float* b,
                       int64_t ldb, float* c, int64_t ldc);

// With an sgemm set, a product of kGemmRows activation rows or more
// dequantizes the weight a block of rows at a time and hands each block to it
// (the plugins that carry OpenBLAS set theirs, src/plugin/openblas_forward.cpp):
// a prompt's products then run at the BLAS's float32 speed. nullptr: none.
constexpr int64_t kGemmRows = 32;
void set_sgemm(Sgemm sgemm);

// Whether a product of `rows` activation rows (all of x's but the last axis)
// goes through the sgemm.
bool through_sgemm(int64_t rows);

}  // namespace mlxd::cpu::MLXD_CPU_ISA
