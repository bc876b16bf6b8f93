// Per-thread scheduler slices as the kernel shows them (Linux 6.12+ EEVDF: se.slice in
// /proc/self/task/<tid>/sched), for the tests of the engine's and the event loop's slices.
import { readFileSync } from 'node:fs';
import { release } from 'node:os';

/** True where the kernel has per-task slices and shows them. */
export function kernelHasSlices(): boolean {
  const [major = 0, minor = 0] = release().split('.').map(Number);
  if (process.platform !== 'linux' || major < 6 || (major === 6 && minor < 12)) return false;
  try {
    return /^se\.slice/m.test(readFileSync('/proc/self/sched', 'utf8'));
  } catch {
    return false;
  }
}

/** The slice of one thread of this process, in ns; throws if the thread has ended. */
export function threadSliceNs(tid: number | string): number | undefined {
  const m = /^se\.slice\s*:\s*(\d+)/m.exec(readFileSync(`/proc/self/task/${tid}/sched`, 'utf8'));
  return m ? Number(m[1]) : undefined;
}
