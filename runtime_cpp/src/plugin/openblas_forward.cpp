// CBLAS entry points for the libmlx-cpu-openblas implementation library.
//
// MLX's Linux wheel calls cblas_sgemm / cblas_dgemm / cblas_cgemm, which it
// resolves to the reference BLAS it ships. This library defines those
// symbols itself and forwards them to OpenBLAS from the scipy-openblas32
// wheel (whose symbols carry a `scipy_` prefix, so it cannot clash with any
// other BLAS in the process). The front loads this library with
// RTLD_DEEPBIND, so for the libmlx.so it brings in, these definitions come
// first in the lookup scope and win over the reference BLAS.
//
// A product with one row or one column (M == 1 or N == 1: a decode step's
// linear layers, a matrix-vector product) goes to gemv instead: OpenBLAS's
// sgemm packs both operands for blocking even then, and runs such shapes
// several times slower than its sgemv, which streams the matrix once.
//
// Threads: OpenBLAS runs single-threaded, and a large product is split into
// column (or row) blocks, one single-threaded OpenBLAS call each, over our CPU
// kernels' pool (src/cpu/thread_pool.h). Two pools of spinning workers on the
// same cores took turns stalling each other: OpenBLAS's workers spun while our
// kernels ran and ours while OpenBLAS's products did (a llama-like block at
// d=512 seq 128 on 2 cores: 11.6 ms as both pools, 8.9 with OpenBLAS on one
// thread, bench/profile_cpu.py).
//
// In the AVX-512 variant, products of kFloatGemmMinRows rows or more whose A
// is not transposed run our own AVX-512 GEMM instead (src/cpu/float_gemm.h says why).
//
// LAPACK (used by MLX's linalg routines) is left to MLX's own LAPACK.
#include <cblas.h>  // scipy_openblas32/include: scipy_cblas_* prototypes

#include <cstdint>

#include "float_gemm.h"
#include "openblas_sgemm.h"
#include "thread_pool.h"

#define MLXD_FORWARD_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

namespace kernels = mlxd::cpu::MLXD_CPU_ISA;

// Loaded after OpenBLAS (a dependency of this library), so its threads are set
// up: one, and its sgemm is the quantized products' (openblas_sgemm.h).
[[maybe_unused]] const bool openblas_set_up = [] {
  kernels::use_openblas();
  return true;
}();

template <typename T>
using Gemv = void (*)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, blasint, blasint, T, const T*,
                      blasint, const T*, blasint, T, T*, blasint);

// Row-major y = alpha op(A) x + beta y over the pool, y cut into blocks: rows of A
// (no transpose) or its columns (transposed).
template <typename T>
void parallel_gemv(Gemv<T> gemv, enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans, blasint rows,
                   blasint cols, T alpha, const T* a, blasint lda, const T* x, blasint incx, T beta,
                   T* y, blasint incy) {
  if (order != CblasRowMajor || kernels::threads() <= 1 ||
      double(rows) * cols < kernels::kSplitWork / 4) {
    gemv(order, trans, rows, cols, alpha, a, lda, x, incx, beta, y, incy);
  } else if (trans == CblasNoTrans) {
    kernels::split_over_pool(rows, 16, [&](blasint r0, blasint count) {
      gemv(order, trans, count, cols, alpha, a + static_cast<int64_t>(r0) * lda, lda, x, incx, beta,
           y + static_cast<int64_t>(r0) * incy, incy);
    });
  } else {
    kernels::split_over_pool(cols, 16, [&](blasint c0, blasint count) {
      gemv(order, trans, rows, count, alpha, a + c0, lda, x, incx, beta,
           y + static_cast<int64_t>(c0) * incy, incy);
    });
  }
}

// Row-major C[m, n] = alpha * op(A)[m, k] * op(B)[k, n] + beta * C as one gemv
// when m == 1 or n == 1; false (nothing done) otherwise. With m == 1 the row
// of C is op(B)^T times the row of op(A); with n == 1 the column of C is
// op(A) times the column of op(B). A vector's stride is 1 when it lies along
// its operand's rows in memory, and that operand's leading dimension when it
// lies across them.
template <typename T>
bool gemv_if_vector(Gemv<T> gemv, enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans_a,
                    enum CBLAS_TRANSPOSE trans_b, blasint m, blasint n, blasint k, T alpha,
                    const T* a, blasint lda, const T* b, blasint ldb, T beta, T* c, blasint ldc) {
  if (order != CblasRowMajor || k == 0 || (m != 1 && n != 1)) return false;
  if (beta == T(0)) {
    // gemm ignores C when beta is 0; gemv may scale it (0 * NaN is NaN), and
    // MLX hands over fresh, uninitialised memory.
    const blasint length = m == 1 ? n : m, stride = m == 1 ? 1 : ldc;
    for (blasint i = 0; i < length; ++i) c[i * stride] = T(0);
  }
  const bool a_transposed = trans_a != CblasNoTrans;
  const bool b_transposed = trans_b != CblasNoTrans;
  if (m == 1) {
    // B is stored [k, n] (or [n, k] when transposed): y[n] = B^T a.
    const blasint rows = b_transposed ? n : k, cols = b_transposed ? k : n;
    parallel_gemv(gemv, CblasRowMajor, b_transposed ? CblasNoTrans : CblasTrans, rows, cols, alpha,
                  b, ldb, a, a_transposed ? lda : 1, beta, c, 1);
  } else {
    // A is stored [m, k] (or [k, m] when transposed): y[m] = A b.
    const blasint rows = a_transposed ? k : m, cols = a_transposed ? m : k;
    parallel_gemv(gemv, CblasRowMajor, a_transposed ? CblasTrans : CblasNoTrans, rows, cols, alpha,
                  a, lda, b, b_transposed ? 1 : ldb, beta, c, ldc);
  }
  return true;
}

}  // namespace

MLXD_FORWARD_EXPORT void cblas_sgemm(const enum CBLAS_ORDER order,
                                     const enum CBLAS_TRANSPOSE trans_a,
                                     const enum CBLAS_TRANSPOSE trans_b, const blasint m,
                                     const blasint n, const blasint k, const float alpha,
                                     const float* a, const blasint lda, const float* b,
                                     const blasint ldb, const float beta, float* c,
                                     const blasint ldc) {
  if (gemv_if_vector<float>(scipy_cblas_sgemv, order, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                            ldb, beta, c, ldc)) {
    return;
  }
  if (order == CblasRowMajor && trans_a == CblasNoTrans && m >= kernels::kFloatGemmMinRows &&
      kernels::float_gemm(m, n, k, alpha, a, lda, b, ldb, trans_b != CblasNoTrans, beta, c, ldc)) {
    return;
  }
  kernels::parallel_gemm<float>(scipy_cblas_sgemm, order, trans_a, trans_b, m, n, k, alpha, a, lda,
                                b, ldb, beta, c, ldc);
}

MLXD_FORWARD_EXPORT void cblas_dgemm(const enum CBLAS_ORDER order,
                                     const enum CBLAS_TRANSPOSE trans_a,
                                     const enum CBLAS_TRANSPOSE trans_b, const blasint m,
                                     const blasint n, const blasint k, const double alpha,
                                     const double* a, const blasint lda, const double* b,
                                     const blasint ldb, const double beta, double* c,
                                     const blasint ldc) {
  if (!gemv_if_vector<double>(scipy_cblas_dgemv, order, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                              ldb, beta, c, ldc))
    kernels::parallel_gemm<double>(scipy_cblas_dgemm, order, trans_a, trans_b, m, n, k, alpha, a,
                                   lda, b, ldb, beta, c, ldc);
}

MLXD_FORWARD_EXPORT void cblas_cgemm(const enum CBLAS_ORDER order,
                                     const enum CBLAS_TRANSPOSE trans_a,
                                     const enum CBLAS_TRANSPOSE trans_b, const blasint m,
                                     const blasint n, const blasint k, const void* alpha,
                                     const void* a, const blasint lda, const void* b,
                                     const blasint ldb, const void* beta, void* c,
                                     const blasint ldc) {
  scipy_cblas_cgemm(order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
