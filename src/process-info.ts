// Facts about other processes from the OS, for files that name their writer by pid (the data-dir
// lock, temporary files of an interrupted write).
import { readFileSync } from 'node:fs';

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
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

