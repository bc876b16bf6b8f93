// Scheduling hint for the engine's compute threads (the engine loop and the pool's workers).
#pragma once

namespace infer {

// Gives the calling thread a long scheduler time slice where the kernel supports per-thread slices
// (Linux 6.12+ EEVDF: sched_setattr's sched_runtime on SCHED_OTHER). A thread that wakes with
// the default, shorter slice then preempts a compute thread at once instead of waiting for the
// compute thread's slice to run out: the event loop and the clients it streams to stop queueing
// for a core behind busy matmuls. The nice value is kept. A no-op elsewhere or if refused.
void mark_compute_thread();

}  // namespace infer
