// How long some work holds this thread's event loop: a timer chain runs beside the work and
// records the longest gap between two of its turns (a turn waits for whatever holds the loop).
import { mainThreadCpuMs } from '../chat/bench-run.js';

/** Longest gap between turns of the timer chain while the work ran, in wall time and in this
 *  thread's CPU time (on a shared machine the wall gaps include time the OS gave other
 *  processes; the CPU gaps are what the loop itself spent), and the work's wall and CPU time. */
export interface Hold {
  maxHoldMs: number;
  maxHoldCpuMs: number;
  totalMs: number;
  loopCpuMs: number;
}

/** Runs `work` with the timer chain beside it; `result` is what the work resolved to. */
export async function holdOf<T>(work: () => Promise<T>): Promise<Hold & { result: T }> {
  let last = performance.now();
  let lastCpu = mainThreadCpuMs();
  let max = 0;
  let maxCpu = 0;
  let running = true;
  const tick = (): void => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    max = Math.max(max, now - last);
    maxCpu = Math.max(maxCpu, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
    // A timer, not setImmediate: an immediate chain would keep the loop spinning (and its CPU
    // would drown the loop CPU this measures).
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const t0 = performance.now();
  const cpu0 = mainThreadCpuMs();
  const result = await work();
  const totalMs = performance.now() - t0;
  const loopCpuMs = mainThreadCpuMs() - cpu0;
  running = false;
  return { maxHoldMs: max, maxHoldCpuMs: maxCpu, totalMs, loopCpuMs, result };
}
