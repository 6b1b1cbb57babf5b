// The kernel: a tile of MT rows of x and NT rows of w shares each loaded
// vector of either. Two ways through a tile (HalfPath): activations converted to
// float32 once per call and weights widened per vector (every weight and
// activation dtype), or, bfloat16 by bfloat16 on a processor with AVX-512 BF16,
// both kept in bfloat16 and multiplied in pairs by vdpbf16ps. Two more for
// bfloat16 by bfloat16 with many rows: on a processor with AMX, the products of
// 16 x 32 tiles of x by 32 x 16 tiles of w in the tile registers (amx below);
// without it, vdpbf16ps on register tiles of 12 rows of x by 32 of w (gemm below).
#include "half_matmul.h"

#include <mlx/backend/cpu/encoder.h>
#include <mlx/primitives.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "amx.h"
#include "cpu_features.h"
#include "kernel_util.h"
#include "thread_pool.h"

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

struct HalfProblem {
  const float* x;        // [M, K] float32 (the widened path)
  const uint16_t* x_bf;  // [M, K] bfloat16 (the bf16 dot path)
  const uint16_t* w;     // [N, K]
  Elt w_elt;
  const float* bias;  // [N] float32, or nullptr
  void* out;          // [M, N]
  Elt out_elt;
  int64_t M, N, K;
};

// Each weight vector widened to float32 (exact), multiplied into float32 rows.
struct Widened {
  template <int MT, int NT>
  static void tile(const HalfProblem& p, int64_t m0, int64_t n0);
};

template <int MT, int NT>
void Widened::tile(const HalfProblem& p, int64_t m0, int64_t n0) {
  const uint16_t* wr[NT];
#pragma GCC unroll 8
  for (int j = 0; j < NT; ++j) wr[j] = p.w + (n0 + j) * p.K;
  const float* xr[MT];
#pragma GCC unroll 8
  for (int i = 0; i < MT; ++i) xr[i] = p.x + (m0 + i) * p.K;
  V::T acc[MT][NT];
#pragma GCC unroll 8
  for (int i = 0; i < MT; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < NT; ++j) acc[i][j] = V::zero();
  int64_t k = 0;
  for (; k + V::W <= p.K; k += V::W) {
#pragma GCC unroll 8
    for (int j = 0; j < NT; ++j) {
      V::T wv = load_half(wr[j] + k, p.w_elt);
#pragma GCC unroll 8
      for (int i = 0; i < MT; ++i) acc[i][j] = V::fma(wv, V::load(xr[i] + k), acc[i][j]);
    }
  }
  for (int i = 0; i < MT; ++i) {
    for (int j = 0; j < NT; ++j) {
      float y = V::sum(acc[i][j]);
      for (int64_t t = k; t < p.K; ++t) y += load_elt(wr[j], t, p.w_elt) * xr[i][t];
      if (p.bias) y += p.bias[n0 + j];
      store_elt(p.out, (m0 + i) * p.N + n0 + j, p.out_elt, y);
    }
  }
}

#if defined(__AVX512F__)
// bfloat16 by bfloat16: vdpbf16ps multiplies 32 pairs of bfloat16 and adds each
// lane's two products to 16 float32 sums, without widening either operand. The
// last K % 32 values come through masked loads (zeros beyond K add nothing).
// The instruction rounds to nearest even and reads and writes subnormals as
// zero, whatever MXCSR says. The variant's flags are x86-64-v4, which has no
// BF16: only this function may use it, and only where the processor has it
// (bf16_dot_here).
struct Bf16Dot {
  template <int MT, int NT>
  __attribute__((target("avx512bf16"))) static void tile(const HalfProblem& p, int64_t m0,
                                                         int64_t n0);
};

// 32 values from k (those `mask` keeps) of each row of x and of w, into acc.
template <int MT, int NT>
__attribute__((target("avx512bf16"), always_inline)) inline void bf16_dot_step(
    const uint16_t* const* xr, const uint16_t* const* wr, int64_t k, __mmask32 mask,
    __m512 (&acc)[MT][NT]) {
  __m512bh xv[MT];
#pragma GCC unroll 8
  for (int i = 0; i < MT; ++i) xv[i] = (__m512bh)_mm512_maskz_loadu_epi16(mask, xr[i] + k);
#pragma GCC unroll 8
  for (int j = 0; j < NT; ++j) {
    __m512bh wv = (__m512bh)_mm512_maskz_loadu_epi16(mask, wr[j] + k);
#pragma GCC unroll 8
    for (int i = 0; i < MT; ++i) acc[i][j] = _mm512_dpbf16_ps(acc[i][j], wv, xv[i]);
  }
}

template <int MT, int NT>
__attribute__((target("avx512bf16"))) void Bf16Dot::tile(const HalfProblem& p, int64_t m0,
                                                         int64_t n0) {
  constexpr int kPairs = 32;  // bfloat16 values a vector
  const uint16_t* wr[NT];
#pragma GCC unroll 8
  for (int j = 0; j < NT; ++j) wr[j] = p.w + (n0 + j) * p.K;
  const uint16_t* xr[MT];
#pragma GCC unroll 8
  for (int i = 0; i < MT; ++i) xr[i] = p.x_bf + (m0 + i) * p.K;
  __m512 acc[MT][NT];
#pragma GCC unroll 8
  for (int i = 0; i < MT; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < NT; ++j) acc[i][j] = _mm512_setzero_ps();
  int64_t k = 0;
  for (; k + kPairs <= p.K; k += kPairs) bf16_dot_step<MT, NT>(xr, wr, k, ~__mmask32{0}, acc);
  if (k < p.K) {
    auto tail = static_cast<__mmask32>((uint64_t{1} << (p.K - k)) - 1);
    bf16_dot_step<MT, NT>(xr, wr, k, tail, acc);
  }
  for (int i = 0; i < MT; ++i) {
    for (int j = 0; j < NT; ++j) {
      const float y = V::sum(acc[i][j]) + (p.bias ? p.bias[n0 + j] : 0.0f);
      store_elt(p.out, (m0 + i) * p.N + n0 + j, p.out_elt, y);
    }
  }
}
#endif

#if defined(__AVX512F__)
// AMX (amx.h): x's rows are the A tiles, w's rows the B tiles' columns, laid
// out in pairs: tile row r, column c holds w[c][2r] and w[c][2r + 1]. A task
// is up to four blocks of 32 rows of w: it lays them out so once (kPackedTile
// a tile, all of K), then runs every 32 rows of x by each block, four
// accumulating tiles (2 x 2) per step of 32 values of K. x is copied once a
// call into tiles (K padded to 32 with zeros, M to 32 rows), so that every
// tile load is whole; a task's columns past N are zeros, its stores masked.
// Tiles 0-3 accumulate, 4-5 hold x, 6-7 hold w.
namespace amx {

constexpr int kBlock = 32;               // rows of x and of w a task's step covers: 2 tiles each
constexpr int kPackedTile = kRows * kK;  // bfloat16 values of a laid-out tile of w

// Rows n0 .. n0 + kBlock of w laid out as the tiles want them: for each step of
// 32 values of K, two tiles (rows n0 .. n0+15, then n0+16 .. n0+31). A tile of
// 16 whole rows is their 32 values each, a pair of values one 32-bit value,
// transposed in registers (a dword gather a tile row took twice the time of
// the GEMM's products here, on an AMD EPYC); a tile at the edges is copied
// value by value, with zeros past N and K.
void lay_out(const HalfProblem& p, int64_t n0, int64_t Kp, uint16_t* out) {
  for (int64_t k0 = 0; k0 < Kp; k0 += kK) {
    for (int half = 0; half < 2; ++half) {
      const int64_t nh = n0 + half * kRows;
      uint16_t* tile = out + ((k0 / kK) * 2 + half) * kPackedTile;
      if (nh + kRows <= p.N && k0 + kK <= p.K) {
        __m512i r[kRows];
        for (int c = 0; c < kRows; ++c) r[c] = _mm512_loadu_si512(p.w + (nh + c) * p.K + k0);
        transpose16(r);  // tile row j: the pair (k0 + 2j, k0 + 2j + 1) of the 16 rows
        for (int j = 0; j < kRows; ++j) _mm512_storeu_si512(tile + j * kK, r[j]);
        continue;
      }
      for (int r = 0; r < kRows; ++r) {
        for (int c = 0; c < kRows; ++c) {
          for (int e = 0; e < 2; ++e) {
            const int64_t n = nh + c, k = k0 + 2 * r + e;
            tile[r * kK + 2 * c + e] = n < p.N && k < p.K ? p.w[n * p.K + k] : 0;
          }
        }
      }
    }
  }
}

// A row of 32 float32 sums plus the bias's 32 values from `bias` (nullptr:
// none) into the output (its first `valid` columns).
__attribute__((target("avx512bf16"))) void store_row(const float* sums, const float* bias,
                                                     void* out, Elt e, int valid) {
  for (int h = 0; h < 2; ++h) {
    const int n = std::min(kRows, valid - h * kRows);
    if (n <= 0) return;
    const __mmask16 mask = static_cast<__mmask16>((1u << n) - 1);
    __m512 v = _mm512_loadu_ps(sums + h * kRows);
    if (bias) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, bias + h * kRows));
    if (e == Elt::f32) {
      _mm512_mask_storeu_ps(static_cast<float*>(out) + h * kRows, mask, v);
    } else if (e == Elt::bf16) {
      _mm256_mask_storeu_epi16(static_cast<uint16_t*>(out) + h * kRows, mask,
                               (__m256i)_mm512_cvtneps_pbh(v));
    } else {
      _mm256_mask_storeu_epi16(static_cast<uint16_t*>(out) + h * kRows, mask,
                               _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
    }
  }
}

// The most blocks of kBlock rows of w a task takes (the bf16 GEMM's too): rows
// of x, once loaded into the cache, serve all of them (AMX: from one x tile
// stream per block of w, 1500 rows by 3072 x 768 went from 11-13 ms to 6-10 on
// two threads).
constexpr int64_t kTaskBlocks = 4;

// One task: `blocks` blocks of w from row n0 (short of N) by every row of x.
// x comes as tiles (tiles_as_bf16 says where), each 16 rows of 32 values in
// 1 KB, so that a tile load reads 16 whole consecutive cache lines.
__attribute__((target("amx-tile,amx-bf16,avx512bf16"))) void task(const HalfProblem& p, int64_t n0,
                                                                  int64_t blocks, int64_t Mp,
                                                                  int64_t Kp) {
  blocks = std::min(blocks, (p.N - n0 + kBlock - 1) / kBlock);
  const int64_t block_size = Kp / kK * 2 * kPackedTile, k_tiles = Kp / kK;
  thread_local std::vector<uint16_t> storage;
  uint16_t* laid = aligned_values(storage, blocks * block_size);
  for (int64_t b = 0; b < blocks; ++b) lay_out(p, n0 + b * kBlock, Kp, laid + b * block_size);
  configure_tiles();
  alignas(64) float sums[kBlock * kBlock];
  const size_t out_size = p.out_elt == Elt::f32 ? 4 : 2;
  for (int64_t m0 = 0; m0 < Mp; m0 += kBlock) {
    const uint16_t* x0 = p.x_bf + (m0 / kRows) * k_tiles * kPackedTile;
    const uint16_t* x1 = x0 + k_tiles * kPackedTile;
    const int64_t rows = std::min<int64_t>(kBlock, p.M - m0);
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t nb = n0 + b * kBlock;
      const uint16_t* w0 = laid + b * block_size;
      _tile_zero(0);
      _tile_zero(1);
      _tile_zero(2);
      _tile_zero(3);
      for (int64_t k = 0; k < k_tiles; ++k) {
        _tile_loadd(4, x0 + k * kPackedTile, 64);
        _tile_loadd(5, x1 + k * kPackedTile, 64);
        _tile_loadd(6, w0 + 2 * k * kPackedTile, 64);
        _tile_loadd(7, w0 + (2 * k + 1) * kPackedTile, 64);
        _tile_dpbf16ps(0, 4, 6);
        _tile_dpbf16ps(1, 4, 7);
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
      }
      _tile_stored(0, sums, kBlock * 4);
      _tile_stored(1, sums + kRows, kBlock * 4);
      _tile_stored(2, sums + kRows * kBlock, kBlock * 4);
      _tile_stored(3, sums + kRows * kBlock + kRows, kBlock * 4);
      const int valid = static_cast<int>(std::min<int64_t>(kBlock, p.N - nb));
      for (int64_t i = 0; i < rows; ++i) {
        char* out = static_cast<char*>(p.out) + ((m0 + i) * p.N + nb) * out_size;
        store_row(sums + i * kBlock, p.bias ? p.bias + nb : nullptr, out, p.out_elt, valid);
      }
    }
  }
  _tile_release();
}

}  // namespace amx

// bfloat16 by bfloat16 with many rows on AVX-512 BF16 without AMX: a register
// tile of up to kTileRows rows of x by 32 rows of w. Each step takes one pair of
// K values: w's 32 pairs as two vectors (w laid out as AMX's B tiles are,
// amx::lay_out: a tile row holds one pair of K values of 16 rows of w), and each row's pair
// of x broadcast, into 2 x kTileRows vdpbf16ps on as many float32 accumulators,
// which stay in registers until the tile is stored: no horizontal sums and one
// load of x per 32 products, where the bf16 dot's tiles (4 x 2 rows, each step
// 32 values of one row pair) sum each vector across at the end and load six
// vectors for eight instructions.
namespace gemm {

constexpr int kTileRows = 12;            // 24 accumulators, two vectors of w and one of x: 27 of 32
constexpr int64_t kBlock = amx::kBlock;  // rows of w a tile covers (32)

// Rows m0 .. m0 + MT of x (bfloat16, rows of Kp values, zeros past K) by the
// block of w laid out at `laid`, stored to out's columns nb .. nb + valid.
template <int MT>
__attribute__((target("avx512bf16"))) void tile(const HalfProblem& p, const uint16_t* x, int64_t Kp,
                                                int64_t m0, const uint16_t* laid, int64_t nb,
                                                int valid) {
  __m512 acc[MT][2];
#pragma GCC unroll 12
  for (int i = 0; i < MT; ++i) acc[i][0] = acc[i][1] = _mm512_setzero_ps();
  const int32_t* rows[MT];  // a pair of bfloat16 values read as one 32-bit word
#pragma GCC unroll 12
  for (int i = 0; i < MT; ++i) rows[i] = reinterpret_cast<const int32_t*>(x + (m0 + i) * Kp);
  for (int64_t step = 0; step < Kp / amx::kK; ++step) {
    const uint16_t* w0 = laid + 2 * step * amx::kPackedTile;
    const int64_t pair0 = step * amx::kRows;
#pragma GCC unroll 16
    for (int r = 0; r < amx::kRows; ++r) {
      const __m512bh b0 = (__m512bh)_mm512_load_si512(w0 + r * amx::kK);
      const __m512bh b1 = (__m512bh)_mm512_load_si512(w0 + amx::kPackedTile + r * amx::kK);
#pragma GCC unroll 12
      for (int i = 0; i < MT; ++i) {
        const __m512bh a = (__m512bh)_mm512_set1_epi32(rows[i][pair0 + r]);
        acc[i][0] = _mm512_dpbf16_ps(acc[i][0], a, b0);
        acc[i][1] = _mm512_dpbf16_ps(acc[i][1], a, b1);
      }
    }
  }
  const size_t out_size = p.out_elt == Elt::f32 ? 4 : 2;
  alignas(64) float sums[kBlock];
  for (int i = 0; i < MT; ++i) {
    _mm512_store_ps(sums, acc[i][0]);
    _mm512_store_ps(sums + amx::kRows, acc[i][1]);
    char* out = static_cast<char*>(p.out) + ((m0 + i) * p.N + nb) * out_size;
    amx::store_row(sums, p.bias ? p.bias + nb : nullptr, out, p.out_elt, valid);
  }
}

using Tile = void (*)(const HalfProblem&, const uint16_t*, int64_t, int64_t, const uint16_t*,
                      int64_t, int);
constexpr Tile kTiles[kTileRows + 1] = {nullptr,   &tile<1>,  &tile<2>, &tile<3>, &tile<4>,
                                        &tile<5>,  &tile<6>,  &tile<7>, &tile<8>, &tile<9>,
                                        &tile<10>, &tile<11>, &tile<12>};

// One task: `blocks` blocks of w from row n0 (short of N) by every row of x.
void task(const HalfProblem& p, const uint16_t* x, int64_t Kp, int64_t n0, int64_t blocks) {
  blocks = std::min(blocks, (p.N - n0 + kBlock - 1) / kBlock);
  const int64_t block_size = Kp / amx::kK * 2 * amx::kPackedTile;
  thread_local std::vector<uint16_t> storage;
  uint16_t* laid = aligned_values(storage, blocks * block_size);
  for (int64_t b = 0; b < blocks; ++b) amx::lay_out(p, n0 + b * kBlock, Kp, laid + b * block_size);
  for (int64_t m0 = 0; m0 < p.M; m0 += kTileRows) {
    const Tile run = kTiles[std::min<int64_t>(kTileRows, p.M - m0)];
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t nb = n0 + b * kBlock;
      run(p, x, Kp, m0, laid + b * block_size, nb, static_cast<int>(std::min(kBlock, p.N - nb)));
    }
  }
}

}  // namespace gemm
#endif

// Rows [m_begin, m_end) of x against weight rows n0 .. n0+NT.
template <typename Path, int NT>
void half_rows(const HalfProblem& p, int64_t n0, int64_t m_begin, int64_t m_end) {
  int64_t m = m_begin;
  for (; m + 4 <= m_end; m += 4) Path::template tile<4, NT>(p, m, n0);
  switch (m_end - m) {
    case 3:
      Path::template tile<3, NT>(p, m, n0);
      break;
    case 2:
      Path::template tile<2, NT>(p, m, n0);
      break;
    case 1:
      Path::template tile<1, NT>(p, m, n0);
      break;
    default:
      break;
  }
}

// Rows of x per pass over a task's weight rows: a pass's activations (16 rows
// of float32) stay in the cache while the weight rows stream by.
constexpr int64_t kRowsPerPass = 16;

template <typename Path>
void half_columns(const HalfProblem& p, int64_t n_begin, int64_t n_end) {
  const int nt = p.M == 1 ? 4 : kWideNT;
  for (int64_t m0 = 0; m0 < p.M; m0 += kRowsPerPass) {
    const int64_t m1 = std::min(p.M, m0 + kRowsPerPass);
    int64_t n = n_begin;
    for (; n + nt <= n_end; n += nt) {
      if (nt == 4) {  // p.M == 1: the one-row tile alone (as in quantized_matmul.cpp)
        Path::template tile<1, 4>(p, m0, n);
      } else if (nt == 2) {
        half_rows<Path, 2>(p, n, m0, m1);
      } else {
        half_rows<Path, 1>(p, n, m0, m1);
      }
    }
    for (; n < n_end; ++n) half_rows<Path, 1>(p, n, m0, m1);
  }
}

template <typename Path>
void half_run(const HalfProblem& p) {
  const int threads = mlxd::cpu::MLXD_CPU_ISA::threads();
  if (threads <= 1 || p.M * p.N * p.K < (1 << 16) || p.N < 16) {
    half_columns<Path>(p, 0, p.N);
    return;
  }
  const int64_t chunks = std::min<int64_t>(threads * 4, (p.N + 7) / 8);
  const int64_t per = ((p.N + chunks - 1) / chunks + 7) / 8 * 8;
  const int tasks = static_cast<int>((p.N + per - 1) / per);
  parallel_for(tasks, [&](int t) {
    int64_t begin = t * per;
    half_columns<Path>(p, begin, std::min(p.N, begin + per));
  });
}

// x as float32 rows [M, K].
void rows_as_float(const mx::array& x, Elt e, int64_t M, int64_t K, float* out) {
  const int64_t k_stride = x.strides().back();
  for (int64_t m = 0; m < M; ++m) {
    const void* row = row_of(x, m);
    for (int64_t k = 0; k < K; ++k) out[m * K + k] = load_elt(row, k * k_stride, e);
  }
}

// Whether this processor runs vdpbf16ps: its report or MLX_DELEGATE_CPU_FEATURES
// (a test turns the path off; it cannot turn on what the processor lacks).
bool bf16_dot_here() {
#if defined(__AVX512F__)
  static const bool here = current_features().avx512bf16 && processor_features().avx512bf16;
  return here;
#else
  return false;  // the portable and AVX2 variants keep one path
#endif
}

bool bf16_dot_takes(const mx::array& x, const mx::array& w) {
  return x.dtype() == mx::bfloat16 && w.dtype() == mx::bfloat16 && bf16_dot_here();
}

int64_t rows_of(const mx::array& x) {
  const int64_t K = x.shape(-1);
  return K == 0 ? 0 : static_cast<int64_t>(x.size()) / K;
}

bool amx_takes(const mx::array& x, const mx::array& w) {
  return x.dtype() == mx::bfloat16 && w.dtype() == mx::bfloat16 && rows_of(x) >= kAmxMinRows &&
         amx_here();
}

bool bf16_gemm_takes(const mx::array& x, const mx::array& w) {
  return bf16_dot_takes(x, w) && rows_of(x) >= kBf16GemmMinRows;
}

// x widened to float32 (thread_local: one buffer a thread, reused), then the tiles.
void run_widened(const mx::array& x, HalfProblem p) {
  Elt x_elt;
  elt_of(x.dtype(), &x_elt);
  thread_local std::vector<float> xf;
  xf.resize(static_cast<size_t>(p.M * p.K));
  rows_as_float(x, x_elt, p.M, p.K, xf.data());
  p.x = xf.data();
  half_run<Widened>(p);
}

#if defined(__AVX512F__)
// Rows [m_begin, m_end) of x, bfloat16, as bfloat16 rows of `row_size` values
// from out (the bits as they are; zeros past K).
void rows_as_bf16(const mx::array& x, int64_t m_begin, int64_t m_end, int64_t K, int64_t row_size,
                  uint16_t* out) {
  const int64_t k_stride = x.strides().back();
  for (int64_t m = m_begin; m < m_end; ++m) {
    const uint16_t* row = static_cast<const uint16_t*>(row_of(x, m));
    uint16_t* to = out + m * row_size;
    std::fill(to + K, to + row_size, uint16_t{0});
    if (k_stride == 1) {
      std::memcpy(to, row, static_cast<size_t>(K) * 2);
      continue;
    }
    for (int64_t k = 0; k < K; ++k) to[k] = row[k * k_stride];
  }
}

void run_bf16_dot(const mx::array& x, HalfProblem p) {
  thread_local std::vector<uint16_t> xb;
  xb.resize(static_cast<size_t>(p.M * p.K));
  rows_as_bf16(x, 0, p.M, p.K, p.K, xb.data());
  p.x_bf = xb.data();
  half_run<Bf16Dot>(p);
}

// Rows [m_begin, m_end) of x, bfloat16, as AMX's A tiles: rows m0 .. m0 + 15 by
// values k0 .. k0 + 31 in the 1 KB from ((m0 / 16) * (Kp / 32) + k0 / 32) * 512;
// zeros past K, and rows past M (up to a multiple of kBlock) all zeros.
void tiles_as_bf16(const mx::array& x, int64_t m_begin, int64_t m_end, int64_t K, int64_t Kp,
                   uint16_t* out) {
  const int64_t M = rows_of(x), k_stride = x.strides().back(), k_tiles = Kp / amx::kK;
  for (int64_t m = m_begin; m < m_end; ++m) {
    const uint16_t* row = m < M ? static_cast<const uint16_t*>(row_of(x, m)) : nullptr;
    uint16_t* to = out + (m / amx::kRows) * k_tiles * amx::kPackedTile + (m % amx::kRows) * amx::kK;
    for (int64_t k0 = 0; k0 < Kp; k0 += amx::kK) {
      uint16_t* tile_row = to + (k0 / amx::kK) * amx::kPackedTile;
      const int64_t n = row ? std::clamp<int64_t>(K - k0, 0, amx::kK) : 0;
      if (k_stride == 1) {
        std::memcpy(tile_row, row + k0, static_cast<size_t>(n) * 2);
      } else {
        for (int64_t k = 0; k < n; ++k) tile_row[k] = row[(k0 + k) * k_stride];
      }
      std::fill(tile_row + n, tile_row + amx::kK, uint16_t{0});
    }
  }
}

// Multiply-adds below which a call of the AMX path or the bf16 GEMM runs on the
// calling thread alone (about 10 us of tiles): waking the pool would cost more,
// and its workers spin after.
constexpr int64_t kTilesSharedWork = int64_t{1} << 22;

// The AMX path's and the bf16 GEMM's work: x's copy, copy(begin, end) over its
// `rows` rows (cut at multiples of `align`), then task(n0, blocks) for every
// amx::kTaskBlocks blocks of 32 rows of w (fewer where that leaves a thread
// idle). Both over the pool, x's copy too (a window's 1500 rows: megabytes,
// which one thread copied while the others waited), unless the product is small.
template <typename Copy, typename Task>
void copy_x_then_blocks_of_w(const HalfProblem& p, int64_t rows, int64_t align, Copy copy,
                             Task task) {
  const int64_t blocks = (p.N + amx::kBlock - 1) / amx::kBlock;
  const int64_t per_task = std::clamp<int64_t>(blocks / (2 * threads()), 1, amx::kTaskBlocks);
  const int tasks = static_cast<int>((blocks + per_task - 1) / per_task);
  auto run = [&](int t) { task(t * per_task * amx::kBlock, per_task); };
  if (threads() <= 1 || tasks < 2 || p.M * p.N * p.K < kTilesSharedWork) {
    copy(0, rows);
    for (int t = 0; t < tasks; ++t) run(t);
    return;
  }
  const int64_t per_copy = ((rows + align - 1) / align + threads() - 1) / threads() * align;
  parallel_for(threads(), [&](int t) {
    const int64_t begin = std::min(rows, t * per_copy);
    copy(begin, std::min(rows, begin + per_copy));
  });
  parallel_for(tasks, run);
}

// x copied into zero-padded tiles (amx:: says why), in blocks of whole tiles.
void run_amx(const mx::array& x, HalfProblem p) {
  const int64_t Mp = (p.M + amx::kBlock - 1) / amx::kBlock * amx::kBlock;
  const int64_t Kp = (p.K + amx::kK - 1) / amx::kK * amx::kK;
  thread_local std::vector<uint16_t> storage;
  uint16_t* xb = aligned_values(storage, Mp * Kp);
  p.x_bf = xb;
  copy_x_then_blocks_of_w(
      p, Mp, amx::kRows,
      [&](int64_t begin, int64_t end) { tiles_as_bf16(x, begin, end, p.K, Kp, xb); },
      [&](int64_t n0, int64_t blocks) { amx::task(p, n0, blocks, Mp, Kp); });
}

// x copied into rows of whole steps of 32 values.
void run_bf16_gemm(const mx::array& x, HalfProblem p) {
  const int64_t Kp = (p.K + amx::kK - 1) / amx::kK * amx::kK;
  thread_local std::vector<uint16_t> storage;
  uint16_t* xb = aligned_values(storage, p.M * Kp);
  p.x_bf = xb;
  copy_x_then_blocks_of_w(
      p, p.M, 1, [&](int64_t begin, int64_t end) { rows_as_bf16(x, begin, end, p.K, Kp, xb); },
      [&](int64_t n0, int64_t blocks) { gemm::task(p, xb, Kp, n0, blocks); });
}
#endif

class HalfMatmulCpu : public mx::UnaryPrimitive {
 public:
  HalfMatmulCpu(mx::Stream stream, HalfPath path) : mx::UnaryPrimitive(stream), path_(path) {}

  void eval_cpu(const std::vector<mx::array>& inputs, mx::array& out) override {
    const mx::array& x = inputs[0];
    const mx::array& w = inputs[1];
    if (!w.flags().row_contiguous) {
      throw std::runtime_error("mlxd half_matmul: weight not contiguous");
    }
    out.set_data(mx::allocator::malloc(out.nbytes()));
    auto& encoder = mx::cpu::get_command_encoder(stream());
    for (const mx::array& in : inputs) encoder.set_input_array(in);
    encoder.set_output_array(out);
    std::optional<mx::array> bias;
    if (inputs.size() > 2) bias = mx::array::unsafe_weak_copy(inputs[2]);
    encoder.dispatch([x = mx::array::unsafe_weak_copy(x), w = mx::array::unsafe_weak_copy(w),
                      bias = std::move(bias), out = mx::array::unsafe_weak_copy(out),
                      path = path_]() mutable {
      HalfProblem p{};
      thread_local std::vector<float> bias_values;
      if (bias) {
        Elt bias_elt;
        elt_of(bias->dtype(), &bias_elt);
        bias_values.resize(bias->size());
        const int64_t step = bias->strides()[0];
        for (size_t n = 0; n < bias_values.size(); ++n) {
          bias_values[n] = load_elt(bias->data<void>(), static_cast<int64_t>(n) * step, bias_elt);
        }
        p.bias = bias_values.data();
      }
      elt_of(w.dtype(), &p.w_elt);
      elt_of(out.dtype(), &p.out_elt);
      p.K = x.shape(-1);
      p.M = rows_of(x);
      p.N = w.shape(0);
      if (p.M == 0 || p.N == 0) return;
      if (p.K == 0) {
        for (int64_t i = 0; i < p.M * p.N; ++i) {
          store_elt(out.data<void>(), i, p.out_elt, p.bias ? p.bias[i % p.N] : 0.0f);
        }
        return;
      }
      p.w = w.data<uint16_t>();
      p.out = out.data<void>();
#if defined(__AVX512F__)
      if (path == HalfPath::amx) return run_amx(x, p);
      if (path == HalfPath::bf16_gemm) return run_bf16_gemm(x, p);
      if (path == HalfPath::bf16_dot) return run_bf16_dot(x, p);
#endif
      run_widened(x, p);
    });
  }

  void eval_gpu(const std::vector<mx::array>&, mx::array&) override {
    throw std::runtime_error("mlxd half_matmul runs on the CPU only");
  }

  const char* name() const override { return "MlxdHalfMatmulCpu"; }

  bool is_equivalent(const mx::Primitive& other) const override {
    auto* same = dynamic_cast<const HalfMatmulCpu*>(&other);
    return same != nullptr && same->path_ == path_;
  }

  std::vector<mx::Shape> output_shapes(const std::vector<mx::array>& inputs) override {
    mx::Shape shape = inputs[0].shape();
    shape.back() = inputs[1].shape(0);
    return {shape};
  }

 private:
  HalfPath path_;
};

}  // namespace

bool half_supports(const mx::array& x, const mx::array& w, const std::optional<mx::array>& bias) {
  Elt e;
  if (bias && (!elt_of(bias->dtype(), &e) || bias->ndim() != 1 || bias->shape(0) != w.shape(0))) {
    return false;
  }
  if (w.dtype() != mx::bfloat16 && w.dtype() != mx::float16) return false;
  if (!elt_of(x.dtype(), &e) || x.ndim() < 1 || w.ndim() != 2) return false;
  if (x.shape(-1) != w.shape(1)) return false;
  if (rows_of(x) > kHalfMatmulMaxRows && !amx_takes(x, w) && !bf16_gemm_takes(x, w)) return false;
  return w.is_available() && w.flags().row_contiguous;
}

const char* half_path_name(HalfPath path) {
  switch (path) {
    case HalfPath::amx:
      return "amx";
    case HalfPath::bf16_dot:
      return "bf16_dot";
    case HalfPath::bf16_gemm:
      return "bf16_gemm";
    default:
      return "widened";
  }
}

HalfPath half_path(const mx::array& x, const mx::array& w) {
  if (amx_takes(x, w)) return HalfPath::amx;
  if (bf16_gemm_takes(x, w)) return HalfPath::bf16_gemm;
  return bf16_dot_takes(x, w) ? HalfPath::bf16_dot : HalfPath::widened;
}

std::optional<mx::array> half_matmul(const mx::array& x, const mx::array& w,
                                     const std::optional<mx::array>& bias, mx::Dtype out_dtype,
                                     mx::StreamOrDevice s, std::optional<HalfPath> path) {
  Elt e;
  if (!half_supports(x, w, bias) || !elt_of(out_dtype, &e)) return std::nullopt;
  if (path == HalfPath::bf16_dot && !bf16_dot_takes(x, w)) return std::nullopt;
  if (path == HalfPath::amx && !amx_takes(x, w)) return std::nullopt;
  if (path == HalfPath::bf16_gemm && !bf16_gemm_takes(x, w)) return std::nullopt;
  const bool any_rows = path == HalfPath::amx || path == HalfPath::bf16_gemm;
  if (path && !any_rows && rows_of(x) > kHalfMatmulMaxRows) return std::nullopt;
  mx::Stream stream = mx::to_stream(s);
  if (stream.device.type != mx::Device::DeviceType::cpu) return std::nullopt;
  mx::Shape shape = x.shape();
  shape.back() = w.shape(0);
  auto primitive = std::make_shared<HalfMatmulCpu>(stream, path.value_or(half_path(x, w)));
  std::vector<mx::array> inputs{x, w};
  if (bias) inputs.push_back(*bias);
  return mx::array(std::move(shape), out_dtype, std::move(primitive), std::move(inputs));
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
