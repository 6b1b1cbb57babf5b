// Products with a half-precision weight on the CPU: y[..., n] = sum_k x[..., k] * w[n, k],
// w bfloat16 or float16 [N, K], as a linear layer computes it (x @ w.T), for a
// decode step or a short prompt. Each weight value widens to float32 in
// registers (exactly) and the sums accumulate in float32, rounded once to the
// output's dtype. MLX 0.32's CPU matmul in half precision instead copies both
// operands to float32 on every call: the whole weight, for one row.
//
// bfloat16 activations by a bfloat16 weight, in the AVX-512 variant on a
// processor with AVX-512 BF16 (cpu_features.h), take vdpbf16ps instead: both
// operands stay bfloat16, each instruction multiplies 32 pairs into 16 float32
// sums (HalfPath::bf16_dot). With kAmxMinRows rows or more (a prompt, an
// audio window), on a processor with AMX, the products run in its tile registers
// instead (HalfPath::amx); without AMX, from kBf16GemmMinRows rows, vdpbf16ps
// runs on register tiles of many rows (HalfPath::bf16_gemm). Both take any
// number of rows.
//
// An MLX primitive (HalfMatmulCpu), compiled per variant like quantized_matmul.h.
#pragma once

#include <mlx/mlx.h>

#include <optional>

#ifndef MLXD_CPU_ISA
#error "MLXD_CPU_ISA (the kernels' instruction set: portable, avx2, avx512) must be defined"
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace mx = mlx::core;

// The most rows of x the vector paths take (a prompt's chunk of up to 128 tokens);
// more go to MLX's product, which copies the weight to float32 once for them,
// unless the AMX path takes them.
inline constexpr int kHalfMatmulMaxRows = 128;

// The fewest rows the AMX path takes: a tile's 16 (fewer would be padding).
inline constexpr int kAmxMinRows = 16;

// The fewest rows the bf16 GEMM takes: 3072 x 768 on two threads, AMD EPYC, 4
// rows 0.104 ms against the bf16 dot's 0.089, 8 rows 0.128 against 0.162.
inline constexpr int kBf16GemmMinRows = 8;

// Whether the kernel takes this product: a 2-D bfloat16/float16 weight already
// evaluated and row-contiguous, float32/bfloat16/float16 activations of at most
// kHalfMatmulMaxRows rows, or of any number that the AMX path or the bf16 GEMM takes, and a bias
// (if any) of N values in one of those dtypes.
bool half_supports(const mx::array& x, const mx::array& w,
                   const std::optional<mx::array>& bias = std::nullopt);

// How a product runs: each weight vector widened to float32 against float32
// activations, bfloat16 pairs through vdpbf16ps (a few rows: bf16_dot; many:
// bf16_gemm), or bfloat16 tiles through AMX.
enum class HalfPath { widened, bf16_dot, bf16_gemm, amx };

const char* half_path_name(HalfPath path);

// The path half_matmul takes for these operands on this processor.
HalfPath half_path(const mx::array& x, const mx::array& w);

// x @ w.T (+ bias) accumulated in float32, rounded once to `out_dtype`; std::nullopt when
// `half_supports` says no or the stream is not the CPU's. `path` forces one (the
// kernel check tool times both); std::nullopt also when the bf16 dot is forced
// where it cannot run (other dtypes, a processor without AVX-512 BF16), when
// AMX or the bf16 GEMM is forced where it cannot, or another path with more than
// kHalfMatmulMaxRows rows.
std::optional<mx::array> half_matmul(const mx::array& x, const mx::array& w,
                                     const std::optional<mx::array>& bias, mx::Dtype out_dtype,
                                     mx::StreamOrDevice s = {},
                                     std::optional<HalfPath> path = std::nullopt);

}  // namespace mlxd::cpu::MLXD_CPU_ISA
