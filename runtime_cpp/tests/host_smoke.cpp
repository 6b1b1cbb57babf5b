// Drives the host C API without Python: load_all, list, report, resolve
// "cpu" and "gpu:0", a builtin matmul on each. Prints a backtrace on a
// crash. Usage: host_smoke [device...]
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "mlx_delegate/host_c_api.h"

static void on_crash(int sig) {
  void* frames[64];
  int n = backtrace(frames, 64);
  std::fprintf(stderr, "host_smoke: signal %d\n", sig);
  backtrace_symbols_fd(frames, n, 2);
  _exit(128 + sig);
}

int main(int argc, char** argv) {
  signal(SIGSEGV, on_crash);
  signal(SIGABRT, on_crash);
  int n = mlxd_load_all(nullptr, 0, nullptr, 0);
  std::printf("load_all: %d %s\n", n, mlxd_last_error());
  std::fflush(stdout);
  const char* report = mlxd_report_json();
  std::printf("report: %s\n", report ? report : mlxd_last_error());
  std::fflush(stdout);
  const char* list = mlxd_backends_json();
  std::printf("backends: %s\n", list ? list : mlxd_last_error());
  std::fflush(stdout);
  std::vector<const char*> devices{"cpu", "gpu:0"};
  if (argc > 1) devices.assign(argv + 1, argv + argc);
  for (const char* d : devices) {
    const char* r = mlxd_resolve_device_json(d);
    std::printf("%s: %s\n", d, r ? r : mlxd_last_error());
    std::fflush(stdout);
    std::vector<float> a(64 * 64, 1.0f), out(64 * 64, 0.0f);
    double sec = 0;
    int rc = mlxd_run_builtin_f32(d, "matmul", a.data(), a.data(), out.data(), 64, 64, 64, 2, &sec);
    std::printf("%s matmul rc=%d out[0]=%g (expect 64) %s\n", d, rc, out[0],
                rc ? mlxd_last_error() : "");
    std::fflush(stdout);
  }
  return 0;
}
