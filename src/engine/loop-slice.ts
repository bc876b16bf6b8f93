// The event loop's scheduler slice. Where the kernel has per-thread slices (Linux 6.12+ EEVDF), a
// thread that wakes preempts the running one only if its virtual deadline (about now + its
// slice) comes first. The engine's compute threads ask for 4 ms (native/kernels/compute_thread.cc);
// with the default slice (1.4 ms here) the event loop waking late in one of their slices still
// waits out the rest of it, and every /health answer, request read and stream write queues behind a
// matmul. A short slice lets the loop run the moment it wakes. It changes when the loop runs, not
// how much: the CPU share is set by the nice values, so the engine keeps its throughput.
import { isMainThread } from 'node:worker_threads';
import { native } from '../native/binding.js';

/** The kernel's shortest slice. */
export const DEFAULT_LOOP_SLICE_US = 100;

let marked = false;

/** SVC_LOOP_SLICE_US overrides the slice (0: leave the thread's slice alone), for A/B benchmarks. */
export function loopSliceUs(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.SVC_LOOP_SLICE_US;
  if (v === undefined || v === '') return DEFAULT_LOOP_SLICE_US;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_LOOP_SLICE_US;
}

/** Marks the main thread (Node's event loop) once, when the first engine loads; a no-op on
 *  worker threads and where the kernel refuses. Returns whether the loop now has the short slice. */
export function markEventLoopThread(): boolean {
  if (marked || !isMainThread) return marked;
  const us = loopSliceUs();
  if (us === 0) return false;
  const n = native();
  if (typeof n.markLatencyThread !== 'function') return false; // an older addon (SVC_ADDON_PATH)
  marked = n.markLatencyThread(Math.min(100_000, Math.max(100, us)));
  return marked;
}
