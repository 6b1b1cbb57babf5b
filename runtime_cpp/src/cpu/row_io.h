// A row of a tensor of any float dtype and strides read into float32, and
// float32 values rounded once into an output row: what the row-wise kernels
// (norm.cpp, rope.cpp) share. Included by the kernels' .cpp files only.
#pragma once

#include <cstdint>
#include <cstring>

#include "kernel_util.h"
#include "vector_math.h"

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

// n values from `from` (element stride `step`) as float32.
inline void row_as_float(const void* from, int64_t step, Elt e, int64_t n, float* to) {
  if (step == 1 && e == Elt::f32) {
    std::memcpy(to, from, static_cast<size_t>(n) * sizeof(float));
    return;
  }
  int64_t j = 0;
  if (step == 1 && e == Elt::bf16) {
    for (; j + kLanes <= n; j += kLanes) {
      vf v = load_bf16(static_cast<const uint16_t*>(from) + j);
      std::memcpy(to + j, &v, sizeof(v));
    }
  }
  for (; j < n; ++j) to[j] = load_elt(from, j * step, e);
}

// from[0, n) rounded into elements [at, at + n) of a contiguous `out`.
inline void float_as_row(const float* from, int64_t n, void* out, int64_t at, Elt e) {
  if (e == Elt::f32) {
    std::memcpy(static_cast<float*>(out) + at, from, static_cast<size_t>(n) * sizeof(float));
    return;
  }
  int64_t j = 0;
  if (e == Elt::bf16) {
    for (; j + kLanes <= n; j += kLanes) {
      vf v;
      std::memcpy(&v, from + j, sizeof(v));
      store_bf16(static_cast<uint16_t*>(out) + at + j, v);
    }
  }
  for (; j < n; ++j) store_elt(out, at + j, e, from[j]);
}

}  // namespace

}  // namespace mlxd::cpu::MLXD_CPU_ISA
