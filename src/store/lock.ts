// One server per data dir: two runners on one LMDB env would both resume the same batches and
// run requests twice. A pid file taken with O_EXCL, naming the owner by pid and, where /proc has
// it, the process's start time and the boot: a lock whose owner is gone (kill -9, OOM) is taken
// over even when its pid now belongs to another process, as it does after a container restart
// (the server is pid 1 again). An owner that exited but was not reaped yet (a zombie) counts as
// gone; one that still runs gets a few seconds to finish dying (a restart right after kill -9 or
// during a slow shutdown) before the lock is refused. The same process locking the dir twice is
// refused at once.
import { openSync, writeSync, closeSync, readFileSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { processAlive, processIdentity } from '../process-info.js';

/** Lock files this process holds. */
const held = new Set<string>();

/** True when the process a lock file names still runs. */
function ownerAlive(text: string): boolean {
  const [pidText, identity] = text.trim().split(/\s+/);
  const pid = Number.parseInt(pidText ?? '', 10);
  if (!Number.isFinite(pid) || pid <= 0) return false;
  if (pid === process.pid) return false; // not held by this process (checked before): an earlier life
  if (!processAlive(pid)) return false;
  if (identity === undefined) return true; // a lock without an identity: its pid is all we know
  const now = processIdentity(pid);
  return now === null || now === identity;
}

export interface DataDirLock {
  release(): void;
}

/** How long a start waits for a running owner to go before refusing the dir. */
export const DEFAULT_OWNER_WAIT_MS = 5000;
const OWNER_POLL_MS = 25;

/** Blocks the thread: the lock is taken at startup, before any server answers. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export interface LockOptions {
  /** How long to wait for a running owner to exit (default DEFAULT_OWNER_WAIT_MS). */
  waitMs?: number;
}

export function lockDataDir(dataDir: string, opts: LockOptions = {}): DataDirLock {
  const path = resolve(join(dataDir, 'svc.lock'));
  if (held.has(path)) throw new Error(`data dir ${dataDir} is already in use by this process (${path})`);
  const identity = processIdentity(process.pid);
  const content = identity ? `${process.pid} ${identity}` : String(process.pid);
  const deadline = Date.now() + (opts.waitMs ?? DEFAULT_OWNER_WAIT_MS);
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, content);
      closeSync(fd);
      held.add(path);
      return {
        release() {
          held.delete(path);
          try {
            if (readFileSync(path, 'utf8') === content) unlinkSync(path);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (readErr) {
        if ((readErr as NodeJS.ErrnoException).code === 'ENOENT') continue; // its owner just released it
        throw readErr;
      }
      if (!ownerAlive(text)) {
        try {
          unlinkSync(path);
        } catch (unlinkErr) {
          // ENOENT: another starter removed it first, and the next open decides.
          if ((unlinkErr as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkErr;
        }
        continue;
      }
      if (Date.now() >= deadline) {
        throw new Error(`data dir ${dataDir} is in use by process ${text.trim().split(/\s+/)[0]} (${path})`);
      }
      sleepSync(OWNER_POLL_MS);
    }
  }
}
