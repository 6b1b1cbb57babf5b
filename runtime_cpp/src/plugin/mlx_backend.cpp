#include "mlx_backend.h"

#ifdef MLXD_CPU_ISA
#include "float_gemm.h"  // this CPU plugin's kernels (src/cpu/)
#include "quantized_matmul.h"
#endif
#ifdef MLXD_OPENBLAS_LIB
#include <cblas.h>  // scipy_openblas32/include: scipy_openblas_get_corename
#endif

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#ifndef MLXD_IMPL_DEVICE
#error "MLXD_IMPL_DEVICE must be 0 (cpu) or 1 (gpu)"
#endif
#ifndef MLXD_BLAS_NAME
#define MLXD_BLAS_NAME "reference"
#endif

namespace mx = mlx::core;

namespace mlxd::plugin {

mx::Dtype to_mlx(DType t) {
  switch (t) {
#define MLXD_DTYPE_TO_MLX(name, code, bytes, torch, mlx, executorch) \
  case DType::name:                                                  \
    return mx::mlx;
    MLXD_FOR_EACH_DTYPE(MLXD_DTYPE_TO_MLX)
#undef MLXD_DTYPE_TO_MLX
  }
  throw std::invalid_argument("unknown dtype " + std::to_string(static_cast<int>(t)));
}

DType from_mlx(mx::Dtype t) {
  switch (t.val()) {
#define MLXD_DTYPE_FROM_MLX(name, code, bytes, torch, mlx, executorch) \
  case mx::Dtype::Val::mlx:                                            \
    return DType::name;
    MLXD_FOR_EACH_DTYPE(MLXD_DTYPE_FROM_MLX)
#undef MLXD_DTYPE_FROM_MLX
    default:
      break;
  }
  throw std::runtime_error("MLX dtype has no delegate equivalent");
}

namespace {

mx::Shape to_shape(const std::vector<int64_t>& dims, size_t* numel) {
  mx::Shape shape;
  size_t n = 1;
  for (int64_t d : dims) {
    if (d < 0 || d > INT32_MAX) {
      throw std::invalid_argument("bad dimension " + std::to_string(d));
    }
    shape.push_back(static_cast<int32_t>(d));
    n *= static_cast<size_t>(d);
  }
  *numel = n;
  return shape;
}

}  // namespace

mx::array array_from_host(const TensorView& v) {
  size_t numel = 0;
  mx::Shape shape = to_shape(v.shape, &numel);
  size_t need = numel * dtype_size(v.dtype);
  if (v.nbytes != need) {
    throw std::invalid_argument(std::string("host buffer of ") + std::to_string(v.nbytes) +
                                " bytes for a " + dtype_name(v.dtype) + " tensor of " +
                                std::to_string(numel) + " elements (" + std::to_string(need) +
                                " bytes)");
  }
  if (need > 0 && v.data == nullptr) {
    throw std::invalid_argument("host buffer is NULL");
  }
  // MLX adopts the caller's buffer where its allocator can
  // (allocator::make_buffer), else copies it once; MLX 0.32's CPU and CUDA
  // allocators cannot, so this is the one copy of an input.
  static char empty = 0;
  void* data = need > 0 ? const_cast<void*>(v.data) : &empty;
  return mx::array(data, std::move(shape), to_mlx(v.dtype), [](void*) {});
}

namespace {

// Copies the elements of evaluated `a` in row-major order to `dst`, reading
// its strides directly (no contiguous copy first): innermost runs of
// consecutive elements go by memcpy.
void copy_row_major(const mx::array& a, char* dst) {
  size_t item = a.itemsize();
  const char* src = a.data<char>();
  if (a.flags().row_contiguous || a.ndim() == 0) {
    std::memcpy(dst, src, a.nbytes());
    return;
  }
  int last = static_cast<int>(a.ndim()) - 1;
  size_t run = a.strides()[last] == 1 ? a.shape(last) * item : item;
  int loop_dims = a.strides()[last] == 1 ? last : last + 1;
  std::vector<int64_t> index(loop_dims, 0);
  for (size_t written = 0; written < a.nbytes(); written += run) {
    int64_t offset = 0;
    for (int d = 0; d < loop_dims; ++d) offset += index[d] * a.strides()[d];
    std::memcpy(dst + written, src + offset * static_cast<int64_t>(item), run);
    for (int d = loop_dims - 1; d >= 0 && ++index[d] == a.shape(d); --d) index[d] = 0;
  }
}

}  // namespace

void array_to_host(const mx::array& in, OutputBuffer& out) {
  mx::array a = in;
  a.eval();
  out.dtype = from_mlx(a.dtype());
  out.shape.assign(a.shape().begin(), a.shape().end());
  out.nbytes = a.nbytes();
  if (out.prepare) {
    if (void* where = out.prepare(out.dtype, out.shape, out.nbytes)) {
      out.data = where;
      out.capacity = out.nbytes;
    }
  }
  if (out.nbytes > out.capacity) {
    throw std::runtime_error("output of " + std::to_string(out.nbytes) +
                             " bytes does not fit the " + std::to_string(out.capacity) +
                             "-byte output buffer");
  }
  if (out.nbytes > 0) {
    if (out.data == nullptr) throw std::invalid_argument("output buffer is NULL");
    copy_row_major(a, static_cast<char*>(out.data));
  }
}

MlxBackend::MlxBackend(std::string name, DeviceType type, int score) {
  info_.name = std::move(name);
  info_.device_type = type;
  info_.score = score;
  if (type == DeviceType::cpu) {
    info_.device_count = 1;
    BackendInfo::PropertyMap props;
    try {
      props = mx::device_info(mx::Device(mx::Device::cpu, 0));
    } catch (const std::exception&) {
    }
    props["blas"] = std::string(MLXD_BLAS_NAME);
#ifdef MLXD_OPENBLAS_LIB
    // The kernels OpenBLAS chose as it loaded: by the processor, or OPENBLAS_CORETYPE.
    props["blas_kernels"] = std::string(scipy_openblas_get_corename());
    // float32 products of many rows in our own GEMM instead (openblas_forward.cpp)
    if (mlxd::cpu::MLXD_CPU_ISA::float_gemm_here()) props["float_gemm"] = std::string("AVX-512");
#endif
#ifdef MLXD_CPU_ISA
#define MLXD_ISA_STRING_(x) #x
#define MLXD_ISA_STRING(x) MLXD_ISA_STRING_(x)
    props["kernels"] = std::string(MLXD_ISA_STRING(MLXD_CPU_ISA));
#undef MLXD_ISA_STRING
#undef MLXD_ISA_STRING_
#endif
    props["hardware_concurrency"] = static_cast<size_t>(std::thread::hardware_concurrency());
    info_.device_properties.push_back(std::move(props));
  } else {
    if (!mx::is_available(mx::Device(mx::Device::gpu, 0))) {
      throw std::runtime_error("MLX reports no GPU");
    }
    info_.device_count = mx::device_count(mx::Device::gpu);
    for (int i = 0; i < info_.device_count; ++i) {
      info_.device_properties.push_back(mx::device_info(mx::Device(mx::Device::gpu, i)));
    }
  }
}

DeviceSpace MlxBackend::device_space() const {
  return {info_.device_type == DeviceType::gpu ? mx::Device::gpu : mx::Device::cpu,
          info_.device_count};
}

mx::Device MlxBackend::device(int device_index) const {
  if (device_index < 0 || device_index >= info_.device_count) {
    throw std::out_of_range(info_.name + ": device index " + std::to_string(device_index) +
                            " out of range (" + std::to_string(info_.device_count) + " device(s))");
  }
  return mx::Device(device_space().type, device_index);
}

const BackendInfo::PropertyMap& MlxBackend::device_info(int device_index) const {
  device(device_index);
  return info_.device_properties.at(static_cast<size_t>(device_index));
}

std::unique_lock<std::mutex> MlxBackend::exclusive() {
  if (info_.device_type != DeviceType::gpu) return {};
  return std::unique_lock<std::mutex>(gpu_mu_);
}

std::unique_ptr<ProgramHandle> MlxBackend::load_program(int device_index, const uint8_t* payload,
                                                        size_t size,
                                                        const ConstantResolver& constants) {
  auto lock = exclusive();
  device(device_index);  // range-checked
  return plugin::load_program(info_.name, device_space(), device_index, payload, size, constants);
}

void MlxBackend::execute(ProgramHandle& program, const std::vector<TensorView>& inputs,
                         std::vector<OutputBuffer>& outputs) {
  auto lock = exclusive();
  execute_program(program, info_.name, inputs, outputs);
}

double MlxBackend::run_builtin(const std::string& op, int device_index,
                               const std::vector<TensorView>& inputs,
                               std::vector<OutputBuffer>& outputs, int repeat) {
  auto lock = exclusive();
  mx::Device dev = device(device_index);
  if (inputs.size() != 2 || outputs.size() != 1) {
    throw std::invalid_argument("builtin '" + op + "' takes 2 inputs and 1 output");
  }
  mx::array a = array_from_host(inputs[0]);
  mx::array b = array_from_host(inputs[1]);
  if (dev.type == mx::Device::gpu) {
    a = mx::copy(a, dev);
    b = mx::copy(b, dev);
    mx::eval(a, b);
  }
  auto run = [&]() {
    if (op == "matmul") return mx::matmul(a, b, dev);
    if (op == "add") return mx::add(a, b, dev);
    throw std::invalid_argument("unknown builtin '" + op + "' (expected matmul or add)");
  };
  mx::array out = run();
  mx::eval(out);  // warm-up
  using clock = std::chrono::steady_clock;
  auto start = clock::now();
  for (int i = 0; i < repeat; ++i) {
    out = run();
    mx::eval(out);
  }
  mx::synchronize(mx::default_stream(dev));
  double seconds = std::chrono::duration<double>(clock::now() - start).count() / repeat;
  array_to_host(out, outputs[0]);
  return seconds;
}

void MlxBackend::synchronize(int device_index) {
  auto lock = exclusive();
  mx::synchronize(mx::default_stream(device(device_index)));
}

}  // namespace mlxd::plugin

#ifndef MLXD_IMPL_ENTRY
#error "MLXD_IMPL_ENTRY (the creation function's name, one per implementation) must be defined"
#endif

namespace {

#if MLXD_IMPL_DEVICE == 0
// MLX keeps at most 32 MB of freed buffers for reuse on the CPU (its default there). A speech
// encoder's activations are larger (whisper-small's MLP: 18 MB a buffer), so each went back to
// malloc and came back as fresh pages: 52,000-58,000 page faults a 30 s window, 0.1-0.18 s of
// CPU time in the kernel. The CPU plugins keep up to 1 GiB; a larger limit already set (MLX's on a
// GPU build that shares this MLX) is left as it is, and set_cache_limit changes it either way.
constexpr size_t kCpuBufferCache = size_t{1} << 30;

void keep_freed_buffers() {
  const size_t before = mx::set_cache_limit(kCpuBufferCache);
  if (before > kCpuBufferCache) mx::set_cache_limit(before);
}
#endif

}  // namespace

// Named per implementation (mlxd_impl_create_cpu, ...): the front looks it up
// with dlsym, and a static build links several implementations side by side.
extern "C" __attribute__((visibility("default"))) mlxd::BackendInterface* MLXD_IMPL_ENTRY(
    const char* name, int score, char* error, size_t error_size) {
  try {
#ifdef MLXD_CPU_ISA
    mlxd::cpu::MLXD_CPU_ISA::install();
#endif
#if MLXD_IMPL_DEVICE == 0
    keep_freed_buffers();
#endif
    return new mlxd::plugin::MlxBackend(
        name, MLXD_IMPL_DEVICE == 1 ? mlxd::DeviceType::gpu : mlxd::DeviceType::cpu, score);
  } catch (const std::exception& e) {
    if (error != nullptr && error_size > 0) {
      std::strncpy(error, e.what(), error_size - 1);
      error[error_size - 1] = '\0';
    }
  } catch (...) {
    if (error != nullptr && error_size > 0) {
      std::strncpy(error, "unknown exception", error_size - 1);
      error[error_size - 1] = '\0';
    }
  }
  return nullptr;
}
