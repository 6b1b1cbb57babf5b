// float32 products of many rows on AVX-512 register tiles, for the AVX-512
// variant's cblas_sgemm (src/plugin/openblas_forward.cpp: MLX's float32
// matmul, a prompt's linear layers, an encoder's). OpenBLAS picks its kernels
// by OPENBLAS_CORETYPE, and where that names an older core (Haswell: AVX2) its
// sgemm runs at about half this processor's rate; these kernels are the
// variant's own and use AVX-512 whatever that variable says (runtime_cpp/
// PLUGINS.md: bench/cpu_kernels.py --tables float-gemm).
#pragma once

#include <cstdint>

#ifndef MLXD_CPU_ISA
#error "MLXD_CPU_ISA (the kernels' instruction set: portable, avx2, avx512) must be defined"
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

// The fewest rows of C the GEMM takes (fewer: OpenBLAS, one row its gemv).
inline constexpr int64_t kFloatGemmMinRows = 8;

// Whether this build has the GEMM (the AVX-512 variant's).
bool float_gemm_here();

// Row-major C = alpha * A op(B) + beta * C, A [M, K] with rows lda apart, B
// [K, N] or, b_transposed, [N, K], with rows ldb apart; C's rows ldc apart (C
// is not read where beta is 0). Over the pool unless the product is small.
// False (nothing done) where the build has no GEMM.
bool float_gemm(int64_t M, int64_t N, int64_t K, float alpha, const float* a, int64_t lda,
                const float* b, int64_t ldb, bool b_transposed, float beta, float* c, int64_t ldc);

}  // namespace mlxd::cpu::MLXD_CPU_ISA
