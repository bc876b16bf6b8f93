// One server per data dir: two runners on one LMDB env would both resume the same batches and
// run requests twice. A pid file taken with O_EXCL, naming the owner by pid and, where /proc has
// it, the process's start time and the boot: a lock whose owner is gone (kill -9, OOM) is taken
// over even when its pid now belongs to another process, as it does after a container restart
// (the server is pid 1 again). The same process locking the dir twice is refused.
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

export function lockDataDir(dataDir: string): DataDirLock {
  const path = resolve(join(dataDir, 'svc.lock'));
  if (held.has(path)) throw new Error(`data dir ${dataDir} is already in use by this process (${path})`);
  const identity = processIdentity(process.pid);
  const content = identity ? `${process.pid} ${identity}` : String(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
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
      const text = readFileSync(path, 'utf8');
      if (ownerAlive(text)) {
        throw new Error(`data dir ${dataDir} is in use by process ${text.trim().split(/\s+/)[0]} (${path})`);
      }
      unlinkSync(path);
    }
  }
  throw new Error(`could not lock data dir ${dataDir}`);
}
