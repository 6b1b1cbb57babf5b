// mlxd-cpu-kernel-check-<isa>: our CPU kernels of one instruction set against
// MLX's own ops (tests/runtime_cpp/cpu/test_quantized_matmul.py), and their
// timings beside MLX's (bench/cpu_kernels.py). A test tool: built with the
// test plugins, installed nowhere.
//
//   check: one case a line on stdin, "M N K group_size bits x_dtype scale_dtype layout"
//          (dtypes float32/bfloat16/float16; layout contiguous, strided or batched);
//          one JSON line each on stdout: the largest difference from MLX's
//          quantized_matmul on float32 operands, and the largest magnitude there.
//   half-check: "M N K w_dtype x_dtype layout" lines; x @ w.T of half_matmul.h against
//          MLX's matmul on float32 operands, as check does.
//   half-bench: "M N K dtype" lines; ours against MLX's matmul(x, w.T) in that dtype.
//   bench: "M N K group_size bits dtype" lines; for each, microseconds per product of
//          ours and of MLX's quantized_matmul (as our exec function calls it: half
//          precision widened to float32), on this thread's stream.
// Prints {"skipped": reason} and nothing else where the processor lacks the
// instructions of this build's kernels.
#include <mlx/mlx.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "cpu_features.h"
#include "half_matmul.h"
#include "quantized_matmul.h"
#include "thread_pool.h"

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
    std::printf(
        "{\"case\": \"%s\", \"taken\": true, \"dtype\": \"%s\", \"same_shape\": %s, "
        "\"max_diff\": %.9g, \"max_ref\": %.9g}\n",
        line.c_str(), ours->dtype() == mx::float32 ? "float32" : "half",
        same_shape ? "true" : "false", diff.item<float>(), scale.item<float>());
  }
  return 0;
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
    double ours = micros(
        [&] {
          mx::eval(*kernels::quantized_matmul(o.x, o.w, o.scales, o.biases, gs, bits, dtype));
        },
        reps);
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
    std::printf("{\"case\": \"%s\", \"ours_us\": %.3f, \"mlx_us\": %.3f, \"threads\": %d}\n",
                line.c_str(), ours, mlx, kernels::threads());
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
    std::string wd, xd, layout;
    in >> M >> N >> K >> wd >> xd >> layout;
    auto [x, w] = make_half(M, N, K, dtype_named(wd), dtype_named(xd), layout, ++seed);
    auto ours = kernels::half_matmul(x, w, x.dtype());
    if (!ours) {
      std::printf("{\"case\": \"%s\", \"taken\": false}\n", line.c_str());
      continue;
    }
    mx::array ref =
        mx::matmul(mx::astype(x, mx::float32), mx::transpose(mx::astype(w, mx::float32)));
    mx::array diff = mx::max(mx::abs(mx::subtract(mx::astype(*ours, mx::float32), ref)));
    mx::array scale = mx::max(mx::abs(ref));
    bool same_shape = ours->shape() == ref.shape();
    mx::eval({diff, scale});
    std::printf(
        "{\"case\": \"%s\", \"taken\": true, \"same_shape\": %s, \"max_diff\": %.9g, "
        "\"max_ref\": %.9g}\n",
        line.c_str(), same_shape ? "true" : "false", diff.item<float>(), scale.item<float>());
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
    double ours = micros([&] { mx::eval(*kernels::half_matmul(x, w, dtype)); }, reps);
    double mlx = micros([&] { mx::eval(mx::matmul(x, mx::transpose(w))); }, std::max(3, reps / 4));
    std::printf("{\"case\": \"%s\", \"ours_us\": %.3f, \"mlx_us\": %.3f, \"threads\": %d}\n",
                line.c_str(), ours, mlx, kernels::threads());
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
  if (mode == "check") return check();
  if (mode == "bench") return bench();
  if (mode == "half-check") return half_check();
  if (mode == "half-bench") return half_bench();
  std::fprintf(stderr, "usage: %s check|bench < cases\n", argv[0]);
  return 2;
}
