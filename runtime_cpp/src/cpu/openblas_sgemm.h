// OpenBLAS (the scipy-openblas32 wheel's, symbols prefixed scipy_) as the CPU
// kernels' BLAS: for the plugins that carry it (src/plugin/openblas_forward.cpp)
// and the kernel check tool. Include only where cblas.h is OpenBLAS's.
#pragma once

#include <cblas.h>

#include <cstdint>

#include "quantized_matmul.h"

namespace mlxd::cpu::MLXD_CPU_ISA {

// C = A B^T on the calling thread (quantized_matmul.h's Sgemm): the quantized
// products split their work over our pool themselves.
inline void openblas_sgemm_transposed_b(int64_t m, int64_t n, int64_t k, const float* a,
                                        int64_t lda, const float* b, int64_t ldb, float* c,
                                        int64_t ldc) {
  scipy_cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<blasint>(m),
                    static_cast<blasint>(n), static_cast<blasint>(k), 1.0f, a,
                    static_cast<blasint>(lda), b, static_cast<blasint>(ldb), 0.0f, c,
                    static_cast<blasint>(ldc));
}

// OpenBLAS on one thread (our pool splits its products: openblas_forward.cpp
// says why), and its sgemm for the quantized products of many rows.
inline void use_openblas() {
  scipy_openblas_set_num_threads(1);
  set_sgemm(&openblas_sgemm_transposed_b);
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
