// The MLX implementation of mlxd::BackendInterface, shared by the CPU, CUDA
// and Metal plugin implementations (one device type per library).
#pragma once

#include <mlx/mlx.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mlx_delegate/backend_interface.h"

namespace mlxd::plugin {

mlx::core::Dtype to_mlx(DType t);
DType from_mlx(mlx::core::Dtype t);

// An MLX array of a host buffer's contents (dtype and size checked).
mlx::core::array array_from_host(const TensorView& v);
// Array → host buffer, row-major (evaluates it; checks the capacity).
void array_to_host(const mlx::core::array& a, OutputBuffer& out);

// The backend's devices a program may be placed on: `count` devices of `type`.
struct DeviceSpace {
  mlx::core::Device::DeviceType type = mlx::core::Device::cpu;
  int count = 1;
};

// Defined in program.cpp. `device_index` as in BackendInterface::load_program.
std::unique_ptr<ProgramHandle> load_program(const std::string& backend_name, DeviceSpace devices,
                                            int device_index, const uint8_t* payload, size_t size,
                                            const ConstantResolver& constants);
void execute_program(ProgramHandle& program, const std::string& backend_name,
                     const std::vector<TensorView>& inputs, std::vector<OutputBuffer>& outputs);

class MlxBackend final : public BackendInterface {
 public:
  MlxBackend(std::string name, DeviceType type, int score);

  int api_version() const override { return MLX_BACKEND_API_VERSION; }
  BackendInfo info() const override { return info_; }
  bool is_available() const override { return info_.device_count > 0; }
  int device_count() const override { return info_.device_count; }
  const BackendInfo::PropertyMap& device_info(int device_index) const override;

  std::unique_ptr<ProgramHandle> load_program(int device_index, const uint8_t* payload, size_t size,
                                              const ConstantResolver& constants) override;
  void execute(ProgramHandle& program, const std::vector<TensorView>& inputs,
               std::vector<OutputBuffer>& outputs) override;
  double run_builtin(const std::string& op, int device_index, const std::vector<TensorView>& inputs,
                     std::vector<OutputBuffer>& outputs, int repeat) override;
  void synchronize(int device_index) override;

  size_t get_active_memory() const override { return mlx::core::get_active_memory(); }
  size_t get_peak_memory() const override { return mlx::core::get_peak_memory(); }
  void reset_peak_memory() override { mlx::core::reset_peak_memory(); }
  size_t get_cache_memory() const override { return mlx::core::get_cache_memory(); }
  size_t set_cache_limit(size_t limit) override { return mlx::core::set_cache_limit(limit); }
  size_t set_memory_limit(size_t limit) override { return mlx::core::set_memory_limit(limit); }
  size_t get_memory_limit() const override { return mlx::core::get_memory_limit(); }
  size_t set_wired_limit(size_t limit) override { return mlx::core::set_wired_limit(limit); }
  void clear_cache() override { mlx::core::clear_cache(); }

 private:
  mlx::core::Device device(int device_index) const;
  DeviceSpace device_space() const;
  // Held while a call drives MLX, on a GPU backend only. MLX 0.32's CUDA
  // backend is not safe to drive from two threads at once: two programs on
  // gpu:0 run from two threads (mlxd-run --batch --threads 2) died of SIGFPE
  // in 8 of 40 runs on an H200. MLX's CPU backend is safe and not serialized.
  std::unique_lock<std::mutex> exclusive();
  BackendInfo info_;
  std::mutex gpu_mu_;
};

}  // namespace mlxd::plugin
