// The worker threads of our CPU kernels: the calling thread and
// (threads() - 1) workers split a call's tasks between them.
//
// MLX evaluates a CPU stream on one thread; a decode step's products are small
// (tens of microseconds), so the workers spin on the next call, about 2 ms,
// before they sleep (a futex, std::atomic::wait), and a call too small to share runs
// on the calling thread alone. A second caller while one call runs (two
// programs on two threads) runs its tasks itself rather than wait.
//
// MLX_DELEGATE_CPU_THREADS sets the number of threads (default: the CPUs this
// process may run on).
#pragma once

#include <cstdint>
#include <functional>

#ifndef MLXD_CPU_ISA
#error "MLXD_CPU_ISA (the kernels' instruction set: portable, avx2, avx512) must be defined"
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

// Threads of the pool, the caller included.
int threads();

// Runs task(0) ... task(tasks - 1), spread over the pool; returns when all ran.
void parallel_for(int tasks, const std::function<void(int)>& task);

// range(begin, end) over [0, count) in up to four ranges a thread, or
// range(0, count) on the calling thread alone where `values` (what the call
// reads and writes) is under 32768: a row-wise pass (norms, RoPE,
// softmax) that small takes less than waking the pool.
void parallel_ranges(int64_t count, int64_t values,
                     const std::function<void(int64_t, int64_t)>& range);

}  // namespace mlxd::cpu::MLXD_CPU_ISA
