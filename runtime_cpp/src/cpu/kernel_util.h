// What the CPU kernels of one instruction set share (MLXD_CPU_ISA, the flags
// of the kernel library that includes this): the element types they read and
// write, float32 vectors of the widest width the build may use, and the
// unpacking of weights into them. Included by the kernels' .cpp files only.
#pragma once

#include <mlx/backend/cpu/encoder.h>
#include <mlx/mlx.h>

#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

#ifndef MLXD_CPU_ISA
#error "MLXD_CPU_ISA (the kernels' instruction set: portable, avx2, avx512) must be defined"
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace mx = mlx::core;

namespace {

enum class Elt { f32, bf16, f16 };

inline bool elt_of(mx::Dtype t, Elt* e) {
  if (t == mx::float32) {
    *e = Elt::f32;
  } else if (t == mx::bfloat16) {
    *e = Elt::bf16;
  } else if (t == mx::float16) {
    *e = Elt::f16;
  } else {
    return false;
  }
  return true;
}

inline float load_elt(const void* p, int64_t i, Elt e) {
  switch (e) {
    case Elt::bf16: {
      uint32_t bits = static_cast<uint32_t>(static_cast<const uint16_t*>(p)[i]) << 16;
      float f;
      std::memcpy(&f, &bits, sizeof(f));
      return f;
    }
    case Elt::f16:
      return static_cast<float>(static_cast<const mx::float16_t*>(p)[i]);
    default:
      return static_cast<const float*>(p)[i];
  }
}

inline void store_elt(void* p, int64_t i, Elt e, float v) {
  switch (e) {
    case Elt::bf16:
      static_cast<mx::bfloat16_t*>(p)[i] = mx::bfloat16_t(v);
      break;
    case Elt::f16:
      static_cast<mx::float16_t*>(p)[i] = mx::float16_t(v);
      break;
    default:
      static_cast<float*>(p)[i] = v;
  }
}

// Row m of x (any strides: x's rows are all its axes but the last), whose last
// axis steps by x.strides().back().
inline const void* row_of(const mx::array& x, int64_t m) {
  int64_t offset = 0, rest = m;
  for (int d = static_cast<int>(x.ndim()) - 2; d >= 0; --d) {
    offset += (rest % x.shape(d)) * x.strides()[d];
    rest /= x.shape(d);
  }
  return x.data<char>() + offset * static_cast<int64_t>(x.itemsize());
}

// A primitive's evaluation on MLX's CPU stream: out's memory allocated, the
// inputs and out registered with the stream's encoder (which keeps them alive
// until the task has run), and run(inputs, out) dispatched to the stream's
// thread on weak copies of them.
template <typename Run>
void dispatch_on_cpu(mx::Stream stream, const std::vector<mx::array>& inputs, mx::array& out,
                     Run run) {
  out.set_data(mx::allocator::malloc(out.nbytes()));
  auto& encoder = mx::cpu::get_command_encoder(stream);
  std::vector<mx::array> ins;
  for (const mx::array& in : inputs) {
    encoder.set_input_array(in);
    ins.push_back(mx::array::unsafe_weak_copy(in));
  }
  encoder.set_output_array(out);
  encoder.dispatch([ins = std::move(ins), out = mx::array::unsafe_weak_copy(out),
                    run = std::move(run)]() mutable { run(ins, out); });
}

// ---- vectors of float32 and the unpacking of one 32-field block -------------

#if defined(__AVX512F__)
struct V {
  using T = __m512;
  static constexpr int W = 16;
  static T zero() { return _mm512_setzero_ps(); }
  static T load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, T a) { _mm512_storeu_ps(p, a); }
  static T set1(float v) { return _mm512_set1_ps(v); }
  static T fma(T a, T b, T c) { return _mm512_fmadd_ps(a, b, c); }
  static float sum(T a) {
    // Not _mm512_reduce_add_ps: GCC 12 warns of an uninitialized value inside it.
    __m256 h = _mm256_add_ps(_mm512_castps512_ps256(a), _mm512_extractf32x8_ps(a, 1));
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
  }
};
constexpr int kWideNT = 2;  // weight rows per tile when MT > 1

// 16 bytes = 32 nibbles: low nibbles (even fields), then high ones (odd). One
// widening of the bytes to 32-bit lanes serves both halves (the shuffle unit
// is the scarce one).
inline void unpack4(const uint8_t* p, V::T out[2]) {
  const __m512i mask = _mm512_set1_epi32(0x0f);
  __m512i v = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  out[0] = _mm512_cvtepi32_ps(_mm512_and_si512(v, mask));
  out[1] = _mm512_cvtepi32_ps(_mm512_srli_epi32(v, 4));
}
inline void unpack8(const uint8_t* p, V::T out[2]) {
  out[0] = _mm512_cvtepi32_ps(
      _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
  out[1] = _mm512_cvtepi32_ps(
      _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16))));
}
#elif defined(__AVX2__)
struct V {
  using T = __m256;
  static constexpr int W = 8;
  static T zero() { return _mm256_setzero_ps(); }
  static T load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, T a) { _mm256_storeu_ps(p, a); }
  static T set1(float v) { return _mm256_set1_ps(v); }
  static T fma(T a, T b, T c) { return _mm256_fmadd_ps(a, b, c); }
  static float sum(T a) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
  }
};
constexpr int kWideNT = 1;

inline __m256 widen8(__m128i bytes) { return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes)); }
inline void unpack4(const uint8_t* p, V::T out[4]) {
  const __m256i mask = _mm256_set1_epi32(0x0f);
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  __m256i a = _mm256_cvtepu8_epi32(v);                     // bytes 0-7
  __m256i b = _mm256_cvtepu8_epi32(_mm_srli_si128(v, 8));  // bytes 8-15
  out[0] = _mm256_cvtepi32_ps(_mm256_and_si256(a, mask));
  out[1] = _mm256_cvtepi32_ps(_mm256_and_si256(b, mask));
  out[2] = _mm256_cvtepi32_ps(_mm256_srli_epi32(a, 4));
  out[3] = _mm256_cvtepi32_ps(_mm256_srli_epi32(b, 4));
}
inline void unpack8(const uint8_t* p, V::T out[4]) {
  __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
  out[0] = widen8(a);
  out[1] = widen8(_mm_srli_si128(a, 8));
  out[2] = widen8(b);
  out[3] = widen8(_mm_srli_si128(b, 8));
}
#else
// Portable: eight lanes as one GCC vector, which the compiler lowers to the
// baseline instruction set (two SSE registers on x86-64). An array of eight
// floats instead took GCC 76 s to unroll in quantized_matmul.cpp's tiles.
struct V {
  typedef float T __attribute__((vector_size(32)));
  static constexpr int W = 8;
  static T zero() { return T{}; }
  static T load(const float* p) {
    T t;
    std::memcpy(&t, p, sizeof(t));
    return t;
  }
  static void store(float* p, T a) { std::memcpy(p, &a, sizeof(a)); }
  static T set1(float x) { return T{} + x; }
  static T fma(T a, T b, T c) { return c + a * b; }
  static float sum(T a) {
    float s = 0;
    for (int i = 0; i < 8; ++i) s += a[i];
    return s;
  }
};
constexpr int kWideNT = 1;

inline void unpack4(const uint8_t* p, V::T out[4]) {
  for (int i = 0; i < 16; ++i) {
    out[i / 8][i % 8] = static_cast<float>(p[i] & 0x0f);
    out[2 + i / 8][i % 8] = static_cast<float>(p[i] >> 4);
  }
}
inline void unpack8(const uint8_t* p, V::T out[4]) {
  for (int i = 0; i < 32; ++i) out[i / 8][i % 8] = static_cast<float>(p[i]);
}
#endif

// V::W consecutive half-precision values (bfloat16 or float16) as float32: exact.
inline V::T load_half(const uint16_t* p, Elt e) {
#if defined(__AVX512F__)
  __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  if (e == Elt::bf16) return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
  return _mm512_cvtph_ps(h);
#elif defined(__AVX2__)
  __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  if (e == Elt::bf16) return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
  return _mm256_cvtph_ps(h);
#else
  V::T t;
  for (int i = 0; i < V::W; ++i) t[i] = load_elt(p, i, e);
  return t;
#endif
}

// n values from a vector's storage, their start 64-byte aligned: a row of 64
// bytes (an AMX tile row, a vector) is then one cache line, not two.
template <typename T>
T* aligned_values(std::vector<T>& storage, int64_t n) {
  static_assert(64 % sizeof(T) == 0);
  storage.resize(static_cast<size_t>(n) + 64 / sizeof(T));
  const auto address = reinterpret_cast<uintptr_t>(storage.data());
  return storage.data() + ((64 - address % 64) % 64) / sizeof(T);
}

#if defined(__AVX512F__)
// r[c]'s 32-bit value j moved to r[j]'s value c (a 16 x 16 transpose): pairs
// of 32-bit values, then of 64-bit ones, within each 128-bit lane, then the
// lanes (four values of four rows each) as a 4 x 4 transpose of lanes.
inline void transpose16(__m512i r[16]) {
  __m512i t[16], u[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
  }
  // u[4i + q], lane l: rows 4i .. 4i + 3 of column 4l + q.
  for (int i = 0; i < 16; i += 4) {
    u[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
    u[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
    u[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
    u[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
  for (int q = 0; q < 4; ++q) {  // column 4l + q: lane l of u[q], u[4 + q], u[8 + q], u[12 + q]
    const __m512i v0 = _mm512_shuffle_i32x4(u[q], u[4 + q], 0x44);  // lanes 0, 1 of each
    const __m512i v1 = _mm512_shuffle_i32x4(u[q], u[4 + q], 0xEE);  // lanes 2, 3
    const __m512i v2 = _mm512_shuffle_i32x4(u[8 + q], u[12 + q], 0x44);
    const __m512i v3 = _mm512_shuffle_i32x4(u[8 + q], u[12 + q], 0xEE);
    r[q] = _mm512_shuffle_i32x4(v0, v2, 0x88);
    r[4 + q] = _mm512_shuffle_i32x4(v0, v2, 0xDD);
    r[8 + q] = _mm512_shuffle_i32x4(v1, v3, 0x88);
    r[12 + q] = _mm512_shuffle_i32x4(v1, v3, 0xDD);
  }
}
#endif

}  // namespace

}  // namespace mlxd::cpu::MLXD_CPU_ISA
