// The process's group for the collectives (src/ops/collectives.cpp).
#pragma once

namespace mlxd {

// Sets up this process's group, once, from the standard MLX environment, and
// checks that it has `size` processes (ExecutionError naming `op` if not). A
// program with collectives calls it when it loads: setting up a group (NCCL's
// communicator, the ring's sockets to every rank) takes as long as the ranks
// take to meet, which a first call would count in its time to first token.
void join_process_group(int size, const char* op);

}  // namespace mlxd
