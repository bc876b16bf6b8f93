// A server stopped while its piscina threads still load must not take the process down. The apply
// pool starts its threads at server start without waiting; destroying the pool while a thread was
// inside Node's synchronous require() of the worker's ES module graph ended the process with a V8
// fatal error (seen as "Worker exited unexpectedly" in test runs that stopped servers quickly).
// This starts and destroys the pool again and again in a child process and expects the child to
// live to the end.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';

const dist = (f: string): string => JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, 'dist', f)).href);

// Stops at delays stepping through the first 800 ms of a thread's start (where the crash was seen:
// the graph is compiled and instantiated before the slow part, the tokenizer of the warm-up task),
// for 25 s at most.
const CHILD = `
const { warmApplyPool, closeApplyPool } = await import(${dist('src/apply/pool.js')});
const t0 = performance.now();
let stops = 0;
for (let d = 0; performance.now() - t0 < 25000; d = (d + 7) % 800, stops++) {
  warmApplyPool().catch(() => {});
  await new Promise((r) => setTimeout(r, d));
  await closeApplyPool();
}
console.log(JSON.stringify({ stops }));
`;

describe('piscina pools stopped while their threads load', () => {
  it('leave the process running (no V8 fatal error in a terminated worker)', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD], { encoding: 'utf8', timeout: 240_000 });
    expect(r.stderr).not.toMatch(/FATAL ERROR/);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { stops: number };
    expect(out.stops).toBeGreaterThanOrEqual(20);
  }, 300_000);

  it('every pool in src/ is built by taskPool, on the CommonJS entry', () => {
    const files = readdirSync(join(PACKAGE_ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const text = (f: string): string => readFileSync(join(PACKAGE_ROOT, 'src', f), 'utf8');
    // The one constructor (pool-entry.ts) passes the entry as filename; no other file builds a pool.
    expect(files.filter((f) => /new Piscina\b/.test(text(f)))).toEqual(['pool-entry.ts']);
    expect(text('pool-entry.ts')).toMatch(/new Piscina<T, R>\(\{ \.\.\.options, filename: POOL_ENTRY_FILE,/);
    expect(files.filter((f) => /\btaskPool</.test(text(f))).length).toBeGreaterThanOrEqual(4);
  });
});
