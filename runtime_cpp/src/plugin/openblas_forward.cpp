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
// LAPACK (used by MLX's linalg routines) is left to MLX's own LAPACK.
#include <cblas.h>  // scipy_openblas32/include: scipy_cblas_* prototypes

#define MLXD_FORWARD_EXPORT extern "C" __attribute__((visibility("default")))

MLXD_FORWARD_EXPORT void cblas_sgemm(const enum CBLAS_ORDER order,
                                     const enum CBLAS_TRANSPOSE trans_a,
                                     const enum CBLAS_TRANSPOSE trans_b, const blasint m,
                                     const blasint n, const blasint k, const float alpha,
                                     const float* a, const blasint lda, const float* b,
                                     const blasint ldb, const float beta, float* c,
                                     const blasint ldc) {
  scipy_cblas_sgemm(order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

MLXD_FORWARD_EXPORT void cblas_dgemm(const enum CBLAS_ORDER order,
                                     const enum CBLAS_TRANSPOSE trans_a,
                                     const enum CBLAS_TRANSPOSE trans_b, const blasint m,
                                     const blasint n, const blasint k, const double alpha,
                                     const double* a, const blasint lda, const double* b,
                                     const blasint ldb, const double beta, double* c,
                                     const blasint ldc) {
  scipy_cblas_dgemm(order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
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
