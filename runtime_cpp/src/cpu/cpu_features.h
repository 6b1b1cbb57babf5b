// What the processor reports about its instruction sets, and which of our CPU
// variants can run on it. Header-only and free of MLX: the plugin fronts score
// with it (they map no MLX), the kernel check tool picks the kernels it runs.
//
// x86: cpuid leaves 1 and 7 for the instructions, xgetbv for the registers the
// operating system saves (an AVX-512 processor whose kernel does not save the
// zmm state cannot run AVX-512 code). Arm: getauxval's hwcaps.
//
// MLX_DELEGATE_CPU_FEATURES (comma-separated names of `feature_names()`)
// replaces the report, so that a test can play a processor that lacks what this
// one has (the score-0 path of a variant).
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define MLXD_CPU_X86 1
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#define MLXD_CPU_ARM 1
#endif

namespace mlxd::cpu {

// The features a variant may need: x86-64 micro-architecture levels v3 (AVX2)
// and v4 (AVX-512); the AVX-512 extensions VNNI and BF16, AMX (its tiles, their
// bfloat16 products, and whether the OS saves the tile state) and the Arm
// hwcaps are read and listed: no variant needs them, the AVX-512 variant's
// kernels take them where they are.
// clang-format off
#define MLXD_CPU_FOR_EACH_FEATURE(X)                                                    \
  X(avx) X(avx2) X(fma) X(f16c) X(bmi1) X(bmi2) X(lzcnt) X(movbe) X(os_ymm)             \
  X(avx512f) X(avx512bw) X(avx512cd) X(avx512dq) X(avx512vl) X(avx512vnni) X(avx512bf16) \
  X(os_zmm) X(amx_tile) X(amx_bf16) X(os_amx) X(neon) X(asimddp) X(i8mm) X(bf16)
// clang-format on

struct Features {
#define MLXD_CPU_FIELD(name) bool name = false;
  MLXD_CPU_FOR_EACH_FEATURE(MLXD_CPU_FIELD)
#undef MLXD_CPU_FIELD
};

inline std::vector<std::string> feature_names(const Features& f) {
  std::vector<std::string> names;
#define MLXD_CPU_NAME(name) \
  if (f.name) names.push_back(#name);
  MLXD_CPU_FOR_EACH_FEATURE(MLXD_CPU_NAME)
#undef MLXD_CPU_NAME
  return names;
}

// The processor's own report.
inline Features processor_features() {
  Features f;
#if defined(MLXD_CPU_X86)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return f;
  const unsigned max_leaf = a;
  __cpuid(1, a, b, c, d);
  f.fma = (c >> 12) & 1;
  f.movbe = (c >> 22) & 1;
  const bool osxsave = (c >> 27) & 1;
  f.avx = (c >> 28) & 1;
  f.f16c = (c >> 29) & 1;
  unsigned long long xcr0 = 0;
  if (osxsave) {
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (static_cast<unsigned long long>(hi) << 32) | lo;
  }
  f.os_ymm = (xcr0 & 0x6) == 0x6;          // SSE and AVX state
  f.os_zmm = (xcr0 & 0xe6) == 0xe6;        // and opmask, ZMM0-15 upper halves, ZMM16-31
  f.os_amx = (xcr0 & 0x60000) == 0x60000;  // XTILECFG and XTILEDATA
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    f.bmi1 = (b >> 3) & 1;
    f.avx2 = (b >> 5) & 1;
    f.bmi2 = (b >> 8) & 1;
    f.avx512f = (b >> 16) & 1;
    f.avx512dq = (b >> 17) & 1;
    f.avx512cd = (b >> 28) & 1;
    f.avx512bw = (b >> 30) & 1;
    f.avx512vl = (b >> 31) & 1;
    f.avx512vnni = (c >> 11) & 1;
    f.amx_bf16 = (d >> 22) & 1;
    f.amx_tile = (d >> 24) & 1;
    const unsigned max_sub = a;
    if (max_sub >= 1) {
      __cpuid_count(7, 1, a, b, c, d);
      f.avx512bf16 = (a >> 5) & 1;
    }
  }
  if (__get_cpuid(0x80000001, &a, &b, &c, &d)) f.lzcnt = (c >> 5) & 1;
#elif defined(MLXD_CPU_ARM)
  const unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
  f.neon = (hw >> 1) & 1;      // HWCAP_ASIMD
  f.asimddp = (hw >> 20) & 1;  // HWCAP_ASIMDDP
  f.i8mm = (hw2 >> 13) & 1;    // HWCAP2_I8MM
  f.bf16 = (hw2 >> 14) & 1;    // HWCAP2_BF16
#endif
  return f;
}

// The report a test forced (MLX_DELEGATE_CPU_FEATURES), else the processor's;
// `forced` says which. An unknown name is an error: a typo would otherwise
// play a processor without that feature.
inline Features current_features(bool* forced = nullptr, std::string* error = nullptr) {
  const char* env = std::getenv("MLX_DELEGATE_CPU_FEATURES");
  if (forced != nullptr) *forced = env != nullptr;
  if (env == nullptr) return processor_features();
  Features f;
  std::string list = env;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string name = list.substr(start, end - start);
    bool known = name.empty();
#define MLXD_CPU_SET(field) \
  if (name == #field) {     \
    f.field = true;         \
    known = true;           \
  }
    MLXD_CPU_FOR_EACH_FEATURE(MLXD_CPU_SET)
#undef MLXD_CPU_SET
    if (!known && error != nullptr && error->empty()) {
      *error = "MLX_DELEGATE_CPU_FEATURES names an unknown feature '" + name + "'";
    }
    start = end + 1;
  }
  return f;
}

// The variants and what each needs. The portable one needs nothing.
enum class Variant { portable, avx2, avx512 };

inline const char* variant_name(Variant v) {
  switch (v) {
    case Variant::avx2:
      return "avx2";
    case Variant::avx512:
      return "avx512";
    default:
      return "portable";
  }
}

// The features `v` needs that `f` lacks, in the table's order ("" when it runs).
inline std::string missing_features(Variant v, const Features& f) {
  std::string missing;
  auto need = [&](bool have, const char* name) {
    if (have) return;
    if (!missing.empty()) missing += ", ";
    missing += name;
  };
  if (v == Variant::portable) return missing;
#if !defined(MLXD_CPU_X86)
  return "an x86-64 processor";
#endif
  // x86-64-v3
  need(f.avx, "avx");
  need(f.avx2, "avx2");
  need(f.fma, "fma");
  need(f.f16c, "f16c");
  need(f.bmi1, "bmi1");
  need(f.bmi2, "bmi2");
  need(f.lzcnt, "lzcnt");
  need(f.movbe, "movbe");
  need(f.os_ymm, "os_ymm (the OS saves the ymm registers)");
  if (v == Variant::avx512) {  // x86-64-v4
    need(f.avx512f, "avx512f");
    need(f.avx512bw, "avx512bw");
    need(f.avx512cd, "avx512cd");
    need(f.avx512dq, "avx512dq");
    need(f.avx512vl, "avx512vl");
    need(f.os_zmm, "os_zmm (the OS saves the zmm registers)");
  }
  return missing;
}

}  // namespace mlxd::cpu
