// A persistent pool of compute threads. The caller's thread takes part in every parallel_for.
// Idle workers block on a condition variable (after a short bounded spin), never spin-waiting
// against Node's event loop on a 2-core machine.
#pragma once
#include <functional>

namespace infer {

class thread_pool {
 public:
  // n_threads: total threads including the caller; >= 1. nice_increment: the workers' priority
  // below the creating process's (mark_compute_thread); the caller's thread is left as it is.
  explicit thread_pool(int n_threads, int nice_increment = 0);
  ~thread_pool();
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  int size() const;
  // Runs fn(task, thread_index) for task in [0, n_tasks), spread over the threads; returns when
  // all tasks finished. Not reentrant: one parallel_for at a time per pool. fn must not throw
  // (an exception on a worker thread terminates the process). Tasks are claimed dynamically, so
  // a thread that the OS preempts does not hold up the others.
  void parallel_for(int n_tasks, const std::function<void(int task, int thread)>& fn);

 private:
  struct impl;
  impl* impl_;
};

}  // namespace infer
