#include "ranks.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "mlx_delegate/host_c_api.h"

namespace mlxd::runner {

namespace {

constexpr auto kPoll = std::chrono::milliseconds(50);  // how often the ranks are looked at
constexpr auto kGrace = std::chrono::seconds(5);       // SIGTERM, then SIGKILL after this

int parse_count(const char* text, const char* what) {
  char* end = nullptr;
  long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < 0 || v > 1 << 16) {
    throw std::runtime_error(std::string(what) + "='" + text + "' is not a count");
  }
  return static_cast<int>(v);
}

// The entries of a ring hostfile: a JSON list of lists of "ip:port", one a rank.
int hostfile_ranks(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("MLX_HOSTFILE " + path + " cannot be read");
  int depth = 0, entries = 0;
  for (char c; in.get(c);) {
    if (c == '[' && ++depth == 2) ++entries;
    if (c == ']') --depth;
  }
  return entries;
}

int free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof(address);
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    throw std::runtime_error(std::string("no free local port: ") + std::strerror(errno));
  }
  close(fd);
  return ntohs(address.sin_port);
}

// The group's variables every rank gets; a ring hostfile written in `scratch`.
void set_group_environment(const std::string& backend, int ranks,
                           const std::filesystem::path& scratch) {
  setenv("MLX_WORLD_SIZE", std::to_string(ranks).c_str(), 1);
  setenv("MLX_DELEGATE_DISTRIBUTED_BACKEND", backend.c_str(), 1);
  if (backend == "ring") {
    std::filesystem::path hostfile = scratch / "hosts.json";
    std::ofstream out(hostfile);
    out << "[";
    for (int r = 0; r < ranks; ++r)
      out << (r ? ", " : "") << "[\"127.0.0.1:" << free_port() << "\"]";
    out << "]\n";
    setenv("MLX_HOSTFILE", hostfile.c_str(), 1);
  } else {
    setenv("NCCL_HOST_IP", "127.0.0.1", 1);
    setenv("NCCL_PORT", std::to_string(free_port()).c_str(), 1);
  }
}

pid_t start_rank(char** argv, int rank, const std::string& backend) {
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid > 0) return pid;
  setenv("MLX_RANK", std::to_string(rank).c_str(), 1);
  if (backend == "nccl") setenv("CUDA_VISIBLE_DEVICES", std::to_string(rank).c_str(), 1);
  execv("/proc/self/exe", argv);
  std::fprintf(stderr, "exec %s: %s\n", argv[0], std::strerror(errno));
  _exit(127);
}

std::string status_text(int status) {
  if (WIFSIGNALED(status)) return std::string("signal ") + strsignal(WTERMSIG(status));
  return "exit status " + std::to_string(WEXITSTATUS(status));
}

// Waits for the ranks; on the first failure, says which and returns 1.
int supervise(std::vector<pid_t>& pids, const std::string& tool) {
  size_t done = 0;
  while (done < pids.size()) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid == 0) {
      std::this_thread::sleep_for(kPoll);
      continue;
    }
    if (pid < 0) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    for (size_t rank = 0; rank < pids.size(); ++rank) {
      if (pids[rank] != pid) continue;
      pids[rank] = 0;
      ++done;
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "%s: rank %zu of %zu ended with %s: ending the other ranks\n",
                     tool.c_str(), rank, pids.size(), status_text(status).c_str());
        return 1;
      }
    }
  }
  return 0;
}

void end_ranks(const std::vector<pid_t>& pids) {
  for (pid_t pid : pids) {
    if (pid > 0) kill(pid, SIGTERM);
  }
  auto deadline = std::chrono::steady_clock::now() + kGrace;
  for (pid_t pid : pids) {
    if (pid <= 0) continue;
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(kPoll);
    }
  }
}

}  // namespace

std::optional<Rank> rank_of_environment() {
  const char* rank = std::getenv("MLX_RANK");
  if (rank == nullptr) return std::nullopt;
  Rank r;
  r.rank = parse_count(rank, "MLX_RANK");
  if (const char* size = std::getenv("MLX_WORLD_SIZE")) {
    r.ranks = parse_count(size, "MLX_WORLD_SIZE");
  } else if (const char* hostfile = std::getenv("MLX_HOSTFILE")) {
    r.ranks = hostfile_ranks(hostfile);
  } else {
    throw std::runtime_error("MLX_RANK is set without MLX_WORLD_SIZE or MLX_HOSTFILE");
  }
  if (r.rank >= r.ranks) {
    throw std::runtime_error("MLX_RANK=" + std::to_string(r.rank) +
                             " is not a rank of a group of " + std::to_string(r.ranks));
  }
  return r;
}

std::string default_backend(const std::string& device) {
  if (!device.empty()) return device.rfind("gpu", 0) == 0 ? "nccl" : "ring";
  return mlxd_is_available(/*gpu=*/1) == 1 ? "nccl" : "ring";
}

int start_ranks(char** argv, int ranks, const std::string& backend, const std::string& tool) {
  char scratch_template[] = "/tmp/mlxd-ranks-XXXXXX";
  if (mkdtemp(scratch_template) == nullptr) {
    throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
  }
  std::filesystem::path scratch(scratch_template);
  set_group_environment(backend, ranks, scratch);
  std::vector<pid_t> pids;
  int code = 1;
  try {
    for (int r = 0; r < ranks; ++r) pids.push_back(start_rank(argv, r, backend));
    code = supervise(pids, tool);
  } catch (...) {
    end_ranks(pids);
    std::filesystem::remove_all(scratch);
    throw;
  }
  end_ranks(pids);
  std::filesystem::remove_all(scratch);
  return code;
}

std::string rank_data_path(const std::string& model, Rank r) {
  std::filesystem::path data(model);
  if (r.ranks == 1) return data.replace_extension(".ptd").string();
  std::ostringstream suffix;
  suffix << ".rank" << r.rank << "-of-" << r.ranks << ".ptd";
  return data.replace_extension(suffix.str()).string();
}

void quiet_unless_rank_zero(const Rank& r) {
  if (r.rank != 0 && std::freopen("/dev/null", "w", stdout) == nullptr) {
    throw std::runtime_error("cannot silence rank " + std::to_string(r.rank));
  }
}

}  // namespace mlxd::runner
