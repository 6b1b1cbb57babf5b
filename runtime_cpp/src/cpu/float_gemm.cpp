// The kernel: a register tile of up to 12 rows of A by 32 columns of op(B),
// 24 float32 accumulators. Each step of K loads the panel's 32 values (two
// vectors) and broadcasts each row's value of A into two FMAs, as the bf16
// GEMM does with pairs (half_matmul.cpp). op(B) is packed a panel of 32 columns
// by kDepth values of K at a time (a 16 x 16 transpose in registers where B is
// [N, K]), so a tile reads it as consecutive vectors; A is read where it lies.
#include "float_gemm.h"

#include <algorithm>
#include <vector>

#include "kernel_util.h"
#include "thread_pool.h"

namespace mlxd::cpu::MLXD_CPU_ISA {

#if defined(__AVX512F__)
namespace {
namespace float_gemm_kernel {

// Tiles of 12 rows by 32 columns: 24 accumulators, two vectors of B and one of A
// (27 of the 32 registers). 8 x 48 and 6 x 64 ran no faster, nor did panels of
// 512 values of K or A packed per tile (one thread, AMD EPYC, float-bench).
constexpr int kVectors = 2;            // vectors of a panel's row
constexpr int kPanel = 16 * kVectors;  // columns of C a tile covers
constexpr int kTileRows = 12;          // rows of A a tile covers
constexpr int64_t kDepth = 256;        // values of K a packed panel holds: 32 KB
// The most panels a task takes: a tile's rows of A, once loaded, serve them all.
constexpr int64_t kTaskPanels = 4;
// Multiply-adds below which a call runs on the calling thread alone.
constexpr int64_t kSharedWork = int64_t{1} << 20;

struct Problem {
  int64_t M, N, K;
  float alpha;
  const float* a;
  int64_t lda;
  const float* b;
  int64_t ldb;
  bool b_transposed;
  float beta;
  float* c;
  int64_t ldc;
};

// The first `valid` of a vector's 16 lanes (none where valid <= 0).
__mmask16 vector_mask(int valid) {
  return static_cast<__mmask16>((1u << std::clamp(valid, 0, 16)) - 1);
}

// Each vector's lanes of the panel of columns from n0 that lie short of N.
void panel_masks(const Problem& p, int64_t n0, __mmask16 (&masks)[kVectors]) {
  const int valid = static_cast<int>(std::min<int64_t>(kPanel, p.N - n0));
  for (int v = 0; v < kVectors; ++v) masks[v] = vector_mask(valid - 16 * v);
}

// Columns n0 .. n0 + kPanel of op(B), values k0 .. k0 + depth of K, as `depth`
// rows of kPanel (zeros past N).
void pack(const Problem& p, int64_t n0, int64_t k0, int64_t depth, float* panel) {
  if (!p.b_transposed) {  // B [K, N]: each row of the panel is part of a row of B
    __mmask16 masks[kVectors];
    panel_masks(p, n0, masks);
    for (int64_t k = 0; k < depth; ++k) {
      const float* row = p.b + (k0 + k) * p.ldb + n0;
      for (int v = 0; v < kVectors; ++v) {
        _mm512_store_ps(panel + k * kPanel + 16 * v, _mm512_maskz_loadu_ps(masks[v], row + 16 * v));
      }
    }
    return;
  }
  // B [N, K]: column n of op(B) is row n of B, 16 rows by 16 values transposed at once.
  for (int v = 0; v < kVectors; ++v) {
    const int64_t nh = n0 + v * 16;
    int64_t k = 0;
    if (nh + 16 <= p.N) {
      for (; k + 16 <= depth; k += 16) {
        __m512i r[16];
        for (int c = 0; c < 16; ++c) r[c] = _mm512_loadu_si512(p.b + (nh + c) * p.ldb + k0 + k);
        transpose16(r);
        for (int j = 0; j < 16; ++j) _mm512_store_si512(panel + (k + j) * kPanel + v * 16, r[j]);
      }
    }
    for (; k < depth; ++k) {
      for (int c = 0; c < 16; ++c) {
        panel[k * kPanel + v * 16 + c] = nh + c < p.N ? p.b[(nh + c) * p.ldb + k0 + k] : 0.0f;
      }
    }
  }
}

// Rows m0 .. m0 + MT of C, columns n0 .. n0 + kPanel (those short of N), from values
// k0 .. k0 + depth of K: set (alpha * sums + beta * C) where `first`, else added.
template <int MT>
void tile(const Problem& p, int64_t m0, int64_t n0, int64_t k0, int64_t depth, const float* panel,
          bool first) {
  __m512 acc[MT][kVectors];
#pragma GCC unroll 12
  for (int i = 0; i < MT; ++i)
#pragma GCC unroll 4
    for (int v = 0; v < kVectors; ++v) acc[i][v] = _mm512_setzero_ps();
  const float* rows[MT];
#pragma GCC unroll 12
  for (int i = 0; i < MT; ++i) rows[i] = p.a + (m0 + i) * p.lda + k0;
#pragma GCC unroll 2
  for (int64_t k = 0; k < depth; ++k) {
    __m512 bv[kVectors];
#pragma GCC unroll 4
    for (int v = 0; v < kVectors; ++v) bv[v] = _mm512_load_ps(panel + k * kPanel + 16 * v);
#pragma GCC unroll 12
    for (int i = 0; i < MT; ++i) {
      const __m512 a = _mm512_set1_ps(rows[i][k]);
#pragma GCC unroll 4
      for (int v = 0; v < kVectors; ++v) acc[i][v] = _mm512_fmadd_ps(a, bv[v], acc[i][v]);
    }
  }
  __mmask16 masks[kVectors];
  panel_masks(p, n0, masks);
  const __m512 alpha = _mm512_set1_ps(p.alpha), beta = _mm512_set1_ps(p.beta);
  for (int i = 0; i < MT; ++i) {
    float* out = p.c + (m0 + i) * p.ldc + n0;
    for (int h = 0; h < kVectors; ++h) {
      if (masks[h] == 0) break;
      __m512 v = _mm512_mul_ps(acc[i][h], alpha);
      if (!first) {
        v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(masks[h], out + 16 * h));
      } else if (p.beta != 0.0f) {  // C is not read where beta is 0 (it may hold NaN)
        v = _mm512_fmadd_ps(beta, _mm512_maskz_loadu_ps(masks[h], out + 16 * h), v);
      }
      _mm512_mask_storeu_ps(out + 16 * h, masks[h], v);
    }
  }
}

using Tile = void (*)(const Problem&, int64_t, int64_t, int64_t, int64_t, const float*, bool);
constexpr Tile kTiles[kTileRows + 1] = {nullptr,   &tile<1>,  &tile<2>, &tile<3>, &tile<4>,
                                        &tile<5>,  &tile<6>,  &tile<7>, &tile<8>, &tile<9>,
                                        &tile<10>, &tile<11>, &tile<12>};

// `panels` panels of columns from n0 (short of N) by rows [m_begin, m_end).
void task(const Problem& p, int64_t n0, int64_t panels, int64_t m_begin, int64_t m_end) {
  panels = std::min(panels, (p.N - n0 + kPanel - 1) / kPanel);
  const int64_t panel_size = kDepth * kPanel;
  thread_local std::vector<float> storage;
  float* packed = aligned_values(storage, panels * panel_size);
  for (int64_t k0 = 0; k0 < p.K; k0 += kDepth) {
    const int64_t depth = std::min(kDepth, p.K - k0);
    for (int64_t b = 0; b < panels; ++b)
      pack(p, n0 + b * kPanel, k0, depth, packed + b * panel_size);
    for (int64_t m0 = m_begin; m0 < m_end; m0 += kTileRows) {
      const Tile run = kTiles[std::min<int64_t>(kTileRows, m_end - m0)];
      for (int64_t b = 0; b < panels; ++b) {
        run(p, m0, n0 + b * kPanel, k0, depth, packed + b * panel_size, k0 == 0);
      }
    }
  }
}

// C = beta * C (zeros where beta is 0): a product over no values of K.
void scale(const Problem& p) {
  for (int64_t m = 0; m < p.M; ++m) {
    for (int64_t n = 0; n < p.N; ++n) {
      float& c = p.c[m * p.ldc + n];
      c = p.beta == 0.0f ? 0.0f : p.beta * c;
    }
  }
}

// Tasks of up to kTaskPanels panels (fewer where that leaves a thread idle), and
// of fewer rows where there are not two tasks a thread for the columns alone.
void run(const Problem& p) {
  if (p.K == 0) return scale(p);
  const int threads = mlxd::cpu::MLXD_CPU_ISA::threads();
  const int64_t panels = (p.N + kPanel - 1) / kPanel;
  if (threads <= 1 || p.M * p.N * p.K < kSharedWork) {
    task(p, 0, panels, 0, p.M);
    return;
  }
  const int64_t per_task = std::clamp<int64_t>(panels / (2 * threads), 1, kTaskPanels);
  const int64_t column_tasks = (panels + per_task - 1) / per_task;
  const int64_t tiles = (p.M + kTileRows - 1) / kTileRows;
  const int64_t row_tasks = std::clamp<int64_t>(2 * threads / column_tasks, 1, tiles);
  const int64_t rows_per = (tiles + row_tasks - 1) / row_tasks * kTileRows;
  parallel_for(static_cast<int>(column_tasks * row_tasks), [&](int t) {
    const int64_t m0 = (t / column_tasks) * rows_per;
    if (m0 >= p.M) return;
    task(p, (t % column_tasks) * per_task * kPanel, per_task, m0, std::min(p.M, m0 + rows_per));
  });
}

}  // namespace float_gemm_kernel
}  // namespace

bool float_gemm_here() { return true; }

bool float_gemm(int64_t M, int64_t N, int64_t K, float alpha, const float* a, int64_t lda,
                const float* b, int64_t ldb, bool b_transposed, float beta, float* c, int64_t ldc) {
  if (M <= 0 || N <= 0) return true;
  float_gemm_kernel::run({M, N, K, alpha, a, lda, b, ldb, b_transposed, beta, c, ldc});
  return true;
}
#else
bool float_gemm_here() { return false; }

bool float_gemm(int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t,
                bool, float, float*, int64_t) {
  return false;
}
#endif

}  // namespace mlxd::cpu::MLXD_CPU_ISA
