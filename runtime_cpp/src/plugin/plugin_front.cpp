// The thin front of an MLX backend plugin: libmlx-{name}[-{variant}].so.
//
// It links no MLX, so the host can dlopen it and ask for a score cheaply
// (no MLX, CUDA or BLAS library gets mapped while candidates compete). Only
// mlx_backend_init() loads the implementation library next to it
// (MLXD_IMPL_LIB, linked against MLX) with RTLD_DEEPBIND, which makes the
// implementation's own definitions (e.g. the OpenBLAS-forwarding cblas_*)
// win for the MLX library it pulls in.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include "mlx_delegate/backend_plugin.h"

#ifndef MLXD_PLUGIN_NAME
#error "MLXD_PLUGIN_NAME must be defined"
#endif
#ifndef MLXD_IMPL_LIB
#error "MLXD_IMPL_LIB must be defined"
#endif
#ifndef MLXD_IMPL_ENTRY
#error "MLXD_IMPL_ENTRY must be defined"
#endif
#define MLXD_STRINGIFY_(x) #x
#define MLXD_STRINGIFY(x) MLXD_STRINGIFY_(x)

#define MLXD_SCORE_CPU 1
#define MLXD_SCORE_CPU_OPENBLAS 2
#define MLXD_SCORE_CUDA 3
#define MLXD_SCORE_METAL 4
#define MLXD_SCORE_CPU_AVX2 5    // OpenBLAS and x86-64-v3
#define MLXD_SCORE_CPU_AVX512 6  // OpenBLAS and x86-64-v4

#ifndef MLXD_SCORE_KIND
#error "MLXD_SCORE_KIND must be defined"
#endif

#if MLXD_SCORE_KIND == MLXD_SCORE_CPU_OPENBLAS || MLXD_SCORE_KIND == MLXD_SCORE_CPU_AVX2 || \
    MLXD_SCORE_KIND == MLXD_SCORE_CPU_AVX512
#define MLXD_FRONT_LOADS_OPENBLAS 1  // scores by loading OpenBLAS, which the implementation links
#endif

#if MLXD_SCORE_KIND == MLXD_SCORE_CPU_AVX2 || MLXD_SCORE_KIND == MLXD_SCORE_CPU_AVX512
#include "cpu_features.h"  // src/cpu: what the processor reports
#endif

extern "C" {
typedef mlxd::BackendInterface* (*mlxd_impl_create_fn)(const char* name, int score, char* error,
                                                       size_t error_size);
}

namespace {

std::string own_dir() {
  Dl_info info;
  std::memset(&info, 0, sizeof(info));
  if (dladdr(reinterpret_cast<void*>(&own_dir), &info) == 0 || info.dli_fname == nullptr) {
    throw std::runtime_error("dladdr failed for the plugin front");
  }
  std::string path = info.dli_fname;
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

#ifdef MLXD_FRONT_LOADS_OPENBLAS
// The OpenBLAS library the implementation is linked against. MLXD_OPENBLAS_LIB
// is its bare name, so dlopen searches this front's RUNPATH, which CMake sets
// to the implementation's (relative to the installed plugin in the wheel): the
// score then holds for the library the implementation will really load, on
// this machine, not on the build machine. Overridable (e.g. to a missing file,
// to exercise the fallback).
const char* openblas_path() {
  const char* env = std::getenv("MLX_DELEGATE_OPENBLAS_LIB");
  return env != nullptr ? env : MLXD_OPENBLAS_LIB;
}

// OpenBLAS reads its settings from the environment once, when it loads (its
// constructor): in the front's scoring and in the implementation's load. For
// those loads only, OPENBLAS_NUM_THREADS=1, then what was there is put back.
// openblas_forward.cpp runs OpenBLAS single-threaded over our own pool, so its
// workers would never work; started, they spun on the cores for about a tenth of
// a second after each load, while the first calls ran (a llama-like block at
// d=512 seq 128: 7.0-8.2 ms a call for the first 13 calls, 4.4-4.7 without them).
class OpenBlasLoadEnvironment {
 public:
  OpenBlasLoadEnvironment() {
    if (const char* old = std::getenv(kName)) saved_ = old;
    setenv(kName, "1", 1);
  }
  ~OpenBlasLoadEnvironment() {
    if (saved_) {
      setenv(kName, saved_->c_str(), 1);
    } else {
      unsetenv(kName);
    }
  }
  OpenBlasLoadEnvironment(const OpenBlasLoadEnvironment&) = delete;
  OpenBlasLoadEnvironment& operator=(const OpenBlasLoadEnvironment&) = delete;

 private:
  static constexpr const char* kName = "OPENBLAS_NUM_THREADS";
  std::optional<std::string> saved_;
};

// Whether OpenBLAS loads here; else why not, for the listing.
bool openblas_loads(std::string* why) {
  OpenBlasLoadEnvironment environment;
  dlerror();
  void* h = dlopen(openblas_path(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* e = dlerror();
    *why = std::string("OpenBLAS does not load: ") + (e ? e : openblas_path());
    return false;
  }
  bool ok = dlsym(h, "scipy_cblas_sgemm") != nullptr;
  dlclose(h);
  if (!ok) *why = std::string(openblas_path()) + " has no scipy_cblas_sgemm";
  return ok;
}
#endif

#if MLXD_SCORE_KIND == MLXD_SCORE_CPU_AVX2 || MLXD_SCORE_KIND == MLXD_SCORE_CPU_AVX512
// `score` when the processor has what the variant's kernels need and OpenBLAS
// loads; else 0, with the reason for the listing (mlx_backend_last_error).
int variant_score(mlxd::cpu::Variant variant, int score) {
  bool forced = false;
  std::string error;
  mlxd::cpu::Features features = mlxd::cpu::current_features(&forced, &error);
  std::string& why = mlxd::plugin_detail::last_error();
  why.clear();
  if (!error.empty()) {
    why = error;
    return 0;
  }
  std::string missing = mlxd::cpu::missing_features(variant, features);
  if (!missing.empty()) {
    why = std::string("the ") + mlxd::cpu::variant_name(variant) + " kernels need what " +
          (forced ? "the forced report (MLX_DELEGATE_CPU_FEATURES)" : "this processor") +
          " lacks: " + missing;
    return 0;
  }
  return openblas_loads(&why) ? score : 0;
}
#endif

int score() {
#if MLXD_SCORE_KIND == MLXD_SCORE_CPU
  return 10;
#elif MLXD_SCORE_KIND == MLXD_SCORE_CPU_OPENBLAS
  std::string& why = mlxd::plugin_detail::last_error();
  why.clear();
  return openblas_loads(&why) ? 20 : 0;
#elif MLXD_SCORE_KIND == MLXD_SCORE_CPU_AVX2
  return variant_score(mlxd::cpu::Variant::avx2, 30);
#elif MLXD_SCORE_KIND == MLXD_SCORE_CPU_AVX512
  return variant_score(mlxd::cpu::Variant::avx512, 40);
#elif MLXD_SCORE_KIND == MLXD_SCORE_CUDA
  // Ask the driver directly: no CUDA runtime or MLX is mapped for this.
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    return 0;
  }
  using cu_init_fn = int (*)(unsigned int);
  using cu_count_fn = int (*)(int*);
  auto cu_init = reinterpret_cast<cu_init_fn>(dlsym(h, "cuInit"));
  auto cu_count = reinterpret_cast<cu_count_fn>(dlsym(h, "cuDeviceGetCount"));
  int count = 0;
  bool ok = cu_init != nullptr && cu_count != nullptr && cu_init(0) == 0 && cu_count(&count) == 0 &&
            count > 0;
  return ok ? 100 : 0;  // the driver stays loaded: CUDA would reload it anyway
#elif MLXD_SCORE_KIND == MLXD_SCORE_METAL
#if defined(__APPLE__)
  return 100;
#else
  return 0;
#endif
#else
#error "unknown MLXD_SCORE_KIND"
#endif
}

mlxd::BackendInterface* create() {
  int s = score();
  if (s <= 0) {
    std::string why = mlxd::plugin_detail::last_error();
    throw std::runtime_error(std::string(MLXD_PLUGIN_NAME) + " is not supported on this machine" +
                             (why.empty() ? "" : ": " + why));
  }
  std::string impl = own_dir() + "/" + MLXD_IMPL_LIB;
  int flags = RTLD_NOW | RTLD_LOCAL;
#if defined(RTLD_DEEPBIND) && !defined(__APPLE__)
  flags |= RTLD_DEEPBIND;
#endif
#ifdef MLXD_FRONT_LOADS_OPENBLAS
  OpenBlasLoadEnvironment environment;  // the implementation loads OpenBLAS
#endif
  dlerror();
  void* h = dlopen(impl.c_str(), flags);
  if (h == nullptr) {
    const char* e = dlerror();
    throw std::runtime_error("cannot load " + impl + ": " + (e ? e : "unknown error"));
  }
  auto fn = reinterpret_cast<mlxd_impl_create_fn>(dlsym(h, MLXD_STRINGIFY(MLXD_IMPL_ENTRY)));
  if (fn == nullptr) {
    throw std::runtime_error(impl + " has no " MLXD_STRINGIFY(MLXD_IMPL_ENTRY) " entry point");
  }
  char error[1024] = {0};
  mlxd::BackendInterface* backend = fn(MLXD_PLUGIN_NAME, s, error, sizeof(error));
  if (backend == nullptr) {
    throw std::runtime_error(std::string("creating the backend failed: ") + error);
  }
  return backend;  // the implementation library stays loaded for good
}

}  // namespace

MLX_BACKEND_IMPL(create)
MLX_BACKEND_SCORE_IMPL(score)
