// Persistent worker threads. Each parallel_for publishes a job (generation counter), workers and
// the caller claim task indices from one atomic counter, and the caller returns once every task
// has finished. Waiting (workers for a job, the caller for stragglers) spins for a bounded time
// (kSpin) and then blocks on a condition variable, so idle threads never compete with Node's
// event loop for the CPU.
#include "kernels/thread_pool.h"

#include "kernels/compute_thread.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define INFER_CPU_RELAX() _mm_pause()
#else
#define INFER_CPU_RELAX() ((void)0)
#endif

namespace infer {

namespace {
// Decode issues a parallel_for every few hundred microseconds; waiting actively this long between
// them avoids a futex wake-up per matmul without holding a core for long once work stops.
constexpr std::chrono::microseconds kSpin(100);
// After this much pausing, the active wait yields the CPU on every step instead: on a machine
// with more runnable threads than cores (Node's event loop, other processes) the thread we are
// waiting for may be the one that needs this core.
constexpr std::chrono::microseconds kYieldAfter(20);

// A bounded active wait: step() returns true while the caller should keep polling, false once it
// should block on its condition variable.
class bounded_spin {
 public:
  bool step() {
    if (!yielding_) {
      INFER_CPU_RELAX();
      if ((++spins_ & 63) != 0) return true;
      const auto elapsed = std::chrono::steady_clock::now() - start_;
      if (elapsed > kSpin) return false;
      if (elapsed > kYieldAfter) yielding_ = true;
      return true;
    }
    std::this_thread::yield();
    return std::chrono::steady_clock::now() - start_ <= kSpin;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  unsigned spins_ = 0;
  bool yielding_ = false;
};
}  // namespace

// The job word packs (generation, task count, next task index) so that claiming a task is one
// compare-and-swap that also proves the job is still the current one: a worker that wakes late
// can never claim a task of the next job with the previous job's function.
constexpr int kNextBits = 20, kCountBits = 20;
constexpr uint64_t kFieldMask = (1ull << kNextBits) - 1;
constexpr int kMaxTasksPerJob = (1 << kCountBits) - 1;
inline uint64_t job_gen(uint64_t s) { return s >> (kNextBits + kCountBits); }
inline uint64_t job_count(uint64_t s) { return (s >> kNextBits) & kFieldMask; }
inline uint64_t job_next(uint64_t s) { return s & kFieldMask; }

struct thread_pool::impl {
  int n_threads = 1;
  int nice_increment = 0;
  std::vector<std::thread> workers;

  std::mutex mu;
  std::condition_variable cv_work;  // workers wait here for a new generation
  std::condition_variable cv_done;  // the caller waits here for the last task

  std::atomic<uint64_t> job{0};
  std::atomic<int> pending{0};  // tasks of the current job not yet finished
  std::atomic<bool> stop{false};
  std::atomic<int> sleepers{0};  // workers blocked in cv_work (changed under mu)
  std::atomic<bool> caller_sleeping{false};
  uint64_t gen = 0;  // caller side

  const std::function<void(int, int)>* fn = nullptr;
  int task_base = 0;

  // Claims and runs tasks of generation g until none are left.
  void drain(uint64_t g, int thread_index) {
    int done = 0;
    uint64_t s = job.load(std::memory_order_acquire);
    for (;;) {
      if (job_gen(s) != g || job_next(s) >= job_count(s)) break;
      if (!job.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
      (*fn)(task_base + static_cast<int>(job_next(s)), thread_index);
      done++;
      s = job.load(std::memory_order_acquire);
    }
    if (done && pending.fetch_sub(done) == done) {
      // Last task finished: wake the caller if it went to sleep (seq_cst pairs with its store).
      if (caller_sleeping.load()) {
        std::lock_guard<std::mutex> lk(mu);
        cv_done.notify_one();
      }
    }
  }

  void worker_main(int thread_index) {
    mark_compute_thread(nice_increment);
    uint64_t seen = 0;
    for (;;) {
      // Bounded active wait for the next generation, then sleep.
      bounded_spin spin;
      bool blocked = false;
      uint64_t g = job_gen(job.load(std::memory_order_acquire));
      while (g == seen && !stop.load(std::memory_order_relaxed)) {
        if (blocked || !spin.step()) {
          blocked = true;
          std::unique_lock<std::mutex> lk(mu);
          sleepers.fetch_add(1, std::memory_order_relaxed);
          cv_work.wait(lk, [&] {
            return job_gen(job.load(std::memory_order_acquire)) != seen || stop.load(std::memory_order_relaxed);
          });
          sleepers.fetch_sub(1, std::memory_order_relaxed);
        }
        g = job_gen(job.load(std::memory_order_acquire));
      }
      if (stop.load(std::memory_order_relaxed)) return;
      seen = g;
      drain(g, thread_index);
    }
  }

  void run_job(int base, int n_tasks) {
    task_base = base;
    pending.store(n_tasks);
    gen = (gen + 1) & ((1ull << (64 - kNextBits - kCountBits)) - 1);
    if (gen == 0) gen = 1;  // workers start with seen == 0
    {
      // Publishing under the mutex orders it with a worker that is about to sleep.
      std::lock_guard<std::mutex> lk(mu);
      job.store((gen << (kNextBits + kCountBits)) | (static_cast<uint64_t>(n_tasks) << kNextBits),
                std::memory_order_release);
    }
    if (sleepers.load(std::memory_order_relaxed) > 0) cv_work.notify_all();

    drain(gen, 0);

    // Wait for tasks still running on workers: bounded active wait, then sleep.
    bounded_spin spin;
    while (pending.load() != 0) {
      if (!spin.step()) {
        std::unique_lock<std::mutex> lk(mu);
        caller_sleeping.store(true);
        cv_done.wait(lk, [&] { return pending.load() == 0; });
        caller_sleeping.store(false);
      }
    }
  }
};

thread_pool::thread_pool(int n_threads, int nice_increment) : impl_(new impl()) {
  impl_->n_threads = n_threads < 1 ? 1 : n_threads;
  impl_->nice_increment = nice_increment;
  for (int i = 1; i < impl_->n_threads; i++) impl_->workers.emplace_back([this, i] { impl_->worker_main(i); });
}

thread_pool::~thread_pool() {
  {
    std::lock_guard<std::mutex> lk(impl_->mu);
    impl_->stop.store(true);
  }
  impl_->cv_work.notify_all();
  for (auto& t : impl_->workers) t.join();
  delete impl_;
}

int thread_pool::size() const { return impl_->n_threads; }

void thread_pool::parallel_for(int n_tasks, const std::function<void(int, int)>& fn) {
  if (n_tasks <= 0) return;
  impl& p = *impl_;
  if (p.n_threads == 1 || n_tasks == 1) {
    for (int t = 0; t < n_tasks; t++) fn(t, 0);
    return;
  }
  p.fn = &fn;
  for (int base = 0; base < n_tasks; base += kMaxTasksPerJob) {
    int n = n_tasks - base < kMaxTasksPerJob ? n_tasks - base : kMaxTasksPerJob;
    p.run_job(base, n);
  }
}

}  // namespace infer
