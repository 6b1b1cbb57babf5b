// The kernel, in two phases. First each key head's keys and values are laid out
// once for the products (a task per batch and key head): in panels of 32 keys
// by D (the vector path), or in AMX's pair layout (amx.h). Then a task per
// batch, query head and block of 32 queries: the block's scores against the
// keys it sees (32 x S float32, in the cache), each row's softmax (scaled,
// masked, exp against its largest value, unnormalised), the products with the
// values, and each output row scaled once by its sum's reciprocal. Under a
// causal mask a block stops at the last key its last query sees.
#include "attention.h"

#include <mlx/primitives.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

#include "amx.h"
#include "kernel_util.h"
#include "thread_pool.h"
#include "vector_math.h"

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

constexpr int64_t kBlockRows = 32;  // queries a task takes
constexpr int64_t kKeyStep = 32;    // keys a step of the products takes (a panel)

int64_t round_up(int64_t n, int64_t to) { return (n + to - 1) / to * to; }

// A 4-D operand of any strides: element (b, h, i, d) at b*s[0] + h*s[1] + i*s[2] + d*s[3].
struct Operand {
  const char* data = nullptr;
  Elt elt = Elt::f32;
  int64_t size = 4;  // bytes an element
  int64_t s[4] = {};

  const char* at(int64_t b, int64_t h, int64_t i) const {
    return data + (b * s[0] + h * s[1] + i * s[2]) * size;
  }
};

Operand operand_of(const mx::array& a) {
  Operand o;
  o.data = a.data<char>();
  elt_of(a.dtype(), &o.elt);
  o.size = static_cast<int64_t>(a.itemsize());
  for (int d = 0; d < 4; ++d) o.s[d] = a.strides()[d];
  return o;
}

struct AttentionProblem {
  Operand q, k, v;
  bool has_mask = false;
  bool bool_mask = false;
  Operand mask;  // broadcast to [B, Hq, L, S]
  char* out = nullptr;
  Elt out_elt = Elt::f32;
  int64_t B = 0, Hq = 0, Hk = 0, L = 0, S = 0, D = 0;
  int64_t Sp = 0;  // S rounded up to kKeyStep
  int64_t Dp = 0;  // D rounded up to what a path's products step by (zeros past D)
  float scale = 1.0f;
  bool causal = false;
};

// Row (b, h, i) of an operand as D float32 values (the caller's buffer holds zeros past D).
void load_row(const Operand& o, int64_t b, int64_t h, int64_t i, int64_t D, float* to) {
  const char* row = o.at(b, h, i);
  if (o.elt == Elt::f32 && o.s[3] == 1) {
    std::memcpy(to, row, static_cast<size_t>(D) * sizeof(float));
    return;
  }
  for (int64_t d = 0; d < D; ++d) to[d] = load_elt(row, d * o.s[3], o.elt);
}

// The keys query i sees: [0, keys_seen(i)).
int64_t keys_seen(const AttentionProblem& p, int64_t i) {
  return p.causal ? std::clamp<int64_t>(i + p.S - p.L + 1, 0, p.S) : p.S;
}

// The mask's row (b, h, i) applied to the first n scaled scores.
void apply_mask(const AttentionProblem& p, int64_t b, int64_t h, int64_t i, float* row, int64_t n) {
  const Operand& m = p.mask;
  const char* base = m.at(b, h, i);
  const int64_t js = m.s[3];
  if (p.bool_mask) {
    const float lowest = -std::numeric_limits<float>::infinity();
    for (int64_t j = 0; j < n; ++j) row[j] = base[j * js] ? row[j] : lowest;
  } else if (m.elt == Elt::f32 && js == 1) {
    const float* add = reinterpret_cast<const float*>(base);
    for (int64_t j = 0; j < n; ++j) row[j] += add[j];
  } else {
    for (int64_t j = 0; j < n; ++j) row[j] += load_elt(base, j * js, m.elt);
  }
}

#if defined(__AVX512F__)
// exp_sum (vector_math.h) rounding into bfloat16, in AVX-512's own instructions:
// 2^n applied by vscalefps, the rounding by vcvtneps2bf16 (to nearest even, NaN
// quiet, as store_bf16), no clamps past the softmax's range (its arguments are at
// most about 0: the row's largest value is subtracted), and -inf (a masked key) or
// anything under expf's range made 0. The same polynomial as v_exp
// (exp_without_scale): half the instructions a value, where the AMX path spent
// most of its time.
__attribute__((target("avx512f,avx512bf16"))) float exp_sum_bf16(const float* row, int64_t n,
                                                                 float factor, float shift,
                                                                 uint16_t* bf16) {
  const __m512 lowest = _mm512_set1_ps(-87.3365f), vfactor = _mm512_set1_ps(factor),
               vshift = _mm512_set1_ps(shift);
  __m512 sum = _mm512_setzero_ps();
  for (int64_t j = 0; j < n; j += 16) {
    const __mmask16 live = n - j >= 16 ? __mmask16(0xffff) : __mmask16((1u << (n - j)) - 1);
    __m512 x = _mm512_mask_loadu_ps(_mm512_set1_ps(-INFINITY), live, row + j);
    x = _mm512_fmsub_ps(x, vfactor, vshift);
    const __mmask16 under = _mm512_cmp_ps_mask(x, lowest, _CMP_LT_OQ);
    x = _mm512_max_ps(lowest, x);  // NaN stays NaN (max returns its second operand)
    __m512 t = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m512 p = (__m512)exp_without_scale((vf)x, (vf)t);
    __m512 y = _mm512_maskz_mov_ps(static_cast<__mmask16>(~under), _mm512_scalef_ps(p, t));
    sum = _mm512_add_ps(sum, y);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bf16 + j), (__m256i)_mm512_cvtneps_pbh(y));
  }
  return _mm512_reduce_add_ps(sum);
}
#endif

// Query i's raw scores (row: `span` float32 values) become exp(x - max x) with
// x = score * scale + mask for the keys it sees, and 0 for the rest of the span:
// in row, or rounded to bfloat16 in `probs` where given (the AMX path's second
// product reads them so). Returns 1 / their sum, or 0 for a query that sees no
// key (its output is zeros). Without a mask the scale multiplies inside the
// exp's pass: a positive scale keeps the largest score the largest.
float exp_row(const AttentionProblem& p, int64_t b, int64_t h, int64_t i, float* row, int64_t span,
              uint16_t* probs = nullptr) {
  const int64_t n = keys_seen(p, i);
  const float lowest = -std::numeric_limits<float>::infinity();
  float factor = p.scale;
  int64_t j = 0;
  if (p.has_mask || !(p.scale > 0.0f)) {
    for (; j + kLanes <= n; j += kLanes) {
      vf x;
      std::memcpy(&x, row + j, sizeof(x));
      x *= p.scale;
      std::memcpy(row + j, &x, sizeof(x));
    }
    for (; j < n; ++j) row[j] *= p.scale;
    if (p.has_mask) apply_mask(p, b, h, i, row, n);
    factor = 1.0f;
  }
  const float m = row_max(row, n);
  if (m == lowest) {  // every key masked (or none seen)
    if (probs) {
      std::fill(probs, probs + span, uint16_t{0});
    } else {
      std::fill(row, row + span, 0.0f);
    }
    return 0.0f;
  }
#if defined(__AVX512F__)
  // probs are the AMX path's, which runs only where AVX-512 BF16 is (amx_here).
  const float sum =
      probs ? exp_sum_bf16(row, n, factor, m * factor, probs) : exp_sum(row, n, factor, m * factor);
#else
  const float sum = exp_sum(row, n, factor, m * factor, probs);
#endif
  if (probs) {
    std::fill(probs + (n + kLanes - 1) / kLanes * kLanes, probs + span, uint16_t{0});
  } else {
    std::fill(row + n, row + span, 0.0f);
  }
  return 1.0f / sum;
}

// Output row i of the block, columns [d0, d0 + 32) short of D, from float32 sums times inv.
void store_out(const AttentionProblem& p, int64_t b, int64_t h, int64_t i, int64_t d0,
               const float* sums, float inv) {
  const int64_t base = ((b * p.Hq + h) * p.L + i) * p.D + d0;
  const int64_t n = std::min<int64_t>(32, p.D - d0);
  for (int64_t c = 0; c < n; ++c) store_elt(p.out, base + c, p.out_elt, sums[c] * inv);
}

// ---- the direct path: a few queries -------------------------------------------

// V::W values of a row from element d (d's stride 1), as float32.
V::T load_vector(const char* row, int64_t d, Elt e) {
  if (e == Elt::f32) return V::load(reinterpret_cast<const float*>(row) + d);
  return load_half(reinterpret_cast<const uint16_t*>(row) + d, e);
}

// One query (a decode step's) straight from the key and value rows, which a
// layout would cost as much as reading once: each score a dot product, then the
// values' rows summed by their probabilities.
void direct_query(const AttentionProblem& p, int64_t b, int64_t h, int64_t i) {
  const int64_t D = p.D, hk = h / (p.Hq / p.Hk);
  const int64_t vector_part = p.k.s[3] == 1 && p.v.s[3] == 1 ? D - D % V::W : 0;
  thread_local std::vector<float> q, scores, sums;
  q.resize(static_cast<size_t>(D));
  scores.resize(static_cast<size_t>(p.S));
  sums.assign(static_cast<size_t>(round_up(D, 32)), 0.0f);
  load_row(p.q, b, h, i, D, q.data());
  const int64_t n = keys_seen(p, i);
  for (int64_t j = 0; j < n; ++j) {
    const char* key = p.k.at(b, hk, j);
    V::T acc = V::zero();
    for (int64_t d = 0; d < vector_part; d += V::W) {
      acc = V::fma(load_vector(key, d, p.k.elt), V::load(q.data() + d), acc);
    }
    float score = V::sum(acc);
    for (int64_t d = vector_part; d < D; ++d) score += load_elt(key, d * p.k.s[3], p.k.elt) * q[d];
    scores[j] = score;
  }
  const float inv = exp_row(p, b, h, i, scores.data(), n);
  for (int64_t j = 0; j < n; ++j) {
    const float weight = scores[j];
    if (weight == 0.0f) continue;  // masked
    const char* value = p.v.at(b, hk, j);
    const V::T w = V::set1(weight);
    for (int64_t d = 0; d < vector_part; d += V::W) {
      V::store(sums.data() + d,
               V::fma(w, load_vector(value, d, p.v.elt), V::load(sums.data() + d)));
    }
    for (int64_t d = vector_part; d < D; ++d)
      sums[d] += weight * load_elt(value, d * p.v.s[3], p.v.elt);
  }
  for (int64_t d0 = 0; d0 < D; d0 += 32) store_out(p, b, h, i, d0, sums.data() + d0, inv);
}

// ---- the vector path ----------------------------------------------------------

// Rows of a block a step of the products takes: 16 accumulators of V::W lanes.
constexpr int kMR = V::W == 16 ? 8 : 4;
constexpr int kVecs32 = 32 / V::W;  // vectors across 32 floats

// Keys and values of every (batch, key head), laid out once a call: keys in
// panels of kKeyStep keys ([S/32][D][32], zeros past S), values as [S][D].
struct VectorLayout {
  std::vector<float> keys, values;
};

void lay_out_vector(const AttentionProblem& p, int64_t bh, VectorLayout& lay) {
  const int64_t b = bh / p.Hk, h = bh % p.Hk, D = p.D, Dp = p.Dp;
  float* keys = lay.keys.data() + bh * p.Sp * Dp;
  float* values = lay.values.data() + bh * p.S * Dp;
  thread_local std::vector<float> row;
  row.resize(static_cast<size_t>(D));
  std::fill(keys, keys + p.Sp * Dp, 0.0f);
  if (Dp != D) std::fill(values, values + p.S * Dp, 0.0f);  // else every row is written whole
  for (int64_t j = 0; j < p.S; ++j) {
    load_row(p.k, b, h, j, D, row.data());
    float* panel = keys + (j / kKeyStep) * Dp * kKeyStep + j % kKeyStep;
    for (int64_t d = 0; d < D; ++d) panel[d * kKeyStep] = row[d];
    load_row(p.v, b, h, j, D, values + j * Dp);
  }
}

// scores[i][0..32) for kMR rows of the block's queries (qb, D a row) against
// one panel of keys.
void scores_step(const float* qb, int64_t D, const float* panel, float* scores, int64_t ld) {
  V::T acc[kMR][kVecs32];
  for (int i = 0; i < kMR; ++i)
    for (int v = 0; v < kVecs32; ++v) acc[i][v] = V::zero();
  for (int64_t d = 0; d < D; ++d) {
    V::T kv[kVecs32];
#pragma GCC unroll 4
    for (int v = 0; v < kVecs32; ++v) kv[v] = V::load(panel + d * kKeyStep + v * V::W);
#pragma GCC unroll 8
    for (int i = 0; i < kMR; ++i) {
      V::T qv = V::set1(qb[i * D + d]);
#pragma GCC unroll 4
      for (int v = 0; v < kVecs32; ++v) acc[i][v] = V::fma(qv, kv[v], acc[i][v]);
    }
  }
  for (int i = 0; i < kMR; ++i)
    for (int v = 0; v < kVecs32; ++v) V::store(scores + i * ld + v * V::W, acc[i][v]);
}

// out[i][0..NV * V::W) = sum over the first `keys` keys of probs[i][s] values[s][d0..]
// for kMR rows.
template <int NV>
void values_step(const float* probs, int64_t ld, int64_t keys, const float* values, int64_t D,
                 float (*out)[32]) {
  V::T acc[kMR][NV];
  for (int i = 0; i < kMR; ++i)
    for (int v = 0; v < NV; ++v) acc[i][v] = V::zero();
  for (int64_t s = 0; s < keys; ++s) {
    V::T vv[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) vv[v] = V::load(values + s * D + v * V::W);
#pragma GCC unroll 8
    for (int i = 0; i < kMR; ++i) {
      V::T pv = V::set1(probs[i * ld + s]);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[i][v] = V::fma(pv, vv[v], acc[i][v]);
    }
  }
  for (int i = 0; i < kMR; ++i)
    for (int v = 0; v < NV; ++v) V::store(out[i] + v * V::W, acc[i][v]);
}

void vector_block(const AttentionProblem& p, const VectorLayout& lay, int64_t b, int64_t h,
                  int64_t m0) {
  const int64_t D = p.Dp, hk = h / (p.Hq / p.Hk);
  const int64_t rows = std::min(kBlockRows, p.L - m0);
  const int64_t rows_r = round_up(rows, kMR);
  const int64_t limit = keys_seen(p, m0 + rows - 1);  // the block's last query sees the most
  const int64_t span = round_up(limit, kKeyStep);
  thread_local std::vector<float> qb, scores;
  qb.assign(static_cast<size_t>(rows_r * D), 0.0f);
  scores.resize(static_cast<size_t>(kBlockRows * p.Sp));
  for (int64_t i = 0; i < rows; ++i) load_row(p.q, b, h, m0 + i, p.D, qb.data() + i * D);
  const float* keys = lay.keys.data() + (b * p.Hk + hk) * p.Sp * D;
  const float* values = lay.values.data() + (b * p.Hk + hk) * p.S * D;
  for (int64_t j0 = 0; j0 < span; j0 += kKeyStep) {
    for (int64_t i0 = 0; i0 < rows_r; i0 += kMR) {
      scores_step(qb.data() + i0 * D, D, keys + j0 * D, scores.data() + i0 * p.Sp + j0, p.Sp);
    }
  }
  float inv[kBlockRows] = {};
  for (int64_t i = 0; i < rows; ++i) {
    inv[i] = exp_row(p, b, h, m0 + i, scores.data() + i * p.Sp, span);
  }
  for (int64_t i = rows; i < rows_r; ++i) std::fill_n(scores.data() + i * p.Sp, span, 0.0f);
  float sums[kMR][32];
  for (int64_t i0 = 0; i0 < rows_r; i0 += kMR) {
    for (int64_t d0 = 0; d0 < D; d0 += 32) {
      const float* probs = scores.data() + i0 * p.Sp;
      if (D - d0 >= 32) {
        values_step<kVecs32>(probs, p.Sp, limit, values + d0, D, sums);
      } else {
        values_step<kVecs32 / 2>(probs, p.Sp, limit, values + d0, D, sums);
      }
      for (int64_t i = i0; i < std::min(rows, i0 + kMR); ++i) {
        store_out(p, b, h, m0 + i, d0, sums[i - i0], inv[i]);
      }
    }
  }
}

// ---- the AMX path -------------------------------------------------------------

#if defined(__AVX512F__)
constexpr int64_t kTile = amx::kRows * amx::kK;  // bfloat16 values of a tile

// Keys and values of every (batch, key head) in the tiles' pair layout:
// keys as B tiles of the scores (16 keys a tile's columns, 32 of D its pairs):
// tile (j / 16) * (D / 32) + d / 32, row (d % 32) / 2, column 2 (j % 16) + d % 2;
// values as B tiles of the output (16 of D the columns, 32 keys the pairs):
// tile (s / 32) * (D / 16) + d / 16, row (s % 32) / 2, column 2 (d % 16) + s % 2.
// Zeros past S.
struct AmxLayout {
  std::vector<uint16_t> key_storage, value_storage;
  uint16_t* keys = nullptr;  // 64-byte aligned (aligned_values)
  uint16_t* values = nullptr;
};

// Row (b, h, i) of a bfloat16 operand, its bits as they are (zeros past D: the caller's).
void load_row_bf16(const Operand& o, int64_t b, int64_t h, int64_t i, int64_t D, uint16_t* to) {
  const uint16_t* row = reinterpret_cast<const uint16_t*>(o.at(b, h, i));
  if (o.s[3] == 1) {
    std::memcpy(to, row, static_cast<size_t>(D) * 2);
    return;
  }
  for (int64_t d = 0; d < D; ++d) to[d] = row[d * o.s[3]];
}

void lay_out_amx(const AttentionProblem& p, int64_t bh, AmxLayout& lay) {
  const int64_t b = bh / p.Hk, h = bh % p.Hk, D = p.Dp;
  uint16_t* keys = lay.keys + bh * p.Sp * D;
  uint16_t* values = lay.values + bh * p.Sp * D;
  std::fill(keys, keys + p.Sp * D, uint16_t{0});
  std::fill(values, values + p.Sp * D, uint16_t{0});
  thread_local std::vector<uint16_t> row;
  row.assign(static_cast<size_t>(D), 0);
  for (int64_t j = 0; j < p.S; ++j) {
    load_row_bf16(p.k, b, h, j, p.D, row.data());
    uint16_t* kt = keys + (j / amx::kRows) * (D / amx::kK) * kTile + 2 * (j % amx::kRows);
    for (int64_t d = 0; d < D; ++d) {
      kt[(d / amx::kK) * kTile + ((d % amx::kK) / 2) * amx::kK + d % 2] = row[d];
    }
    load_row_bf16(p.v, b, h, j, p.D, row.data());
    uint16_t* vt =
        values + (j / amx::kK) * (D / amx::kRows) * kTile + ((j % amx::kK) / 2) * amx::kK + j % 2;
    for (int64_t d = 0; d < D; ++d) {
      vt[(d / amx::kRows) * kTile + 2 * (d % amx::kRows)] = row[d];
    }
  }
}

// Tiles 0-3 accumulate a 32 x 32 block (2 x 2 tiles), 4-5 hold the A rows, 6-7
// the B columns.
__attribute__((target("amx-tile"))) void store_sums(float* to, int64_t ld) {
  _tile_stored(0, to, ld * 4);
  _tile_stored(1, to + amx::kRows, ld * 4);
  _tile_stored(2, to + amx::kRows * ld, ld * 4);
  _tile_stored(3, to + amx::kRows * ld + amx::kRows, ld * 4);
}

__attribute__((target("amx-tile,amx-bf16,avx512bf16"))) void amx_block(const AttentionProblem& p,
                                                                       const AmxLayout& lay,
                                                                       int64_t b, int64_t h,
                                                                       int64_t m0) {
  const int64_t D = p.Dp, hk = h / (p.Hq / p.Hk);
  const int64_t rows = std::min(kBlockRows, p.L - m0);
  const int64_t limit = keys_seen(p, m0 + rows - 1);
  const int64_t span = round_up(limit, kKeyStep);
  thread_local std::vector<uint16_t> q_storage, prob_storage;
  thread_local std::vector<float> scores;
  uint16_t* qb = aligned_values(q_storage, kBlockRows * D);
  uint16_t* probs = aligned_values(prob_storage, kBlockRows * p.Sp);
  std::fill(qb, qb + kBlockRows * D, uint16_t{0});
  scores.resize(static_cast<size_t>(kBlockRows * p.Sp));
  for (int64_t i = 0; i < rows; ++i) load_row_bf16(p.q, b, h, m0 + i, p.D, qb + i * D);
  const uint16_t* keys = lay.keys + (b * p.Hk + hk) * p.Sp * D;
  const uint16_t* values = lay.values + (b * p.Hk + hk) * p.Sp * D;
  const int64_t d_steps = D / amx::kK, d_tiles = D / amx::kRows;
  amx::configure_tiles();
  for (int64_t j0 = 0; j0 < span; j0 += kKeyStep) {
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    const uint16_t* kt = keys + (j0 / amx::kRows) * d_steps * kTile;
    for (int64_t ds = 0; ds < d_steps; ++ds) {
      _tile_loadd(4, qb + ds * amx::kK, D * 2);
      _tile_loadd(5, qb + amx::kRows * D + ds * amx::kK, D * 2);
      _tile_loadd(6, kt + ds * kTile, 64);
      _tile_loadd(7, kt + (d_steps + ds) * kTile, 64);
      _tile_dpbf16ps(0, 4, 6);
      _tile_dpbf16ps(1, 4, 7);
      _tile_dpbf16ps(2, 5, 6);
      _tile_dpbf16ps(3, 5, 7);
    }
    store_sums(scores.data() + j0, p.Sp);
  }
  float inv[kBlockRows] = {};
  for (int64_t i = 0; i < rows; ++i) {
    inv[i] = exp_row(p, b, h, m0 + i, scores.data() + i * p.Sp, span, probs + i * p.Sp);
  }
  for (int64_t i = rows; i < kBlockRows; ++i) std::fill_n(probs + i * p.Sp, span, 0);
  alignas(64) float sums[kBlockRows * 32];
  for (int64_t dt = 0; dt < d_tiles; dt += 2) {
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    for (int64_t s0 = 0; s0 < span; s0 += kKeyStep) {
      const uint16_t* vt = values + (s0 / amx::kK) * d_tiles * kTile + dt * kTile;
      _tile_loadd(4, probs + s0, p.Sp * 2);
      _tile_loadd(5, probs + amx::kRows * p.Sp + s0, p.Sp * 2);
      _tile_loadd(6, vt, 64);
      _tile_loadd(7, vt + kTile, 64);
      _tile_dpbf16ps(0, 4, 6);
      _tile_dpbf16ps(1, 4, 7);
      _tile_dpbf16ps(2, 5, 6);
      _tile_dpbf16ps(3, 5, 7);
    }
    store_sums(sums, 32);
    for (int64_t i = 0; i < rows; ++i) {
      store_out(p, b, h, m0 + i, dt * amx::kRows, sums + i * 32, inv[i]);
    }
  }
  _tile_release();
}
#endif

bool amx_takes(const mx::array& q) {
#if defined(__AVX512F__)
  return q.dtype() == mx::bfloat16 && amx_here();
#else
  (void)q;
  return false;
#endif
}

// Multiply-adds below which a call runs on the calling thread alone: waking the
// pool would cost more than the work.
constexpr int64_t kSharedWork = int64_t{1} << 21;

void run_tasks(int64_t tasks, int64_t work, const std::function<void(int)>& task) {
  if (threads() <= 1 || tasks < 2 || work < kSharedWork) {
    for (int64_t t = 0; t < tasks; ++t) task(static_cast<int>(t));
    return;
  }
  parallel_for(static_cast<int>(tasks), task);
}

void run(AttentionProblem& p, AttentionPath path) {
  const int64_t heads = p.B * p.Hk, blocks = (p.L + kBlockRows - 1) / kBlockRows;
  const int64_t work = p.B * p.Hq * p.L * p.S * p.D * 2;
  if (path == AttentionPath::direct) {
    run_tasks(p.B * p.Hq, work, [&](int bh) {
      for (int64_t i = 0; i < p.L; ++i) direct_query(p, bh / p.Hq, bh % p.Hq, i);
    });
    return;
  }
  auto each_block = [&](auto&& block) {
    run_tasks(p.B * p.Hq * blocks, work, [&](int t) {
      const int64_t bh = t / blocks;
      block(bh / p.Hq, bh % p.Hq, (t % blocks) * kBlockRows);
    });
  };
#if defined(__AVX512F__)
  if (path == AttentionPath::amx) {
    p.Dp = round_up(p.D, amx::kK);
    thread_local AmxLayout calling_thread_layout;
    AmxLayout& lay = calling_thread_layout;  // the workers' tasks read the caller's
    lay.keys = aligned_values(lay.key_storage, heads * p.Sp * p.Dp);
    lay.values = aligned_values(lay.value_storage, heads * p.Sp * p.Dp);
    run_tasks(heads, work, [&](int bh) { lay_out_amx(p, bh, lay); });
    each_block([&](int64_t b, int64_t h, int64_t m0) { amx_block(p, lay, b, h, m0); });
    return;
  }
#endif
  (void)path;
  p.Dp = round_up(p.D, 16);
  thread_local VectorLayout calling_thread_layout;
  VectorLayout& lay = calling_thread_layout;
  lay.keys.resize(static_cast<size_t>(heads * p.Sp * p.Dp));
  lay.values.resize(static_cast<size_t>(heads * p.S * p.Dp));
  run_tasks(heads, work, [&](int bh) { lay_out_vector(p, bh, lay); });
  each_block([&](int64_t b, int64_t h, int64_t m0) { vector_block(p, lay, b, h, m0); });
}

class AttentionCpu : public mx::UnaryPrimitive {
 public:
  AttentionCpu(mx::Stream stream, float scale, bool causal, AttentionPath path)
      : mx::UnaryPrimitive(stream), scale_(scale), causal_(causal), path_(path) {}

  void eval_cpu(const std::vector<mx::array>& inputs, mx::array& out) override {
    dispatch_on_cpu(stream(), inputs, out,
                    [scale = scale_, causal = causal_, path = path_](
                        const std::vector<mx::array>& ins, mx::array& out) {
                      const mx::array &q = ins[0], &k = ins[1];
                      AttentionProblem p;
                      p.q = operand_of(q);
                      p.k = operand_of(k);
                      p.v = operand_of(ins[2]);
                      if (ins.size() > 3) {
                        p.has_mask = true;
                        p.bool_mask = ins[3].dtype() == mx::bool_;
                        p.mask = operand_of(ins[3]);
                      }
                      p.out = out.data<char>();
                      elt_of(out.dtype(), &p.out_elt);
                      p.B = q.shape(0);
                      p.Hq = q.shape(1);
                      p.L = q.shape(2);
                      p.D = q.shape(3);
                      p.Hk = k.shape(1);
                      p.S = k.shape(2);
                      p.Sp = round_up(p.S, kKeyStep);
                      p.scale = scale;
                      p.causal = causal;
                      if (p.B == 0 || p.Hq == 0 || p.L == 0) return;
                      run(p, path);
                    });
  }

  void eval_gpu(const std::vector<mx::array>&, mx::array&) override {
    throw std::runtime_error("mlxd attention runs on the CPU only");
  }

  const char* name() const override { return "MlxdAttentionCpu"; }

  bool is_equivalent(const mx::Primitive& other) const override {
    auto* same = dynamic_cast<const AttentionCpu*>(&other);
    return same != nullptr && same->scale_ == scale_ && same->causal_ == causal_ &&
           same->path_ == path_;
  }

  std::vector<mx::Shape> output_shapes(const std::vector<mx::array>& inputs) override {
    return {inputs[0].shape()};
  }

 private:
  float scale_;
  bool causal_;
  AttentionPath path_;
};

}  // namespace

const char* attention_path_name(AttentionPath path) {
  switch (path) {
    case AttentionPath::amx:
      return "amx";
    case AttentionPath::direct:
      return "direct";
    default:
      return "vector";
  }
}

AttentionPath attention_path(const mx::array& q) {
  if (q.ndim() == 4 && q.shape(2) <= kDirectMaxQueries) return AttentionPath::direct;
  return amx_takes(q) ? AttentionPath::amx : AttentionPath::vector;
}

bool attention_supports(const mx::array& q, const mx::array& k, const mx::array& v,
                        const std::optional<mx::array>& mask) {
  Elt e;
  if (!elt_of(q.dtype(), &e) || k.dtype() != q.dtype() || v.dtype() != q.dtype()) return false;
  if (q.ndim() != 4 || k.ndim() != 4 || v.shape() != k.shape()) return false;
  const int B = q.shape(0), Hq = q.shape(1), L = q.shape(2), D = q.shape(3);
  const int Hk = k.shape(1), S = k.shape(2);
  if (k.shape(0) != B || k.shape(3) != D || Hk == 0 || Hq % Hk != 0 || S == 0) return false;
  if (L == 0 || D == 0) return false;
  if (!mask) return true;
  if (mask->dtype() != mx::bool_ && !elt_of(mask->dtype(), &e)) return false;
  if (mask->ndim() > 4) return false;
  const mx::Shape full{B, Hq, L, S};
  for (int d = 1; d <= static_cast<int>(mask->ndim()); ++d) {
    const int n = mask->shape(-d);
    if (n != 1 && n != full[4 - d]) return false;
  }
  return true;
}

std::optional<mx::array> attention(const mx::array& q, const mx::array& k, const mx::array& v,
                                   float scale, bool causal, const std::optional<mx::array>& mask,
                                   mx::StreamOrDevice s, std::optional<AttentionPath> path) {
  if (!attention_supports(q, k, v, mask)) return std::nullopt;
  if (path == AttentionPath::amx && !amx_takes(q)) return std::nullopt;
  mx::Stream stream = mx::to_stream(s);
  if (stream.device.type != mx::Device::DeviceType::cpu) return std::nullopt;
  std::vector<mx::array> inputs{q, k, v};
  if (mask) {
    inputs.push_back(
        mx::broadcast_to(*mask, {q.shape(0), q.shape(1), q.shape(2), k.shape(2)}, stream));
  }
  auto primitive =
      std::make_shared<AttentionCpu>(stream, scale, causal, path.value_or(attention_path(q)));
  return mx::array(q.shape(), q.dtype(), std::move(primitive), std::move(inputs));
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
