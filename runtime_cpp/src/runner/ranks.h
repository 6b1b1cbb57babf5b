// One process per device for a tensor-parallel program (`mlxd-generate --tp N`),
// as mlx_delegate/llm/launch.py does for `python -m mlx_delegate.llm generate`.
//
// A process that finds the standard MLX variables set (MLX_RANK, with
// MLX_WORLD_SIZE or MLX_HOSTFILE) is a rank already and joins its group.
// Otherwise start_ranks runs the command again as N ranks on this host: the
// ring backend on the CPU (a hostfile of free local ports), NCCL on GPUs (a
// GPU a rank through CUDA_VISIBLE_DEVICES). Only rank 0 prints; a rank that
// dies ends the others with a message, since they would wait in their next
// collective forever.
#pragma once

#include <optional>
#include <string>

namespace mlxd::runner {

struct Rank {
  int rank = 0;
  int ranks = 1;
};

// The rank the standard MLX variables make this process; nullopt when
// MLX_RANK is unset. Throws std::runtime_error on inconsistent values.
std::optional<Rank> rank_of_environment();

// "nccl" for a GPU device ("gpu", "gpu:N") or, with no device, when a GPU
// backend is available; "ring" otherwise.
std::string default_backend(const std::string& device);

// Runs `argv` (argv[0]: this executable) as `ranks` processes of a group of
// `backend` until all end. Returns 0 when all succeeded, else 1, having ended
// the others as soon as one failed and said which (prefixed by `tool`).
int start_ranks(char** argv, int ranks, const std::string& backend, const std::string& tool);

// The data file of `r` of a program exported for r.ranks ranks beside `model`
// (mlx_delegate/llm/tensor_parallel.py's data_path; one rank: MODEL.ptd).
std::string rank_data_path(const std::string& model, Rank r);

// Sends this process's standard output to /dev/null unless it is rank 0.
void quiet_unless_rank_zero(const Rank& r);

}  // namespace mlxd::runner
