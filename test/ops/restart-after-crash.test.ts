// A restart right after `kill -9` works even before the dead server was reaped: a real `svc serve`
// runs under a parent that never reaps it (a shell that backgrounds it and becomes `sleep`), is
// killed with SIGKILL and stays a zombie holding its pid, and a new server on the same data dir
// starts at once (its lock sees the zombie as gone).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseServeConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createServices } from '../../src/server/services.js';
import { processState } from '../../src/process-info.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { chatModelPath } from '../chat/harness.js';

let dataDir: string | null = null;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('restart after a crash', () => {
  it.skipIf(processState(process.pid) === null || !existsSync(join(PACKAGE_ROOT, 'dist', 'src', 'cli.js')))(
    'a new server takes the data dir of a killed server that is still a zombie',
    async () => {
      const dir = (dataDir = mkdtempSync(join(tmpdir(), 'svc-restart-')));
      const model = await chatModelPath();
      const serve = `'${process.execPath}' '${join(PACKAGE_ROOT, 'bin', 'svc.mjs')}' serve --port 0 --no-predict --data-dir '${dir}' --model '${model}' --api-key sk-restart-test-key --log-level silent`;
      const parent = spawn('sh', ['-c', `${serve} & echo $!; exec sleep 120`], { stdio: ['ignore', 'pipe', 'inherit'] });
      try {
        const pid = Number.parseInt(await new Promise<string>((r) => parent.stdout!.once('data', (d: Buffer) => r(d.toString()))), 10);
        // The lock is taken before the model loads.
        const lockFile = join(dir, 'svc.lock');
        while (!existsSync(lockFile) || readFileSync(lockFile, 'utf8').length === 0) await sleep(20);
        expect(readFileSync(lockFile, 'utf8').split(' ')[0]).toBe(String(pid));
        process.kill(pid, 'SIGKILL');
        while (processState(pid) !== 'Z') await sleep(20);

        const config = parseServeConfig(['--data-dir', dir, '--api-key', 'sk-restart-test-key'], {});
        const services = await createServices(config, { logger: createLogger({ level: 'silent' }), loadModels: async () => [] });
        expect(readFileSync(lockFile, 'utf8').split(' ')[0]).toBe(String(process.pid));
        expect(processState(pid)).toBe('Z'); // taken over while the old server was still a zombie
        await services.close();
      } finally {
        parent.kill('SIGKILL');
      }
    },
    60_000,
  );
});
