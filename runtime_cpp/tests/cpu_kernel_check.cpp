// mlxd-cpu-kernel-check-<isa>: our CPU kernels of one instruction set against
// MLX's own ops (tests/runtime_cpp/cpu/test_quantized_matmul.py), and their
// timings beside MLX's (bench/cpu_kernels.py). A test tool: built with the
// test plugins, installed nowhere.
//
//   check: one case a line on stdin, "M N K group_size bits x_dtype scale_dtype layout"
//          (dtypes float32/bfloat16/float16; layout contiguous, strided or batched);
//          one JSON line each on stdout: the largest difference from MLX's
//          quantized_matmul on float32 operands, the largest magnitude there, and
//          the path (quantized_matmul.h: "sgemm" for many rows where OpenBLAS is
//          linked, as in the OpenBLAS plugins; else "tiles").
//   half-check: "M N K w_dtype x_dtype layout [out_dtype [bias]]" lines; x @ w.T of half_matmul.h
//          (+ a bias of N values in x_dtype where the line ends in "bias")
//          (output in x_dtype unless out_dtype says) against MLX's matmul on float32
//          operands, as check does, and the path it took
//          (half_matmul.h's HalfPath: "widened", "bf16_dot", "bf16_gemm" or "amx").
//   half-bench: "M N K dtype" lines; ours against MLX's matmul(x, w.T) in that dtype,
//          and, where more than one path takes the product, each forced:
//          widened_us, bf16_dot_us, bf16_gemm_us, their rounds taken in turn.
//   act-check: "function size dtype layout lo hi [default-min]" lines (functions exp, tanh,
//          sigmoid, erf, silu, gelu, gelu_tanh; layout contiguous, strided or special: x
//          uniform in [lo, hi], transposed, or infinities, NaN and the ends of float32's
//          exponent range); activation.h against the functions in double precision
//          (std::exp, std::tanh, std::erf) rounded to float32: the largest
//          |ours - exact| / (|exact| + atol), atol 1e-6 for float32 and 1e-4 for
//          half outputs (their subnormals); equal values, NaN included, count 0.
//          MLX's own ops are measured the same way (mlx_err). Every size is taken
//          unless default-min asks for the exec functions' floor.
//   act-bench: "function size dtype" lines; ours against MLX's ops in that dtype.
//   attn-check: "B Hq Hk L S D dtype mask layout [path]" lines (mask none, causal, bool,
//          additive, additive_row (one row of S for every query) or dead (boolean, with
//          queries that see no key); layout contiguous, or transposed: q, k and v views of
//          [B, L, H, D]; path auto, vector or amx); attention.h against MLX's ops on float32
//          operands (q k^T * scale, the mask, softmax, v; zeros for a query that sees no
//          key): the largest difference and the largest magnitude there, and the path.
//   norm-check: "kind rows n dtype layout affine" lines (kind layer or rms; layout contiguous
//          or strided (a transposed view); affine none, weight or both (weight and bias));
//          norm.h against MLX's ops on float32 operands: the largest difference and the
//          largest magnitude there.
//   rope-check: "B H T D dims traditional dtype offset layout freqs" lines (traditional 0 or 1;
//          offset a number, or "batch": offsets 5, 300, 7... one per batch entry; layout
//          contiguous, or transposed: a view of [B, T, H, D]; freqs "base" (10000) or
//          "freqs" (dims / 2 frequencies)); rope.h against MLX's fast::rope on float32
//          operands: the largest difference and the largest magnitude there.
//   attn-bench: "B Hq Hk L S D dtype mask" lines; ours against MLX's
//          fast::scaled_dot_product_attention (on float32 operands for half dtypes, as
//          our exec function ran it), and, where AMX runs, each path forced:
//          vector_us and amx_us, their rounds taken in turn.
//   float-check: "M N K b_layout alpha beta [padded]" lines (b_layout nk: B stored [N, K], as a
//          linear layer's weight, or kn: [K, N]; padded: every operand's rows longer than
//          they need); float_gemm.h's C = alpha A op(B) + beta C against the same sums in
//          double precision: the largest difference and the largest magnitude there, and
//          whether the build has the GEMM ("taken").
//   float-bench: "M N K" lines (B stored [N, K]); microseconds per product of ours and of
//          OpenBLAS's sgemm as the OpenBLAS plugins run it (single-threaded calls on blocks
//          of C over our pool; where linked), their rounds taken in turn.
//   bench: "M N K group_size bits dtype" lines; for each, microseconds per product of
//          ours and of MLX's quantized_matmul (as our exec function calls it: half
//          precision widened to float32), on this thread's stream; where ours goes
//          through the sgemm, the tiles too (tiles_us, their rounds taken in turn).
// Prints {"skipped": reason} and nothing else where the processor lacks the
// instructions of this build's kernels.
#include <mlx/mlx.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>
#include <cstdio>
#include <functional>
#include <optional>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>

#include "activation.h"
#include "attention.h"
#include "cpu_features.h"
#include "float_gemm.h"
#include "norm.h"
#include "rope.h"
#include "half_matmul.h"
#include "quantized_matmul.h"
#include "thread_pool.h"
#ifdef MLXD_CHECK_OPENBLAS
#include "openblas_sgemm.h"
#endif

namespace mx = mlx::core;
namespace kernels = mlxd::cpu::MLXD_CPU_ISA;

#define MLXD_STR_(x) #x
#define MLXD_STR(x) MLXD_STR_(x)

namespace {

mlxd::cpu::Variant this_variant() {
  std::string isa = MLXD_STR(MLXD_CPU_ISA);
  if (isa == "avx512") return mlxd::cpu::Variant::avx512;
  if (isa == "avx2") return mlxd::cpu::Variant::avx2;
  return mlxd::cpu::Variant::portable;
}

mx::Dtype dtype_named(const std::string& name) {
  if (name == "bfloat16") return mx::bfloat16;
  if (name == "float16") return mx::float16;
  if (name == "float32") return mx::float32;
  throw std::invalid_argument("unknown dtype " + name);
}

struct Operands {
  mx::array x, w, scales, biases;
};

// A weight [N, K] quantized by MLX, and activations [.., M, K] in x_dtype.
Operands make(int M, int N, int K, int group_size, int bits, mx::Dtype x_dtype,
              mx::Dtype scale_dtype, const std::string& layout, uint64_t seed) {
  mx::array wkey = mx::random::key(2 * seed), xkey = mx::random::key(2 * seed + 1);
  mx::array weight =
      mx::astype(mx::random::normal({N, K}, mx::float32, 0.0f, 0.05f, wkey), scale_dtype);
  auto q = mx::quantize(weight, group_size, bits);
  mx::array x = mx::random::normal({M, K}, mx::float32, xkey);
  if (layout == "strided") {
    x = mx::transpose(mx::random::normal({K, M}, mx::float32, xkey));
  } else if (layout == "batched") {
    x = mx::random::normal({2, M, K}, mx::float32, xkey);
  }
  x = mx::astype(x, x_dtype);
  mx::array w = q[0], scales = q[1], biases = q[2];
  mx::eval({x, w, scales, biases});
  return {x, w, scales, biases};
}

mx::array reference(const Operands& o, int group_size, int bits) {
  return mx::quantized_matmul(mx::astype(o.x, mx::float32), o.w, mx::astype(o.scales, mx::float32),
                              mx::astype(o.biases, mx::float32), true, group_size, bits);
}

int check() {
  std::string line;
  uint64_t seed = 0;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    int M, N, K, gs, bits;
    std::string xd, sd, layout;
    in >> M >> N >> K >> gs >> bits >> xd >> sd >> layout;
    Operands o = make(M, N, K, gs, bits, dtype_named(xd), dtype_named(sd), layout, ++seed);
    auto ours = kernels::quantized_matmul(o.x, o.w, o.scales, o.biases, gs, bits, o.x.dtype());
    if (!ours) {
      std::printf("{\"case\": \"%s\", \"taken\": false}\n", line.c_str());
      continue;
    }
    mx::array ref = reference(o, gs, bits);
    mx::array diff = mx::max(mx::abs(mx::subtract(mx::astype(*ours, mx::float32), ref)));
    mx::array scale = mx::max(mx::abs(ref));
    bool same_shape = ours->shape() == ref.shape();
    mx::eval({diff, scale});
    const bool sgemm = kernels::through_sgemm(static_cast<int64_t>(o.x.size()) / K);
    std::printf(
        "{\"case\": \"%s\", \"taken\": true, \"dtype\": \"%s\", \"same_shape\": %s, "
        "\"path\": \"%s\", \"max_diff\": %.9g, \"max_ref\": %.9g}\n",
        line.c_str(), ours->dtype() == mx::float32 ? "float32" : "half",
        same_shape ? "true" : "false", sgemm ? "sgemm" : "tiles", diff.item<float>(),
        scale.item<float>());
  }
  return 0;
}

// A number as Python's json reads it (Infinity for an infinite error).
std::string json_number(double v) {
  if (std::isinf(v)) return "Infinity";
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", v);
  return text;
}

// The fastest of five rounds of `reps` calls, in microseconds per call: on a
// machine shared with other work, the least disturbed round.
template <typename F>
double micros(F&& f, int reps) {
  f();  // warm-up
  double best = 1e30;
  for (int round = 0; round < 5; ++round) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) f();
    std::chrono::duration<double, std::micro> d = std::chrono::steady_clock::now() - start;
    best = std::min(best, d.count() / reps);
  }
  return best;
}

// Microseconds per call of each of `calls`, each the fastest of nine rounds of
// `reps` calls, their rounds taken in turn: a burst of other work on the
// machine slows all alike, not whichever ran during it.
std::vector<double> micros_in_turn(const std::vector<std::function<void()>>& calls, int reps) {
  auto round = [reps](const std::function<void()>& f) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) f();
    std::chrono::duration<double, std::micro> d = std::chrono::steady_clock::now() - start;
    return d.count() / reps;
  };
  for (const auto& f : calls) f();  // warm-up
  std::vector<double> best(calls.size(), 1e30);
  for (int r = 0; r < 9; ++r) {
    for (size_t i = 0; i < calls.size(); ++i) best[i] = std::min(best[i], round(calls[i]));
  }
  return best;
}

std::pair<double, double> micros_in_turn(const std::function<void()>& a,
                                         const std::function<void()>& b, int reps) {
  std::vector<double> t = micros_in_turn({a, b}, reps);
  return {t[0], t[1]};
}

int bench() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    int M, N, K, gs, bits;
    std::string dt;
    in >> M >> N >> K >> gs >> bits >> dt;
    mx::Dtype dtype = dtype_named(dt);
    Operands o = make(M, N, K, gs, bits, dtype, dtype, "contiguous", 1);
    // Rounds of about 10 ms of ours.
    const double flops = 2.0 * M * N * K;
    const int reps = std::max(3, static_cast<int>(2e8 / std::max(flops, 1.0)));
    auto product = [&] {
      mx::eval(*kernels::quantized_matmul(o.x, o.w, o.scales, o.biases, gs, bits, dtype));
    };
    double ours = micros(product, reps);
    // Where the product goes through the sgemm, the tiles timed too, in turn with it.
    double tiles = -1;
#ifdef MLXD_CHECK_OPENBLAS
    if (kernels::through_sgemm(M)) {
      std::tie(ours, tiles) = micros_in_turn(
          product,
          [&] {
            kernels::set_sgemm(nullptr);
            product();
            kernels::set_sgemm(&kernels::openblas_sgemm_transposed_b);
          },
          reps);
    }
#endif
    bool widen = dtype != mx::float32;
    mx::array s = widen ? mx::astype(o.scales, mx::float32) : o.scales;
    mx::array b = widen ? mx::astype(o.biases, mx::float32) : o.biases;
    double mlx = micros(
        [&] {
          mx::array y = mx::quantized_matmul(widen ? mx::astype(o.x, mx::float32) : o.x, o.w,
                                             widen ? mx::astype(o.scales, mx::float32) : o.scales,
                                             widen ? mx::astype(o.biases, mx::float32) : o.biases,
                                             true, gs, bits);
          mx::eval(widen ? mx::astype(y, dtype) : y);
        },
        std::max(3, reps / 4));
    std::printf(
        "{\"case\": \"%s\", \"ours_us\": %.3f, \"tiles_us\": %.3f, \"mlx_us\": %.3f, "
        "\"threads\": %d}\n",
        line.c_str(), ours, tiles, mlx, kernels::threads());
  }
  return 0;
}

// x [.., M, K] in x_dtype and a weight [N, K] in w_dtype.
std::pair<mx::array, mx::array> make_half(int M, int N, int K, mx::Dtype w_dtype, mx::Dtype x_dtype,
                                          const std::string& layout, uint64_t seed) {
  mx::array wkey = mx::random::key(2 * seed), xkey = mx::random::key(2 * seed + 1);
  mx::array w = mx::astype(mx::random::normal({N, K}, mx::float32, 0.0f, 0.05f, wkey), w_dtype);
  mx::array x = mx::random::normal({M, K}, mx::float32, xkey);
  if (layout == "strided") x = mx::transpose(mx::random::normal({K, M}, mx::float32, xkey));
  if (layout == "batched") x = mx::random::normal({2, M, K}, mx::float32, xkey);
  x = mx::astype(x, x_dtype);
  mx::eval({x, w});
  return {x, w};
}

int half_check() {
  std::string line;
  uint64_t seed = 100;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    int M, N, K;
    std::string wd, xd, layout, od, with_bias;
    in >> M >> N >> K >> wd >> xd >> layout >> od >> with_bias;
    auto [x, w] = make_half(M, N, K, dtype_named(wd), dtype_named(xd), layout, ++seed);
    std::optional<mx::array> bias;
    if (with_bias == "bias") {
      bias =
          mx::astype(mx::random::normal({N}, mx::float32, mx::random::key(seed + 50)), x.dtype());
      mx::eval(*bias);
    }
    auto ours = kernels::half_matmul(x, w, bias, od.empty() ? x.dtype() : dtype_named(od));
    if (!ours) {
      std::printf("{\"case\": \"%s\", \"taken\": false}\n", line.c_str());
      continue;
    }
    mx::array ref =
        mx::matmul(mx::astype(x, mx::float32), mx::transpose(mx::astype(w, mx::float32)));
    if (bias) ref = mx::add(ref, mx::astype(*bias, mx::float32));
    mx::array diff = mx::max(mx::abs(mx::subtract(mx::astype(*ours, mx::float32), ref)));
    mx::array scale = mx::max(mx::abs(ref));
    bool same_shape = ours->shape() == ref.shape();
    mx::eval({diff, scale});
    std::printf(
        "{\"case\": \"%s\", \"taken\": true, \"path\": \"%s\", \"same_shape\": %s, "
        "\"max_diff\": %.9g, \"max_ref\": %.9g}\n",
        line.c_str(), kernels::half_path_name(kernels::half_path(x, w)),
        same_shape ? "true" : "false", diff.item<float>(), scale.item<float>());
  }
  return 0;
}

int half_bench() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    int M, N, K;
    std::string dt;
    in >> M >> N >> K >> dt;
    mx::Dtype dtype = dtype_named(dt);
    auto [x, w] = make_half(M, N, K, dtype, dtype, "contiguous", 1);
    const int reps = std::max(3, static_cast<int>(1e8 / (2.0 * M * N * K)));
    double ours = micros([&] { mx::eval(*kernels::half_matmul(x, w, std::nullopt, dtype)); }, reps);
    double mlx = micros([&] { mx::eval(mx::matmul(x, mx::transpose(w))); }, std::max(3, reps / 4));
    // Each path that takes these operands, forced, their rounds taken in turn.
    using kernels::HalfPath;
    std::vector<std::pair<std::string, std::function<void()>>> forced;
    for (HalfPath path : {HalfPath::widened, HalfPath::bf16_dot, HalfPath::bf16_gemm}) {
      if (kernels::half_matmul(x, w, std::nullopt, dtype, {}, path)) {
        forced.emplace_back(kernels::half_path_name(path), [&x = x, &w = w, dtype, path] {
          mx::eval(*kernels::half_matmul(x, w, std::nullopt, dtype, {}, path));
        });
      }
    }
    std::string paths;
    if (forced.size() > 1) {
      std::vector<std::function<void()>> calls;
      for (auto& [name, call] : forced) calls.push_back(call);
      std::vector<double> times = micros_in_turn(calls, reps);
      for (size_t i = 0; i < forced.size(); ++i) {
        paths += ", \"" + forced[i].first + "_us\": " + json_number(times[i]);
      }
    }
    std::printf(
        "{\"case\": \"%s\", \"path\": \"%s\", \"ours_us\": %.3f, \"mlx_us\": %.3f%s, "
        "\"threads\": %d}\n",
        line.c_str(), kernels::half_path_name(kernels::half_path(x, w)), ours, mlx, paths.c_str(),
        kernels::threads());
  }
  return 0;
}

// Random float32 values, uniform in [-1, 1).
std::vector<float> random_floats(size_t n, uint64_t seed) {
  mx::array v =
      mx::random::uniform(-1.0f, 1.0f, {static_cast<int>(n)}, mx::float32, mx::random::key(seed));
  mx::eval(v);
  return std::vector<float>(v.data<float>(), v.data<float>() + n);
}

int float_check() {
  std::string line;
  uint64_t seed = 300;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    int64_t M, N, K;
    float alpha, beta;
    std::string layout, padded;
    in >> M >> N >> K >> layout >> alpha >> beta >> padded;
    const bool nk = layout == "nk";
    const int64_t pad = padded == "padded" ? 5 : 0;
    const int64_t lda = K + pad, ldb = (nk ? K : N) + pad, ldc = N + pad;
    std::vector<float> a = random_floats(M * lda, ++seed),
                       b = random_floats((nk ? N : K) * ldb, ++seed);
    std::vector<float> c = random_floats(M * ldc, ++seed), before = c;
    if (beta == 0.0f) std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());
    const bool taken =
        kernels::float_gemm(M, N, K, alpha, a.data(), lda, b.data(), ldb, nk, beta, c.data(), ldc);
    double max_diff = 0, max_ref = 0;
    for (int64_t m = 0; m < M && taken; ++m) {
      for (int64_t n = 0; n < N; ++n) {
        double sum = 0;
        for (int64_t k = 0; k < K; ++k) {
          sum += double(a[m * lda + k]) * (nk ? b[n * ldb + k] : b[k * ldb + n]);
        }
        const double ref = alpha * sum + (beta == 0.0f ? 0.0 : beta * double(before[m * ldc + n]));
        const double got = c[m * ldc + n];
        max_diff = std::isnan(got) ? INFINITY : std::max(max_diff, std::abs(got - ref));
        max_ref = std::max(max_ref, std::abs(ref));
      }
    }
    std::printf("{\"case\": \"%s\", \"taken\": %s, \"max_diff\": %s, \"max_ref\": %.9g}\n",
                line.c_str(), taken ? "true" : "false", json_number(max_diff).c_str(), max_ref);
  }
  return 0;
}

int float_bench() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    int64_t M, N, K;
    in >> M >> N >> K;
    std::vector<float> a = random_floats(M * K, 1), b = random_floats(N * K, 2), c(M * N);
    const int reps = std::max(3, static_cast<int>(2e9 / (2.0 * M * N * K)));
    auto ours = [&] {
      kernels::float_gemm(M, N, K, 1.0f, a.data(), K, b.data(), K, true, 0.0f, c.data(), N);
    };
    double openblas = -1, mine = -1;
#ifdef MLXD_CHECK_OPENBLAS
    auto theirs = [&] {  // as the OpenBLAS plugins run it: one thread a block, over our pool
      kernels::parallel_gemm<float>(scipy_cblas_sgemm, CblasRowMajor, CblasNoTrans, CblasTrans, M,
                                    N, K, 1.0f, a.data(), K, b.data(), K, 0.0f, c.data(), N);
    };
    std::tie(mine, openblas) = micros_in_turn(ours, theirs, reps);
#else
    mine = micros(ours, reps);
#endif
    std::printf(
        "{\"case\": \"%s\", \"ours_us\": %.3f, \"openblas_us\": %.3f, \"ours_gflops\": %.1f, "
        "\"threads\": %d}\n",
        line.c_str(), mine, openblas, 2.0 * M * N * K / mine / 1e3, kernels::threads());
  }
  return 0;
}

mlxd::ops::Activation activation_named(const std::string& name) {
  using mlxd::ops::Activation;
  if (name == "exp") return Activation::exp;
  if (name == "tanh") return Activation::tanh;
  if (name == "sigmoid") return Activation::sigmoid;
  if (name == "erf") return Activation::erf;
  if (name == "silu") return Activation::silu;
  if (name == "gelu") return Activation::gelu;
  if (name == "gelu_tanh") return Activation::gelu_tanh;
  throw std::invalid_argument("unknown function " + name);
}

// MLX's ops for f, as the exec functions call them without our kernel.
mx::array mlx_activation(mlxd::ops::Activation f, const mx::array& x) {
  using mlxd::ops::Activation;
  auto c = [&](double v) { return mx::array(v, x.dtype()); };
  switch (f) {
    case Activation::exp:
      return mx::exp(x);
    case Activation::tanh:
      return mx::tanh(x);
    case Activation::sigmoid:
      return mx::sigmoid(x);
    case Activation::erf:
      return mx::erf(x);
    case Activation::silu:
      return mx::multiply(x, mx::sigmoid(x));
    case Activation::gelu:
      return mx::multiply(mx::multiply(c(0.5), x),
                          mx::add(c(1.0), mx::erf(mx::multiply(x, c(M_SQRT1_2)))));
    case Activation::gelu_tanh: {
      mx::array cube = mx::multiply(x, mx::multiply(x, x));
      mx::array inner =
          mx::multiply(c(std::sqrt(2.0 / M_PI)), mx::add(x, mx::multiply(c(0.044715), cube)));
      return mx::multiply(mx::multiply(c(0.5), x), mx::add(c(1.0), mx::tanh(inner)));
    }
  }
  throw std::invalid_argument("unknown function");
}

mx::array activation_input(int size, mx::Dtype dtype, const std::string& layout, float lo, float hi,
                           uint64_t seed) {
  mx::array x = mx::random::uniform(lo, hi, {size}, mx::float32, mx::random::key(seed));
  if (layout == "strided") {
    x = mx::transpose(mx::reshape(x, {size / 8, 8}));  // every value, read across rows
  } else if (layout == "special") {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> ends = {inf,     -inf,  NAN,    0.0f,  -0.0f, 88.5f, -87.0f, 100.0f,
                               -100.0f, 1e-6f, -1e-6f, 0.62f, 0.63f, -9.5f, 9.5f,   3e-3f};
    std::vector<float> values(size);
    for (int i = 0; i < size; ++i) values[i] = ends[i % ends.size()];
    x = mx::array(values.data(), {size}, mx::float32);
  }
  x = mx::astype(x, dtype);
  mx::eval(x);
  return x;
}

double exact(mlxd::ops::Activation f, double x) {
  using mlxd::ops::Activation;
  switch (f) {
    case Activation::exp:
      return std::exp(x);
    case Activation::tanh:
      return std::tanh(x);
    case Activation::sigmoid:
      return 1.0 / (1.0 + std::exp(-x));
    case Activation::erf:
      return std::erf(x);
    case Activation::silu:
      return x / (1.0 + std::exp(-x));
    case Activation::gelu:
      return 0.5 * x * (1.0 + std::erf(x * M_SQRT1_2));
    case Activation::gelu_tanh:
      return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  }
  return NAN;
}

// The largest |y - exact(x)| / (|exact(x)| + atol), exact rounded to float32.
double worst_error(mlxd::ops::Activation f, const mx::array& x, const mx::array& y, double atol) {
  mx::array xf = mx::astype(mx::flatten(x), mx::float32),
            yf = mx::astype(mx::flatten(y), mx::float32);
  mx::eval({xf, yf});
  double worst = 0;
  for (size_t i = 0; i < xf.size(); ++i) {
    double ref = static_cast<float>(exact(f, xf.data<float>()[i]));
    double got = yf.data<float>()[i];
    if (got == ref || (std::isnan(got) && std::isnan(ref))) continue;
    double err = std::abs(got - ref) / (std::abs(ref) + atol);
    worst = std::isnan(err) ? INFINITY : std::max(worst, err);
  }
  return worst;
}

int act_check() {
  std::string line;
  uint64_t seed = 300;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    std::string fn, dt, layout, floor;
    int size;
    float lo, hi;
    in >> fn >> size >> dt >> layout >> lo >> hi >> floor;
    mlxd::ops::Activation f = activation_named(fn);
    bool is_float = dt == "float32" || dt == "bfloat16" || dt == "float16";
    mx::array x =
        activation_input(size, is_float ? dtype_named(dt) : mx::int32, layout, lo, hi, ++seed);
    auto ours = kernels::activation(f, x, floor == "default-min" ? kernels::kActivationMinSize : 1);
    if (!ours) {
      std::printf("{\"case\": \"%s\", \"taken\": false}\n", line.c_str());
      continue;
    }
    double atol = x.dtype() == mx::float32 ? 1e-6 : 1e-4;
    bool same = ours->shape() == x.shape() && ours->dtype() == x.dtype();
    std::printf(
        "{\"case\": \"%s\", \"taken\": true, \"same_shape\": %s, \"max_err\": %s, "
        "\"mlx_err\": %s}\n",
        line.c_str(), same ? "true" : "false", json_number(worst_error(f, x, *ours, atol)).c_str(),
        json_number(worst_error(f, x, mlx_activation(f, x), atol)).c_str());
  }
  return 0;
}

int act_bench() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    std::string fn, dt;
    int size;
    in >> fn >> size >> dt;
    mlxd::ops::Activation f = activation_named(fn);
    mx::array x = activation_input(size, dtype_named(dt), "contiguous", -4.0f, 4.0f, 1);
    const int reps = std::max(3, static_cast<int>(2e7 / size));
    double ours = micros([&] { mx::eval(*kernels::activation(f, x, 1)); }, reps);
    double mlx = micros([&] { mx::eval(mlx_activation(f, x)); }, std::max(3, reps / 4));
    std::printf("{\"case\": \"%s\", \"ours_us\": %.3f, \"mlx_us\": %.3f, \"threads\": %d}\n",
                line.c_str(), ours, mlx, kernels::threads());
  }
  return 0;
}

// ---- attention ----------------------------------------------------------------

struct AttentionCase {
  int B = 0, Hq = 0, Hk = 0, L = 0, S = 0, D = 0;
  mx::Dtype dtype = mx::float32;
  std::string mask, layout, path;
};

AttentionCase attention_case(const std::string& line) {
  AttentionCase c;
  std::string dt;
  std::istringstream in(line);
  in >> c.B >> c.Hq >> c.Hk >> c.L >> c.S >> c.D >> dt >> c.mask >> c.layout >> c.path;
  c.dtype = dtype_named(dt);
  return c;
}

struct AttentionOperands {
  mx::array q, k, v;
  std::optional<mx::array> mask;  // boolean or additive, as the case says
  std::optional<mx::array> sees;  // which keys each query sees, for the reference
};

// [B, H, N, D] in `dtype`; "transposed": a view of [B, N, H, D].
mx::array attention_operand(int B, int H, int N, int D, mx::Dtype dtype, bool transposed,
                            uint64_t seed) {
  mx::array key = mx::random::key(seed);
  if (!transposed) return mx::astype(mx::random::normal({B, H, N, D}, mx::float32, key), dtype);
  return mx::transpose(mx::astype(mx::random::normal({B, N, H, D}, mx::float32, key), dtype),
                       {0, 2, 1, 3});
}

AttentionOperands make_attention(const AttentionCase& c, uint64_t seed) {
  const bool t = c.layout == "transposed";
  AttentionOperands o{attention_operand(c.B, c.Hq, c.L, c.D, c.dtype, t, 3 * seed),
                      attention_operand(c.B, c.Hk, c.S, c.D, c.dtype, t, 3 * seed + 1),
                      attention_operand(c.B, c.Hk, c.S, c.D, c.dtype, t, 3 * seed + 2),
                      std::nullopt, std::nullopt};
  mx::array rows = mx::reshape(mx::arange(c.L), {-1, 1});
  mx::array cols = mx::reshape(mx::arange(c.S), {1, -1});
  mx::array mkey = mx::random::key(3 * seed + 7);
  if (c.mask == "causal") {
    o.sees = mx::less_equal(cols, mx::add(rows, mx::array(c.S - c.L)));
  } else if (c.mask == "bool") {
    o.mask = mx::random::bernoulli(mx::array(0.7f), {c.B, 1, c.L, c.S}, mkey);
  } else if (c.mask == "dead") {
    // Queries 0 and 3 see no key; the rest some.
    mx::array keep = mx::random::bernoulli(mx::array(0.5f), {c.L, c.S}, mkey);
    mx::array dead = mx::logical_or(mx::equal(rows, mx::array(0)), mx::equal(rows, mx::array(3)));
    o.mask = mx::logical_and(keep, mx::logical_not(dead));
  } else if (c.mask == "additive") {
    o.mask = mx::astype(mx::random::normal({c.B, c.Hq, c.L, c.S}, mx::float32, mkey), c.dtype);
  } else if (c.mask == "additive_row") {
    o.mask = mx::random::normal({1, 1, 1, c.S}, mx::float32, mkey);
  }
  if (o.mask && o.mask->dtype() == mx::bool_) o.sees = o.mask;
  mx::eval({o.q, o.k, o.v});
  if (o.mask) mx::eval(*o.mask);
  return o;
}

mx::array attention_reference(const AttentionOperands& o, const AttentionCase& c, float scale) {
  mx::array q = mx::astype(o.q, mx::float32), k = mx::astype(o.k, mx::float32);
  mx::array v = mx::astype(o.v, mx::float32);
  const int G = c.Hq / c.Hk;
  k = mx::repeat(k, G, 1);
  v = mx::repeat(v, G, 1);
  mx::array scores = mx::multiply(mx::matmul(q, mx::swapaxes(k, -1, -2)), mx::array(scale));
  const mx::array lowest(-std::numeric_limits<float>::infinity());
  if (o.mask && o.mask->dtype() != mx::bool_) {
    scores = mx::add(scores, mx::astype(*o.mask, mx::float32));
  }
  if (o.sees) scores = mx::where(*o.sees, scores, lowest);
  mx::array out = mx::matmul(mx::softmax(scores, -1), v);
  if (o.sees) out = mx::where(mx::any(*o.sees, -1, true), out, mx::array(0.0f));
  return out;
}

std::optional<kernels::AttentionPath> path_named(const std::string& name) {
  if (name == "vector") return kernels::AttentionPath::vector;
  if (name == "amx") return kernels::AttentionPath::amx;
  return std::nullopt;
}

int attn_check() {
  std::string line;
  uint64_t seed = 500;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    AttentionCase c = attention_case(line);
    AttentionOperands o = make_attention(c, ++seed);
    const float scale = 1.0f / std::sqrt(static_cast<float>(c.D));
    auto path = path_named(c.path);
    auto ours = kernels::attention(o.q, o.k, o.v, scale, c.mask == "causal", o.mask, {}, path);
    if (!ours) {
      std::printf("{\"case\": \"%s\", \"taken\": false}\n", line.c_str());
      continue;
    }
    mx::array ref = attention_reference(o, c, scale);
    mx::array diff = mx::max(mx::abs(mx::subtract(mx::astype(*ours, mx::float32), ref)));
    mx::array most = mx::max(mx::abs(ref));
    const bool same = ours->shape() == ref.shape() && ours->dtype() == c.dtype;
    mx::eval({diff, most});
    std::printf(
        "{\"case\": \"%s\", \"taken\": true, \"path\": \"%s\", \"same_shape\": %s, "
        "\"max_diff\": %s, \"max_ref\": %.9g}\n",
        line.c_str(), kernels::attention_path_name(path.value_or(kernels::attention_path(o.q))),
        same ? "true" : "false", json_number(diff.item<float>()).c_str(), most.item<float>());
  }
  return 0;
}

int attn_bench() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    AttentionCase c = attention_case(line + " contiguous");
    AttentionOperands o = make_attention(c, 1);
    const float scale = 1.0f / std::sqrt(static_cast<float>(c.D));
    const bool causal = c.mask == "causal";
    const double flops = 4.0 * c.B * c.Hq * c.L * c.S * c.D;
    const int reps = std::max(3, static_cast<int>(2e8 / flops));
    auto ours = [&](std::optional<kernels::AttentionPath> path) {
      mx::eval(*kernels::attention(o.q, o.k, o.v, scale, causal, o.mask, {}, path));
    };
    const bool widen = c.dtype != mx::float32;
    auto wide = [widen](const mx::array& a) { return widen ? mx::astype(a, mx::float32) : a; };
    double ours_us = micros([&] { ours(std::nullopt); }, reps);
    double mlx_us = micros(
        [&] {
          std::optional<mx::array> m = o.mask;
          if (m && m->dtype() != mx::bool_) m = wide(*m);
          mx::array y = mx::fast::scaled_dot_product_attention(
              wide(o.q), wide(o.k), wide(o.v), scale, causal ? "causal" : (m ? "array" : ""), m);
          mx::eval(widen ? mx::astype(y, c.dtype) : y);
        },
        std::max(3, reps / 4));
    std::string paths;
    if (kernels::attention(o.q, o.k, o.v, scale, causal, o.mask, {}, kernels::AttentionPath::amx)) {
      auto [vec, amx] = micros_in_turn([&] { ours(kernels::AttentionPath::vector); },
                                       [&] { ours(kernels::AttentionPath::amx); }, reps);
      paths = ", \"vector_us\": " + json_number(vec) + ", \"amx_us\": " + json_number(amx);
    }
    std::printf(
        "{\"case\": \"%s\", \"path\": \"%s\", \"ours_us\": %.3f, \"mlx_us\": %.3f, "
        "\"ours_gflops\": %.1f%s, \"threads\": %d}\n",
        line.c_str(), kernels::attention_path_name(kernels::attention_path(o.q)), ours_us, mlx_us,
        flops / ours_us / 1e3, paths.c_str(), kernels::threads());
  }
  return 0;
}

// ---- norms --------------------------------------------------------------------

// A case the kernel took: the largest difference of `ours` from the float32
// reference and the largest magnitude there, and whether ours has the
// reference's shape and the case's dtype.
void print_taken(const std::string& line, const mx::array& ours, const mx::array& ref,
                 mx::Dtype dtype) {
  mx::array diff = mx::max(mx::abs(mx::subtract(mx::astype(ours, mx::float32), ref)));
  mx::array most = mx::max(mx::abs(ref));
  const bool same = ours.shape() == ref.shape() && ours.dtype() == dtype;
  mx::eval({diff, most});
  std::printf(
      "{\"case\": \"%s\", \"taken\": true, \"same_shape\": %s, \"max_diff\": %s, "
      "\"max_ref\": %.9g}\n",
      line.c_str(), same ? "true" : "false", json_number(diff.item<float>()).c_str(),
      most.item<float>());
}

int norm_check() {
  std::string line;
  uint64_t seed = 900;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    std::string kind_name, dt, layout, affine;
    int rows = 0, n = 0;
    in >> kind_name >> rows >> n >> dt >> layout >> affine;
    const mx::Dtype dtype = dtype_named(dt);
    const auto kind = kind_name == "rms" ? mlxd::ops::Norm::rms : mlxd::ops::Norm::layer;
    ++seed;
    mx::array x =
        layout == "strided"
            ? mx::transpose(
                  mx::random::normal({n, rows}, mx::float32, 0.5f, 2.0f, mx::random::key(3 * seed)))
            : mx::random::normal({rows, n}, mx::float32, 0.5f, 2.0f, mx::random::key(3 * seed));
    x = mx::astype(x, dtype);
    std::optional<mx::array> w, b;
    if (affine != "none")
      w = mx::astype(mx::random::normal({n}, mx::float32, mx::random::key(3 * seed + 1)), dtype);
    if (affine == "both")
      b = mx::astype(mx::random::normal({n}, mx::float32, mx::random::key(3 * seed + 2)), dtype);
    mx::eval(x);
    const float eps = 1e-5f;
    auto ours = kernels::norm(kind, x, w, b, eps, 0);
    if (!ours) {
      std::printf("{\"case\": \"%s\", \"taken\": false}\n", line.c_str());
      continue;
    }
    mx::array xf = mx::astype(x, mx::float32);
    mx::array mean = kind == mlxd::ops::Norm::layer ? mx::mean(xf, -1, true) : mx::array(0.0f);
    mx::array centred = mx::subtract(xf, mean);
    mx::array ref = mx::multiply(
        centred, mx::rsqrt(mx::add(mx::mean(mx::square(centred), -1, true), mx::array(eps))));
    if (w) ref = mx::multiply(ref, mx::astype(*w, mx::float32));
    if (b) ref = mx::add(ref, mx::astype(*b, mx::float32));
    print_taken(line, *ours, ref, dtype);
  }
  return 0;
}
// ---- rope ---------------------------------------------------------------------

int rope_check() {
  std::string line;
  uint64_t seed = 1300;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    std::string dt, offset_name, layout, freqs_name;
    int B = 0, H = 0, T = 0, D = 0, dims = 0, traditional = 0;
    in >> B >> H >> T >> D >> dims >> traditional >> dt >> offset_name >> layout >> freqs_name;
    const mx::Dtype dtype = dtype_named(dt);
    ++seed;
    mx::array x = layout == "transposed"
                      ? mx::transpose(mx::random::normal({B, T, H, D}, mx::float32,
                                                         mx::random::key(2 * seed)),
                                      {0, 2, 1, 3})
                      : mx::random::normal({B, H, T, D}, mx::float32, mx::random::key(2 * seed));
    x = mx::astype(x, dtype);
    std::vector<int32_t> per_batch;
    for (int b = 0; b < B; ++b) per_batch.push_back(b % 2 ? 300 + b : 5 + 2 * b);
    mx::array offset = offset_name == "batch" ? mx::array(per_batch.data(), {B}, mx::int32)
                                              : mx::array(std::stoi(offset_name), mx::int32);
    std::optional<float> base;
    std::optional<mx::array> freqs;
    if (freqs_name == "freqs") {
      freqs = mx::multiply(
          mx::power(mx::array(500000.0f), mx::divide(mx::arange(0, dims, 2, mx::float32),
                                                     mx::array(static_cast<float>(dims)))),
          mx::array(1.5f));
    } else {
      base = 10000.0f;
    }
    const float scale = 0.75f;
    mx::eval(x, offset);
    if (freqs) mx::eval(*freqs);
    auto ours = kernels::rope(x, dims, traditional != 0, base, scale, offset, freqs);
    if (!ours) {
      std::printf("{\"case\": \"%s\", \"taken\": false}\n", line.c_str());
      continue;
    }
    mx::array ref = mx::fast::rope(mx::astype(x, mx::float32), dims, traditional != 0, base, scale,
                                   offset, freqs);
    print_taken(line, *ours, ref, dtype);
  }
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  std::string missing = mlxd::cpu::missing_features(this_variant(), mlxd::cpu::current_features());
  if (!missing.empty()) {
    std::printf("{\"skipped\": \"this processor lacks %s\"}\n", missing.c_str());
    return 0;
  }
  mx::set_default_device(mx::Device(mx::Device::cpu));
#ifdef MLXD_CHECK_OPENBLAS
  kernels::use_openblas();  // as the OpenBLAS plugins run the kernels
#endif
  if (mode == "check") return check();
  if (mode == "bench") return bench();
  if (mode == "half-check") return half_check();
  if (mode == "half-bench") return half_bench();
  if (mode == "float-check") return float_check();
  if (mode == "float-bench") return float_bench();
  if (mode == "act-check") return act_check();
  if (mode == "act-bench") return act_bench();
  if (mode == "attn-check") return attn_check();
  if (mode == "attn-bench") return attn_bench();
  if (mode == "norm-check") return norm_check();
  if (mode == "rope-check") return rope_check();
  std::fprintf(stderr,
               "usage: %s check|bench|half-check|half-bench|float-check|float-bench|act-check|"
               "act-bench|attn-check|"
               "attn-bench|norm-check|rope-check < cases\n",
               argv[0]);
  return 2;
}
