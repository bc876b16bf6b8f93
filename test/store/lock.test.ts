// The data-dir lock: refused while its owner runs, taken over once it is gone, even when the
// owner's pid now names another process (a container restarted: the server is pid 1 again).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../src/store/lock.js';
import { processIdentity } from '../../src/process-info.js';
import { parseServeConfig } from '../../src/config.js';
import { createServices } from '../../src/server/services.js';
import { createLogger } from '../../src/log.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockFile = (): string => join(dir, 'svc.lock');

describe('lockDataDir', () => {
  it('holds the dir until released, also against this process', () => {
    const lock = lockDataDir(dir);
    expect(readFileSync(lockFile(), 'utf8')).toMatch(new RegExp(`^${process.pid}( |$)`));
    expect(() => lockDataDir(dir)).toThrow(/already in use by this process/);
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
    lockDataDir(dir).release();
  });

  it('is refused while another process owns it, and taken over once that process is gone', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    await new Promise((r) => child.once('spawn', r));
    const pid = child.pid!;
    const identity = processIdentity(pid);
    writeFileSync(lockFile(), identity ? `${pid} ${identity}` : String(pid));
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by process ${pid}`));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    lockDataDir(dir).release();
  });

  it.skipIf(processIdentity(process.pid) === null)('takes over a lock whose pid was reused by another process, or by this one', () => {
    // pid 1 runs, but it is not the process that wrote this lock (another start time).
    writeFileSync(lockFile(), `1 ${processIdentity(process.pid)!.split(':')[0]}:1`);
    lockDataDir(dir).release();
    // An earlier life of this very pid (pid 1 in a restarted container).
    writeFileSync(lockFile(), `${process.pid} ${processIdentity(process.pid)}`);
    lockDataDir(dir).release();
  });

  it('a server refuses a locked data dir before loading models, and frees the dir when a start fails', async () => {
    const config = parseServeConfig(['--data-dir', dir, '--api-key', 'sk-lock-test'], {});
    const logger = createLogger({ level: 'silent' });
    const held = lockDataDir(dir);
    let loaded = false;
    const loadModels = async () => {
      loaded = true;
      return [];
    };
    await expect(createServices(config, { logger, loadModels })).rejects.toThrow(/in use by this process/);
    expect(loaded).toBe(false);
    held.release();
    // A start that fails after the store opened releases the lock for the next one.
    const failing = async () => {
      throw new Error('model file is broken');
    };
    await expect(createServices(config, { logger, loadModels: failing })).rejects.toThrow(/model file is broken/);
    expect(existsSync(lockFile())).toBe(false);
    const services = await createServices(config, { logger, loadModels });
    expect(loaded).toBe(true);
    await services.close();
  });
});
