// AMX's tile registers as our bfloat16 kernels use them (half_matmul.cpp,
// attention.cpp): eight tiles, each configured as 16 rows of 64 bytes
// (32 bfloat16 values, or 16 float32 sums), and tdpbf16ps, which adds to a
// 16 x 16 float32 tile the products of a 16 x 32 bfloat16 tile A by a tile B
// holding 32 values of the shared axis for 16 columns, laid out in pairs: B's
// row r, column c holds the column's values 2r and 2r + 1. It rounds to nearest
// even and takes subnormals as zero. Linux lends the tile registers to a
// process that asks (arch_prctl), once; each thread loads the tile
// configuration before its tiles and releases them after.
// Included by the kernels' .cpp files only.
#pragma once

#include <cstdint>

#if defined(__AVX512F__)
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "cpu_features.h"

#ifndef MLXD_CPU_ISA
#error "MLXD_CPU_ISA (the kernels' instruction set: portable, avx2, avx512) must be defined"
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

#if defined(__AVX512F__)
namespace amx {

constexpr int kRows = 16;  // rows of a tile
constexpr int kK = 32;     // bfloat16 values of a tile row (64 bytes)

struct alignas(64) TileConfig {
  uint8_t palette = 1;
  uint8_t start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

// All eight tiles 16 rows of 64 bytes.
__attribute__((target("amx-tile"))) inline void configure_tiles() {
  TileConfig config;
  for (int t = 0; t < 8; ++t) {
    config.rows[t] = kRows;
    config.colsb[t] = 64;
  }
  _tile_loadconfig(&config);
}

inline bool tiles_granted() {
  static const bool granted = [] {
    constexpr long kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
    return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
  }();
  return granted;
}

}  // namespace amx
#endif

// Whether this processor runs the AMX paths: its report (or the forced one:
// MLX_DELEGATE_CPU_FEATURES turns them off, it cannot turn on what the
// processor lacks) and Linux's grant of the tile registers.
inline bool amx_here() {
#if defined(__AVX512F__)
  static const bool here = [] {
    const Features forced = current_features(), real = processor_features();
    auto has = [](const Features& f) { return f.amx_tile && f.amx_bf16 && f.os_amx; };
    return has(forced) && has(real) && real.avx512bf16 && amx::tiles_granted();
  }();
  return here;
#else
  return false;
#endif
}

}  // namespace

}  // namespace mlxd::cpu::MLXD_CPU_ISA
