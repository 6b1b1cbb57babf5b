// Attention on the CPU, fused: softmax(q k^T * scale + mask) v for a block of
// 32 queries at a time, whose scores (32 rows of every key) stay in the cache,
// instead of a head's whole score matrix written to memory and read three
// times, as two products around a softmax do (a Whisper window: 1500 x 1500
// scores a head, 9 MB). Two ways through a block (AttentionPath): products of
// float32 vectors, any dtype widened once; or, bfloat16 q, k and v on a
// processor with AMX, both products in its tiles (amx.h), the probabilities
// rounded to bfloat16 for the second as the tiles want them. A few queries (a
// decode step) read the keys and values where they lie instead.
//
// An MLX primitive (AttentionCpu), compiled per variant like half_matmul.h.
#pragma once

#include <mlx/mlx.h>

#include <optional>

#ifndef MLXD_CPU_ISA
#error "MLXD_CPU_ISA (the kernels' instruction set: portable, avx2, avx512) must be defined"
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace mx = mlx::core;

// Queries up to which each reads the keys and values itself
// (AttentionPath::direct): laying them out for the products would cost about as
// much as reading them once a query. A decode step has one.
inline constexpr int kDirectMaxQueries = 4;

// How a call runs: each query straight from the key and value rows, blocks of
// queries by laid-out keys in float32 vectors, or in AMX tiles.
enum class AttentionPath { direct, vector, amx };

const char* attention_path_name(AttentionPath path);

// The path attention() takes for these queries on this processor.
AttentionPath attention_path(const mx::array& q);

// Whether the kernel takes these operands: q [B, Hq, L, D], k and v [B, Hk, S, D]
// of one dtype (float32, bfloat16 or float16; any strides, any head size), Hq a
// multiple of Hk, and a mask (if any) boolean or floating, broadcastable to
// [B, Hq, L, S].
bool attention_supports(const mx::array& q, const mx::array& k, const mx::array& v,
                        const std::optional<mx::array>& mask);

// softmax(q k^T * scale + mask) v in q's dtype, [B, Hq, L, D]; query head h reads
// key head h / (Hq / Hk). A boolean mask keeps its true entries, a floating one
// is added to the scaled scores; `causal` keeps key j for query i where
// j <= i + S - L (bottom-right aligned, as MLX's causal mode). A query that
// sees no key gives zeros. std::nullopt when attention_supports says no, the
// stream is not the CPU's, or `path` forces AMX where it cannot run (a forced
// vector or AMX path takes a few queries too).
std::optional<mx::array> attention(const mx::array& q, const mx::array& k, const mx::array& v,
                                   float scale, bool causal, const std::optional<mx::array>& mask,
                                   mx::StreamOrDevice s = {},
                                   std::optional<AttentionPath> path = std::nullopt);

}  // namespace mlxd::cpu::MLXD_CPU_ISA
