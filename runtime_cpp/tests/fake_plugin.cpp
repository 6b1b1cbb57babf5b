// A backend plugin without MLX, for the registry's tests. Its behaviour is
// chosen at compile time:
//   FAKE_NAME, FAKE_DEVICE_TYPE (0 cpu, 1 gpu), FAKE_DEVICE_COUNT,
//   FAKE_SCORE (omit to export no mlx_backend_score), FAKE_MEMORY (base of
//   the memory figures), FAKE_MODE:
//     0 works, 1 init returns nullptr, 2 init throws, 3 wrong api_version,
//     4 mismatched ABI info (claims libc++ and another std::string size).
#include <stdexcept>
#include <string>

#include "mlx_delegate/backend_plugin.h"

#ifndef FAKE_MODE
#define FAKE_MODE 0
#endif
#ifndef FAKE_DEVICE_TYPE
#define FAKE_DEVICE_TYPE 1
#endif
#ifndef FAKE_DEVICE_COUNT
#define FAKE_DEVICE_COUNT 1
#endif
#ifndef FAKE_MEMORY
#define FAKE_MEMORY 1000
#endif

namespace {

class FakeBackend final : public mlxd::BackendInterface {
 public:
  FakeBackend() {
    info_.name = FAKE_NAME;
    info_.device_type = FAKE_DEVICE_TYPE == 1 ? mlxd::DeviceType::gpu : mlxd::DeviceType::cpu;
#ifdef FAKE_SCORE
    info_.score = FAKE_SCORE;
#else
    info_.score = 1;
#endif
    info_.device_count = FAKE_DEVICE_COUNT;
    for (int i = 0; i < FAKE_DEVICE_COUNT; ++i) {
      mlxd::BackendInfo::PropertyMap p;
      p["device_name"] = std::string(FAKE_NAME) + " fake device " + std::to_string(i);
      p["local_index"] = static_cast<size_t>(i);
      info_.device_properties.push_back(p);
    }
  }
  int api_version() const override {
    return FAKE_MODE == 3 ? MLX_BACKEND_API_VERSION + 41 : MLX_BACKEND_API_VERSION;
  }
  mlxd::BackendInfo info() const override { return info_; }
  bool is_available() const override { return true; }
  int device_count() const override { return info_.device_count; }
  const mlxd::BackendInfo::PropertyMap& device_info(int i) const override {
    return info_.device_properties.at(static_cast<size_t>(i));
  }
  // Names the backend-local device it was asked for, so that tests see where
  // the host placed a program.
  std::unique_ptr<mlxd::ProgramHandle> load_program(int device_index, const uint8_t*, size_t,
                                                    const mlxd::ConstantResolver&) override {
    throw std::runtime_error(std::string(FAKE_NAME) +
                             " is a fake backend: no programs (asked for local device " +
                             std::to_string(device_index) + ")");
  }
  void execute(mlxd::ProgramHandle&, const std::vector<mlxd::TensorView>&,
               std::vector<mlxd::OutputBuffer>&) override {
    throw std::runtime_error(std::string(FAKE_NAME) + " is a fake backend: no programs");
  }
  double run_builtin(const std::string& op, int, const std::vector<mlxd::TensorView>&,
                     std::vector<mlxd::OutputBuffer>&, int) override {
    throw std::runtime_error(std::string(FAKE_NAME) + " is a fake backend: no builtin " + op);
  }
  void synchronize(int) override {}
  size_t get_active_memory() const override { return FAKE_MEMORY; }
  size_t get_peak_memory() const override { return peak_; }
  void reset_peak_memory() override { peak_ = FAKE_MEMORY; }
  size_t get_cache_memory() const override { return cache_; }
  size_t set_cache_limit(size_t limit) override { return swap(cache_limit_, limit); }
  size_t set_memory_limit(size_t limit) override { return swap(memory_limit_, limit); }
  size_t get_memory_limit() const override { return memory_limit_; }
  size_t set_wired_limit(size_t limit) override { return swap(wired_limit_, limit); }
  void clear_cache() override { cache_ = 0; }

 private:
  static size_t swap(size_t& slot, size_t value) {
    size_t old = slot;
    slot = value;
    return old;
  }
  mlxd::BackendInfo info_;
  size_t peak_ = 2 * FAKE_MEMORY;
  size_t cache_ = 3 * FAKE_MEMORY;
  size_t cache_limit_ = 4 * FAKE_MEMORY;
  size_t memory_limit_ = 5 * FAKE_MEMORY;
  size_t wired_limit_ = 0;
};

mlxd::BackendInterface* make_fake() {
#if FAKE_MODE == 1
  return nullptr;
#elif FAKE_MODE == 2
  throw std::runtime_error("fake device exploded during init");
#else
  return new FakeBackend();
#endif
}

}  // namespace

#if FAKE_MODE == 4
extern "C" MLX_BACKEND_EXPORT mlxd::BackendInterface* mlx_backend_init() { return make_fake(); }
extern "C" MLX_BACKEND_EXPORT MLX_BackendABIInfo mlx_backend_abi_info() {
  MLX_BackendABIInfo info = mlx_make_abi_info();
  std::strncpy(info.stdlib_id, "libc++", sizeof(info.stdlib_id) - 1);
  info.sizeof_string = 24;
  return info;
}
#else
MLX_BACKEND_IMPL(make_fake)
#endif

#ifdef FAKE_SCORE
static int fake_score() { return FAKE_SCORE; }
MLX_BACKEND_SCORE_IMPL(fake_score)
#endif
