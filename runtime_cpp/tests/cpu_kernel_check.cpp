// mlxd-cpu-kernel-check-<isa>: our CPU kernels of one instruction set against
// MLX's own ops (tests/runtime_cpp/cpu/test_quantized_matmul.py), and their
// timings beside MLX's (bench/cpu_kernels.py). A test tool: built with the
// test plugins, installed nowhere.
//
//   check: one case a line on stdin, "M N K group_size bits x_dtype scale_dtype layout"
//          (dtypes float32/bfloat16/float16; layout contiguous, strided or batched);
//          one JSON line each on stdout: the largest difference from MLX's
//          quantized_matmul on float32 operands, and the largest magnitude there.
//   half-check: "M N K w_dtype x_dtype layout [out_dtype]" lines; x @ w.T of half_matmul.h
//          (output in x_dtype unless out_dtype says) against MLX's matmul on float32
//          operands, as check does, and the path it took
//          ("widened" or "bf16_dot", half_matmul.h's HalfPath).
//   half-bench: "M N K dtype" lines; ours against MLX's matmul(x, w.T) in that dtype,
//          and, where the bf16 dot runs (bfloat16 on AVX-512 BF16), each path
//          forced: widened_us and bf16_dot_us, their rounds taken in turn.
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
//   bench: "M N K group_size bits dtype" lines; for each, microseconds per product of
//          ours and of MLX's quantized_matmul (as our exec function calls it: half
//          precision widened to float32), on this thread's stream.
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
#include <iostream>
#include <sstream>
#include <string>

#include "activation.h"
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

// Microseconds per call of a and of b, each the fastest of nine rounds of
// `reps` calls, their rounds taken in turn: a burst of other work on the
// machine slows both alike, not whichever ran during it.
std::pair<double, double> micros_in_turn(const std::function<void()>& a,
                                         const std::function<void()>& b, int reps) {
  auto round = [reps](const std::function<void()>& f) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) f();
    std::chrono::duration<double, std::micro> d = std::chrono::steady_clock::now() - start;
    return d.count() / reps;
  };
  a();  // warm-up
  b();
  double best_a = 1e30, best_b = 1e30;
  for (int r = 0; r < 9; ++r) {
    best_a = std::min(best_a, round(a));
    best_b = std::min(best_b, round(b));
  }
  return {best_a, best_b};
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
    std::string wd, xd, layout, od;
    in >> M >> N >> K >> wd >> xd >> layout >> od;
    auto [x, w] = make_half(M, N, K, dtype_named(wd), dtype_named(xd), layout, ++seed);
    auto ours = kernels::half_matmul(x, w, od.empty() ? x.dtype() : dtype_named(od));
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
    double ours = micros([&] { mx::eval(*kernels::half_matmul(x, w, dtype)); }, reps);
    double mlx = micros([&] { mx::eval(mx::matmul(x, mx::transpose(w))); }, std::max(3, reps / 4));
    std::string paths;
    using kernels::HalfPath;
    if (kernels::half_matmul(x, w, dtype, {}, HalfPath::bf16_dot)) {
      auto [widened, dot] = micros_in_turn(
          [&] { mx::eval(*kernels::half_matmul(x, w, dtype, {}, HalfPath::widened)); },
          [&] { mx::eval(*kernels::half_matmul(x, w, dtype, {}, HalfPath::bf16_dot)); }, reps);
      paths =
          ", \"widened_us\": " + json_number(widened) + ", \"bf16_dot_us\": " + json_number(dot);
    }
    std::printf(
        "{\"case\": \"%s\", \"path\": \"%s\", \"ours_us\": %.3f, \"mlx_us\": %.3f%s, "
        "\"threads\": %d}\n",
        line.c_str(), kernels::half_path_name(kernels::half_path(x, w)), ours, mlx, paths.c_str(),
        kernels::threads());
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
  if (mode == "act-check") return act_check();
  if (mode == "act-bench") return act_bench();
  std::fprintf(stderr, "usage: %s check|bench|half-check|half-bench|act-check|act-bench < cases\n",
               argv[0]);
  return 2;
}
