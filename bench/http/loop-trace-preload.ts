// Preloaded into a benchmark's `svc serve` (NODE_OPTIONS=--import=<this file>, with
// SVC_LOOP_TRACE_FILE set) to say what a slow /health answer waited for: a 1 ms timer chain on
// the main thread records every turn that came more than SVC_LOOP_TRACE_MIN_MS (default 3) late,
// with what the main thread did in that gap from /proc/self/task/<pid>/schedstat: CPU time spent
// on it (the loop was busy) and time spent runnable but waiting for a core (the loop was ready
// and the kernel ran something else). One line per late turn: `at_ms gap_ms cpu_ms wait_ms`.
// Bench-only: nothing in src/ knows about it.
import { appendFileSync, readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.SVC_LOOP_TRACE_FILE;
if (file && isMainThread) {
  const minMs = Number(process.env.SVC_LOOP_TRACE_MIN_MS ?? 3);
  const path = `/proc/self/task/${process.pid}/schedstat`;
  const sched = (): [number, number] => {
    const [cpu, wait] = readFileSync(path, 'utf8').split(' ');
    return [Number(cpu) / 1e6, Number(wait) / 1e6];
  };
  let last = performance.now();
  let [lastCpu, lastWait] = sched();
  const tick = (): void => {
    const now = performance.now();
    const [cpu, wait] = sched();
    // Expected gap: the 1 ms timer itself.
    if (now - last > minMs + 1) {
      appendFileSync(file, `${(performance.timeOrigin + last).toFixed(1)} ${(now - last).toFixed(2)} ${(cpu - lastCpu).toFixed(2)} ${(wait - lastWait).toFixed(2)}\n`);
    }
    last = now;
    lastCpu = cpu;
    lastWait = wait;
    setTimeout(tick, 1).unref();
  };
  setTimeout(tick, 1).unref();
}
