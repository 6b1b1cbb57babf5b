// float32 vectors of 16 lanes and the functions on them that our CPU kernels
// share (activation.cpp, attention.cpp): GCC/Clang vector types, so one source
// serves every instruction set. Included by the kernels' .cpp files only.
#pragma once

#include <cstdint>
#include <limits>

// The helpers pass 64-byte vectors by value, which GCC warns about where the
// build's ABI has no 64-byte registers (portable, avx2): they are inlined into
// the kernels' loops and never cross a call boundary.
#pragma GCC diagnostic ignored "-Wpsabi"

#ifndef MLXD_CPU_ISA
#error "MLXD_CPU_ISA (the kernels' instruction set: portable, avx2, avx512) must be defined"
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

// 16 float32 lanes as GCC/Clang vector types: one zmm register under AVX-512,
// two ymm under AVX2, four xmm for the portable build, from one source.
constexpr int kLanes = 16;
typedef float vf __attribute__((vector_size(kLanes * sizeof(float))));
typedef int32_t vi __attribute__((vector_size(kLanes * sizeof(int32_t))));

inline vf splat(float v) { return vf{} + v; }
inline vf select(vi mask, vf a, vf b) { return mask ? a : b; }
inline vf vabs(vf x) { return (vf)((vi)x & 0x7fffffff); }
inline vf copy_sign(vf magnitude, vf sign) {
  return (vf)(((vi)magnitude & 0x7fffffff) | ((vi)sign & static_cast<int32_t>(0x80000000u)));
}

// Cephes' expf without its 2^n: e^r for x = n ln2 + r (nf: the integer n),
// |r| <= ln2 / 2, r taken in two parts of ln2 and e^r a degree-7 polynomial.
inline vf exp_without_scale(vf x, vf nf) {
  vf r = x - nf * 0.693359375f + nf * 2.12194440e-4f;
  vf p = splat(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  return p * r * r + r + 1.0f;
}

// Cephes' expf: exp_without_scale, and 2^n built in the exponent bits (in two
// factors, so that n = 128 still fits).
inline vf v_exp(vf x) {
  const float kHi = 88.7228f, kLo = -87.3365f;
  vf xc = select(x > kHi, splat(kHi), select(x < kLo, splat(kLo), x));
  vf t = xc * 1.44269504088896341f;
  vi n = __builtin_convertvector(t + select(t >= 0.0f, splat(0.5f), splat(-0.5f)), vi);
  vf y = exp_without_scale(xc, __builtin_convertvector(n, vf)) * (vf)((n + 126) << 23) * 2.0f;
  y = select(x > kHi, splat(std::numeric_limits<float>::infinity()), y);
  y = select(x < kLo, splat(0.0f), y);
  return select(x != x, x, y);  // NaN stays NaN
}

// 16 bfloat16 values widened to float32 (exact), and float32 rounded to
// bfloat16 as MLX rounds (to nearest even; NaN to its quiet NaN).
typedef uint16_t vh __attribute__((vector_size(kLanes * sizeof(uint16_t))));
typedef uint32_t vu __attribute__((vector_size(kLanes * sizeof(uint32_t))));

inline vf load_bf16(const uint16_t* p) {
  vh h;
  __builtin_memcpy(&h, p, sizeof(h));
  return (vf)(__builtin_convertvector(h, vi) << 16);
}

inline void store_bf16(uint16_t* p, vf x) {
  vu bits = (vu)x;
  bits = (bits + ((bits >> 16) & 1u) + 0x7fffu) >> 16;
  bits = x != x ? vu{} + 0x7fc0u : bits;
  vh h = __builtin_convertvector(bits, vh);
  __builtin_memcpy(p, &h, sizeof(h));
}

inline float lane_max(vf v) {
  float m = v[0];
  for (int j = 1; j < kLanes; ++j) m = v[j] > m ? v[j] : m;
  return m;
}

inline float lane_sum(vf v) {
  float s = 0;
  for (int j = 0; j < kLanes; ++j) s += v[j];
  return s;
}

// A softmax's two passes over a row of float32 values, shared by the softmax
// (activation.cpp) and the attention (attention.cpp).

// The largest of row[0, n); -inf when n is 0.
inline float row_max(const float* row, int64_t n) {
  vf vmax = splat(-std::numeric_limits<float>::infinity());
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes) {
    vf x;
    __builtin_memcpy(&x, row + j, sizeof(x));
    vmax = select(x > vmax, x, vmax);
  }
  float m = lane_max(vmax);
  for (; j < n; ++j) m = row[j] > m ? row[j] : m;
  return m;
}

// exp(row[j] * factor - shift) for j < n, written back into row, or, where
// `bf16` is given, rounded into bf16[0, n rounded up to kLanes) instead (zeros
// past n; row is left as it was). Returns their sum (of the float32 values).
inline float exp_sum(float* row, int64_t n, float factor, float shift, uint16_t* bf16 = nullptr) {
  const float lowest = -std::numeric_limits<float>::infinity();
  vf vsum = splat(0.0f);
  alignas(64) float buf[kLanes];
  for (int64_t j = 0; j < n; j += kLanes) {
    const int64_t count = n - j < kLanes ? n - j : kLanes;
    vf x;
    if (count == kLanes) {
      __builtin_memcpy(&x, row + j, sizeof(x));
    } else {
      for (int t = 0; t < kLanes; ++t) buf[t] = t < count ? row[j + t] : lowest;
      __builtin_memcpy(&x, buf, sizeof(x));
    }
    x = v_exp(x * factor - shift);  // exp(-inf) = 0 past n
    vsum += x;
    if (bf16) {
      store_bf16(bf16 + j, x);
    } else if (count == kLanes) {
      __builtin_memcpy(row + j, &x, sizeof(x));
    } else {
      __builtin_memcpy(buf, &x, sizeof(x));
      for (int t = 0; t < count; ++t) row[j + t] = buf[t];
    }
  }
  return lane_sum(vsum);
}

}  // namespace

}  // namespace mlxd::cpu::MLXD_CPU_ISA
