// Lists the backends the installed host finds and says whether the installed delegate
// registered itself with ExecuTorch (test_cmake_package.py reads the output).
#include <cstdio>

#include "mlx_delegate/backend_interface.h"
#include "mlx_delegate/host_c_api.h"

extern "C" int mlxd_delegate_registered(void);

int main() {
  if (mlxd_load_all(nullptr, 0, nullptr, 0) < 0) {
    std::printf("load_all failed: %s\n", mlxd_last_error());
    return 1;
  }
  std::printf("version %s\n", MLXD_CONSUMER_VERSION);
  std::printf("api %d\n", MLX_BACKEND_API_VERSION);
  std::printf("registered %d\n", mlxd_delegate_registered());
  std::printf("backends %s\n", mlxd_backends_json());
  return 0;
}
