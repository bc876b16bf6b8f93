// Scheduling hints for the engine's compute threads (the engine loop and the pool's workers).
#pragma once

namespace infer {

// Highest nice increment a compute thread takes (the kernel's lowest priority is nice 19).
constexpr int kMaxComputeNice = 19;

// Gives the calling thread a long scheduler time slice where the kernel supports per-thread slices
// (Linux 6.12+ EEVDF: sched_setattr's sched_runtime on SCHED_OTHER). A thread that wakes with
// the default, shorter slice then preempts a compute thread at once instead of waiting for the
// compute thread's slice to run out: the event loop and the clients it streams to stop queueing
// for a core behind busy matmuls.
// nice_increment (0..kMaxComputeNice) also lowers the thread's priority by that much: while the
// event loop has work (a burst of requests, many streams' writes) it then gets the larger share of
// a core the compute threads contend for, instead of a third of two cores. Linux only; an
// unprivileged process cannot raise the priority again, which is why only threads the engine owns
// are marked. A no-op elsewhere; a refusal leaves the thread as it is.
void mark_compute_thread(int nice_increment = 0);

// Gives the calling thread a short scheduler time slice (slice_us, which the kernel clamps to
// 100 µs..100 ms), keeping its nice value. For Node's event loop: under EEVDF a waking thread
// preempts the running one only when its virtual deadline (about now + its slice) comes first, so
// with the default slice (the kernel's base slice, 1.4 ms on a 2-CPU VM) a loop that wakes late
// in a compute thread's 4 ms slice waits out the rest of it; with a short slice it runs at once. Its share of the CPU
// stays the same (weights decide that, not slices), so the engine loses no throughput to it.
// Returns whether the kernel took it (Linux 6.12+); elsewhere a no-op that returns false.
bool mark_latency_thread(unsigned slice_us);

}  // namespace infer
