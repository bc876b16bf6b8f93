// The data-dir lock: refused while its owner runs, taken over once it is gone, even when the
// owner's pid now names another process (a container restarted: the server is pid 1 again).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../src/store/lock.js';
import { processIdentity, processState } from '../../src/process-info.js';
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
    expect(() => lockDataDir(dir, { waitMs: 200 })).toThrow(new RegExp(`in use by process ${pid}`));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    lockDataDir(dir).release();
  });

  it.skipIf(processState(process.pid) === null)('takes over a lock whose owner is a zombie (exited, never reaped by its parent)', async () => {
    // The shell starts the owner in the background, prints its pid and becomes `sleep`, which
    // never reaps it: once the owner exits it stays a zombie, as a server killed with -9 does
    // under a parent that has not called wait() yet.
    const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const pid = Number.parseInt(await new Promise<string>((r) => parent.stdout!.once('data', (d: Buffer) => r(d.toString()))), 10);
      const identity = processIdentity(pid);
      writeFileSync(lockFile(), identity ? `${pid} ${identity}` : String(pid));
      while (processState(pid) !== 'Z') await new Promise((r) => setTimeout(r, 20));
      // Still there for kill(pid, 0), which is what made the restart fail before.
      expect(() => process.kill(pid, 0)).not.toThrow();
      lockDataDir(dir, { waitMs: 0 }).release(); // gone already: no wait
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('waits for an owner that is exiting, and refuses one that stays past the wait', async () => {
    // The owner exits on its own 300 ms in; lockDataDir blocks this thread, so nothing here
    // reaps it: it goes from running to zombie while the lock waits.
    const owner = spawn('sleep', ['0.3']);
    await new Promise((r) => owner.once('spawn', r));
    const identity = processIdentity(owner.pid!);
    writeFileSync(lockFile(), identity ? `${owner.pid} ${identity}` : String(owner.pid));
    lockDataDir(dir, { waitMs: 30_000 }).release();
    await new Promise((r) => owner.once('exit', r));

    const stays = spawn('sleep', ['60']);
    await new Promise((r) => stays.once('spawn', r));
    writeFileSync(lockFile(), String(stays.pid));
    const started = Date.now();
    expect(() => lockDataDir(dir, { waitMs: 300 })).toThrow(new RegExp(`in use by process ${stays.pid}`));
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    stays.kill('SIGKILL');
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
