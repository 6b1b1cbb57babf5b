// The collectives (AllSumNode, AllGatherNode) on the process's group, through
// MLX's distributed layer.
//
// The group is the process's: one process per device, each a rank (the
// standard MLX model; one process driving several devices gained nothing,
// issue 25). It is set up when a program with collectives loads
// (join_process_group), from the standard MLX environment: MLX_RANK and
// MLX_HOSTFILE for the ring backend (CPU), MLX_RANK, MLX_WORLD_SIZE,
// NCCL_HOST_IP and NCCL_PORT for NCCL (CUDA);
// MLX_DELEGATE_DISTRIBUTED_BACKEND names one backend ("ring", "nccl"),
// otherwise MLX takes the first it can set up. With none of them set, a
// process is a group of one and the collectives return their input.
#include <cstdlib>
#include <mlx/distributed/distributed.h>
#include <mlx/distributed/ops.h>

#include <mutex>

#include "op_util.h"
#include "process_group.h"

namespace mlxd {

using namespace mlxd::ops;
namespace dist = mx::distributed;

namespace {

dist::Group& process_group() {
  static std::once_flag once;
  static std::optional<dist::Group> group;
  std::call_once(once, [] {
    const char* named = std::getenv("MLX_DELEGATE_DISTRIBUTED_BACKEND");
    std::string backend = named != nullptr && *named != '\0' ? named : "any";
    // strict when the environment asks for a group: a rank that cannot join
    // fails here, with MLX's reason, rather than running alone.
    bool asked = std::getenv("MLX_RANK") != nullptr || named != nullptr;
    group = dist::init(asked, backend);
  });
  return *group;
}

// A program made for a group of `size` processes runs in that group only: in
// another, a sum would be silently wrong.
dist::Group& group_of_size(int size, const char* op) {
  dist::Group& group = process_group();
  if (group.size() != size) {
    throw ExecutionError(std::string(op) + ": the program was made for a group of " +
                         std::to_string(size) + " processes, this process's group has " +
                         std::to_string(group.size()) +
                         " (set MLX_RANK and MLX_WORLD_SIZE / MLX_HOSTFILE, or launch with --tp)");
  }
  return group;
}

}  // namespace

void join_process_group(int size, const char* op) { group_of_size(size, op); }

void exec_all_sum(const AllSumNode& n, ExecutionState& st, StreamOrDevice s) {
  dist::Group& group = group_of_size(n.group_size, "all_sum");
  const mx::array& x = st.tensor(n.x);
  st.set_tensor(n.out, group.size() == 1 ? x : dist::all_sum(x, group, s));
}

void exec_all_gather(const AllGatherNode& n, ExecutionState& st, StreamOrDevice s) {
  dist::Group& group = group_of_size(n.group_size, "all_gather");
  const mx::array& x = st.tensor(n.x);
  if (x.ndim() == 0) {
    throw ExecutionError("all_gather: x must have an axis to gather along");
  }
  st.set_tensor(n.out, group.size() == 1 ? x : dist::all_gather(x, group, s));
}

}  // namespace mlxd
