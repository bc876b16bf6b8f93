// Worker threads that do background work for the server (batch input validation) run nicer than
// the event loop and the engine. On a machine whose cores the engine's threads already fill, every
// extra runnable thread at the loop's weight takes its share of the cores from the loop too: the
// loop then uses up its fair share sooner and, once it has, waits for a core when it wakes (a
// /health answer, a stream's write) instead of preempting. At nice 10 such a thread weighs 110
// against the loop's 1,024 (the kernel's nice-to-weight table), so it takes its CPU mostly from
// time nothing else wants, and the loop keeps its share. The work still finishes; it takes longer
// while the cores are busy (a 100,000-line validation beside 16 decoding streams: 1.1 -> 2.1 s),
// which is why only work no request waits for runs here: the multipart scan of an upload, which
// its POST waits for, keeps the loop's priority.
import { getPriority, setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

export const DEFAULT_BACKGROUND_NICE = 10;

/** SVC_BACKGROUND_NICE overrides the increment (0: leave the threads at the process's nice), for
 *  A/B benchmarks; out-of-range values fall back to the default. */
export function backgroundNice(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.SVC_BACKGROUND_NICE;
  if (v === undefined || v === '') return DEFAULT_BACKGROUND_NICE;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 && n <= 19 ? n : DEFAULT_BACKGROUND_NICE;
}

/** Makes the calling worker thread nicer by backgroundNice() (capped at 19). On Linux a nice value
 *  belongs to one thread, and setpriority(PRIO_PROCESS, 0) is the calling thread's; unprivileged,
 *  it can never be raised again, so this is for threads that only ever do background work. A
 *  no-op on the main thread (the event loop must never lose priority) and where the kernel
 *  refuses. Returns the thread's nice value afterwards (null: unchanged). */
export function markBackgroundThread(env: NodeJS.ProcessEnv = process.env): number | null {
  const inc = backgroundNice(env);
  if (isMainThread || inc === 0) return null;
  try {
    const target = Math.min(19, getPriority() + inc);
    setPriority(target);
    return getPriority();
  } catch {
    return null;
  }
}
