// INFER_COMPUTE_POLICY=batch|idle: the engine's compute threads (its loop thread and pool workers)
// run as SCHED_BATCH (3) or SCHED_IDLE (5), every other thread as before (SCHED_OTHER, 0); an A/B
// knob beside --engine-nice (native/kernels/compute_thread.cc). The variable is read when each
// thread starts, so each case runs in a child process of its own, over the built tree.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { testModelPath } from './helpers/models.js';

const ENGINE = join(PACKAGE_ROOT, 'dist', 'src', 'engine', 'index.js');

/** Loads the model with 3 engine threads in a child and returns every thread's scheduling policy
 *  (field 41 of /proc/self/task/TID/stat), the main thread's first. */
function childPolicies(model: string, policy: string | undefined): number[] {
  const script = `
    import { readFileSync, readdirSync } from 'node:fs';
    const { loadModel } = await import(${JSON.stringify(pathToFileURL(ENGINE).href)});
    const m = await loadModel(${JSON.stringify(model)}, { threads: 3, kvCacheMb: 16 });
    const policyOf = (tid) => { const s = readFileSync('/proc/self/task/' + tid + '/stat', 'utf8'); return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[38]); };
    let out = [];
    for (let i = 0; i < 100; i++) {
      out = [policyOf(process.pid), ...readdirSync('/proc/self/task').filter((t) => Number(t) !== process.pid).map(policyOf)];
      if (out.filter((p) => p !== 0).length >= 3 || ${JSON.stringify(policy ?? '')} === '') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    m.unload();
    console.log(JSON.stringify(out));`;
  const env = { ...process.env };
  delete env.INFER_COMPUTE_POLICY;
  if (policy !== undefined) env.INFER_COMPUTE_POLICY = policy;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
  return JSON.parse(stdout.trim().split('\n').pop()!) as number[];
}

describe.skipIf(process.platform !== 'linux' || !existsSync(ENGINE))('compute thread policy', () => {
  it('puts exactly the engine loop and its two pool workers in SCHED_BATCH or SCHED_IDLE', async () => {
    const model = await testModelPath('compute-policy');
    for (const [name, policy] of [['batch', 3], ['idle', 5]] as const) {
      const [main, ...rest] = childPolicies(model, name);
      expect(main).toBe(0); // the event loop keeps SCHED_OTHER
      expect(rest.filter((p) => p === policy).length).toBe(3);
      expect(rest.filter((p) => p !== 0 && p !== policy)).toEqual([]);
    }
    const [main, ...rest] = childPolicies(model, undefined);
    expect([main, ...rest].every((p) => p === 0)).toBe(true);
  }, 60_000);
});
