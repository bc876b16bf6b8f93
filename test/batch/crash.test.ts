// Durability: SIGKILL a real `svc serve` process in the middle of a batch, start it again on the
// same data dir, and check that the batch finishes with every custom_id exactly once across the
// output and error files, and with counters that match the files.
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { applyBody, line, readJsonl, uploadJsonl, waitFor, waitTerminal } from './harness.js';
import { freePort } from '../../src/bench/svc-process.js';

const KEY = 'sk-crash-test';
// Enough that the kill (after 500 are done) lands well inside the batch; more only lengthens CI.
const N = 10_000;
let dataDir: string;
let child: ChildProcess | null = null;


async function startServer(): Promise<{ client: OpenAI; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(
    process.execPath,
    [join(PACKAGE_ROOT, 'bin/svc.mjs'), 'serve', '--no-predict', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir, '--api-key', KEY, '--log-level', 'warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  // Startup errors are logged as JSON on stdout; keep the tail of both streams for the failure message.
  const keep = (c: Buffer): void => {
    stderr = (stderr + c.toString()).slice(-4000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  child = proc;
  const client = new OpenAI({ apiKey: KEY, baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${KEY}` } })).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not come up: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { client, proc };
}

beforeAll(() => {
  try {
    execSync('flock /tmp/build.lock node scripts/build.mjs', { cwd: PACKAGE_ROOT, stdio: 'inherit' });
  } catch (err) {
    // A teammate's half-finished native file can break the shared build; the last good dist/ and
    // addon still serve this test (the server fails to start, and the test fails, if they don't).
    if (!existsSync(join(PACKAGE_ROOT, 'dist/src/cli.js'))) throw err;
    console.warn('build failed; testing the existing dist/');
    execSync('flock /tmp/build.lock npx tsc -p tsconfig.json', { cwd: PACKAGE_ROOT, stdio: 'inherit' });
  }
  dataDir = mkdtempSync(join(tmpdir(), 'svc-batch-crash-'));
}, 600_000);

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('crash recovery', () => {
  it('after kill -9 mid-batch and a restart, every request is in the output or error file exactly once', async () => {
    const first = await startServer();
    const lines = [];
    for (let i = 0; i < N; i++) lines.push(line(`c-${i}`, i % 97 === 0 ? { ...applyBody(i), messages: [{ role: 'user', content: 'no tags' }] } : applyBody(i)));
    const input = await uploadJsonl(first.client, lines);
    const batch = await first.client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const before = await waitFor(
      () => first.client.batches.retrieve(batch.id),
      (b) => b.request_counts!.completed + b.request_counts!.failed >= 500,
      60_000,
    );
    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));
    const doneBefore = before.request_counts!.completed + before.request_counts!.failed;
    // precondition: the kill really landed mid-batch
    expect(before.status).toBe('in_progress');
    expect(doneBefore).toBeLessThan(N);

    const second = await startServer();
    const after = await second.client.batches.retrieve(batch.id);
    // nothing counted before the kill was lost
    expect(after.request_counts!.completed + after.request_counts!.failed).toBeGreaterThanOrEqual(doneBefore);
    // The bound is generous: under CI the rest of the suite runs beside this server on 2 cores, and
    // a 120 s bound once expired at 18,186 of 20,000 done (a slow machine, not a lost request).
    const done = await waitTerminal(second.client, batch.id, 360_000);
    expect(done.status).toBe('completed');
    const out = await readJsonl(second.client, done.output_file_id);
    const err = await readJsonl(second.client, done.error_file_id);
    const seen = new Map<string, number>();
    for (const l of [...out, ...err]) seen.set(l.custom_id, (seen.get(l.custom_id) ?? 0) + 1);
    expect(seen.size).toBe(N);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    const bad = lines.filter((_, i) => i % 97 === 0).length;
    expect(err).toHaveLength(bad);
    expect(done.request_counts).toEqual({ total: N, completed: N - bad, failed: bad });
    // every output line carries a distinct request id: no request was recorded twice
    expect(new Set(out.map((o) => o.response!.request_id)).size).toBe(out.length);
    second.proc.kill('SIGTERM');
    await new Promise((r) => second.proc.once('exit', r));
  }, 540_000);
});
