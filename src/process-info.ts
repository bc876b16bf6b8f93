// Facts about other processes from the OS, for files that name their writer by pid (the data-dir
// lock, temporary files of an interrupted write).
import { readFileSync } from 'node:fs';

/** The state letter of /proc/PID/stat (R, S, D, Z, X, ...), or null where /proc does not say. */
export function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the command name, which may hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) || null;
  } catch {
    return null;
  }
}

/** True while the process runs. A zombie (Z: exited, not yet reaped by its parent) or a dead
 *  one (X) still answers kill(pid, 0) but holds nothing any more: it counts as gone. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = processState(pid);
  return state !== 'Z' && state !== 'X';
}

/** "<boot id>:<start time in clock ticks>" of a process, or null where /proc does not say. */
export function processIdentity(pid: number): string | null {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime) counted after the command name, which may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return boot && start ? `${boot}:${start}` : null;
  } catch {
    return null;
  }
}
