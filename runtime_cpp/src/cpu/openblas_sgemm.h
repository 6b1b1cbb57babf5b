// OpenBLAS (the scipy-openblas32 wheel's, symbols prefixed scipy_) as the CPU
// kernels' BLAS: for the plugins that carry it (src/plugin/openblas_forward.cpp)
// and the kernel check tool. Include only where cblas.h is OpenBLAS's.
#pragma once

#include <cblas.h>

#include <algorithm>
#include <cstdint>

#include "quantized_matmul.h"
#include "thread_pool.h"

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

// Products with fewer multiply-adds run on the calling thread alone.
inline constexpr double kSplitWork = 1 << 18;

// [0, length) in one block per thread, each a multiple of `align`; f(begin, count).
template <typename F>
void split_over_pool(blasint length, blasint align, F f) {
  const int tasks = threads();
  const blasint per = ((length + tasks - 1) / tasks + align - 1) / align * align;
  parallel_for(tasks, [&](int t) {
    const blasint begin = static_cast<blasint>(t) * per;
    if (begin < length) f(begin, std::min(per, length - begin));
  });
}

template <typename T>
using Gemm = void (*)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, blasint,
                      blasint, blasint, T, const T*, blasint, const T*, blasint, T, T*, blasint);

// Row-major C = alpha op(A) op(B) + beta C over the pool: C's longer side cut into
// blocks (columns: the matching columns of op(B); rows: the rows of op(A)), a
// single-threaded `gemm` call each (openblas_forward.cpp's products, and the
// kernel check tool's OpenBLAS timed as those run it).
template <typename T>
void parallel_gemm(Gemm<T> gemm, enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans_a,
                   enum CBLAS_TRANSPOSE trans_b, blasint m, blasint n, blasint k, T alpha,
                   const T* a, blasint lda, const T* b, blasint ldb, T beta, T* c, blasint ldc) {
  if (order != CblasRowMajor || threads() <= 1 || double(m) * n * k < kSplitWork) {
    gemm(order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  } else if (n >= m) {
    split_over_pool(n, 16, [&](blasint n0, blasint count) {
      const T* block = trans_b == CblasNoTrans ? b + n0 : b + static_cast<int64_t>(n0) * ldb;
      gemm(order, trans_a, trans_b, m, count, k, alpha, a, lda, block, ldb, beta, c + n0, ldc);
    });
  } else {
    split_over_pool(m, 4, [&](blasint m0, blasint count) {
      const T* block = trans_a == CblasNoTrans ? a + static_cast<int64_t>(m0) * lda : a + m0;
      gemm(order, trans_a, trans_b, count, n, k, alpha, block, lda, b, ldb, beta,
           c + static_cast<int64_t>(m0) * ldc, ldc);
    });
  }
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
