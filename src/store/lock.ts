// One server per data dir: two runners on one LMDB env would both resume the same batches and
// run requests twice. A pid file taken with O_EXCL; a stale one (its process is gone, e.g. after
// kill -9) is taken over. The same process opening the dir twice is refused too.
import { openSync, writeSync, closeSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, 'svc.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release() {
          try {
            if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isFinite(owner) && processAlive(owner)) {
        throw new Error(`data dir ${dataDir} is in use by process ${owner} (${path})`);
      }
      unlinkSync(path);
    }
  }
  throw new Error(`could not lock data dir ${dataDir}`);
}
