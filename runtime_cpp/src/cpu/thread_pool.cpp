#include "thread_pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MLXD_CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define MLXD_CPU_RELAX() __asm__ volatile("yield")
#else
#define MLXD_CPU_RELAX() ((void)0)
#endif

namespace mlxd::cpu::MLXD_CPU_ISA {

namespace {

int configured_threads() {
  if (const char* env = std::getenv("MLX_DELEGATE_CPU_THREADS")) {
    int n = std::atoi(env);
    if (n > 0) return n;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? static_cast<int>(n) : 1;
}

// How long a worker spins on the next call before it sleeps. A decode step's
// products come a few hundred microseconds apart, MLX's own ops (norms,
// attention) between them; a worker asleep in those gaps costs a futex wake and
// a reschedule on every product. Measured on bench/llm.py's 88M model, int8
// decode through mlxd-generate on 2 threads: 85-87 tokens/s spinning 40 us,
// 101-104 spinning 2 ms (a longer spin gained nothing more). Counted in time,
// not in pause instructions, whose length differs tenfold between processors.
constexpr std::chrono::microseconds kSpin{2000};

class Pool {
 public:
  explicit Pool(int threads) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }
  ~Pool() {
    stop_.store(true);
    generation_.fetch_add(1);
    generation_.notify_all();
    for (auto& t : workers_) t.join();
  }

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  void run(int tasks, const std::function<void(int)>& task) {
    std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
    if (!lock.owns_lock() || workers_.empty() || tasks <= 1) {
      for (int i = 0; i < tasks; ++i) task(i);
      return;
    }
    Job job{&task, tasks};
    job_.store(&job);
    generation_.fetch_add(1);
    generation_.notify_all();
    drain(job);
    while (job.done.load(std::memory_order_acquire) < tasks) MLXD_CPU_RELAX();
    // The job lives on this stack: wait until no worker can still reach it. A
    // worker counts itself in `active_` before it reads `job_` (both sequentially
    // consistent), so after this it either is counted or reads nullptr.
    job_.store(nullptr);
    while (active_.load() != 0) MLXD_CPU_RELAX();
  }

 private:
  struct Job {
    const std::function<void(int)>* task;
    int tasks;
    std::atomic<int> next{0};
    std::atomic<int> done{0};
  };

  static void drain(Job& job) {
    for (;;) {
      int i = job.next.fetch_add(1, std::memory_order_relaxed);
      if (i >= job.tasks) return;
      (*job.task)(i);
      job.done.fetch_add(1, std::memory_order_release);
    }
  }

  void work() {
    unsigned seen = generation_.load();
    for (;;) {
      unsigned now = seen;
      const auto until = std::chrono::steady_clock::now() + kSpin;
      for (int spin = 1; now == seen; ++spin) {
        MLXD_CPU_RELAX();
        now = generation_.load(std::memory_order_relaxed);
        if (spin % 64 == 0 && std::chrono::steady_clock::now() > until) break;
      }
      if (now == seen) {
        generation_.wait(seen);
        continue;
      }
      seen = now;
      if (stop_.load()) return;
      active_.fetch_add(1);
      if (Job* job = job_.load()) drain(*job);
      active_.fetch_sub(1);
    }
  }

  std::mutex mu_;
  std::vector<std::thread> workers_;
  std::atomic<unsigned> generation_{0};
  std::atomic<Job*> job_{nullptr};
  std::atomic<int> active_{0};
  std::atomic<bool> stop_{false};
};

// A child of fork() has none of the parent's workers: it runs every call itself.
std::atomic<bool> forked{false};

Pool& pool() {
  // Never destroyed: MLX's stream thread may still run a product at exit.
  static Pool* p = [] {
    pthread_atfork(nullptr, nullptr, [] { forked.store(true); });
    return new Pool(configured_threads());
  }();
  return *p;
}

}  // namespace

int threads() { return forked.load() ? 1 : pool().threads(); }

void parallel_for(int tasks, const std::function<void(int)>& task) {
  Pool& p = pool();
  if (forked.load()) {
    for (int i = 0; i < tasks; ++i) task(i);
    return;
  }
  p.run(tasks, task);
}

void parallel_ranges(int64_t count, int64_t values,
                     const std::function<void(int64_t, int64_t)>& range) {
  const int n = threads();
  if (n <= 1 || count < 2 || values < (int64_t{1} << 15)) {
    range(0, count);
    return;
  }
  const int tasks = static_cast<int>(std::min<int64_t>(n * 4, count));
  const int64_t per = (count + tasks - 1) / tasks;
  parallel_for(tasks, [&](int t) {
    const int64_t begin = t * per;
    if (begin < count) range(begin, std::min(count, begin + per));
  });
}

}  // namespace mlxd::cpu::MLXD_CPU_ISA
