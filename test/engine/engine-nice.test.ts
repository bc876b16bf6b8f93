// --engine-nice: the engine's own compute threads (its scheduler loop and the pool's workers) run
// at a nice value that much above the process's, so that the event loop gets a core first; no
// other thread of the process changes (native/kernels/compute_thread.cc). Linux only.
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { native } from '../../src/native/binding.js';
import { GREEDY_SAMPLING } from '../../src/engine/sampling.js';
import { testModelPath } from './helpers/models.js';

/** Nice value of every thread of this process (field 19 of /proc/self/task/TID/stat). */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after the command name, which may hold spaces, start after its closing ')'.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), Number(rest[16])); // field 19 overall: state is field 3 = rest[0]
    } catch {
      // the thread ended while we listed them
    }
  }
  return out;
}

async function settle(check: () => boolean): Promise<void> {
  // The engine's threads mark themselves when they start.
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe.skipIf(process.platform !== 'linux')('engine nice', () => {
  let niced: EngineModel;
  let plain: EngineModel;
  let before: Map<number, number>;
  beforeAll(async () => {
    before = threadNices();
    niced = await loadModel(await testModelPath('engine-nice-7'), { threads: 3, kvCacheMb: 16, engineNice: 7 });
    plain = await loadModel(await testModelPath('engine-nice-0'), { threads: 2, kvCacheMb: 16, engineNice: 0 });
  });
  afterAll(() => {
    niced?.unload();
    plain?.unload();
  });

  it('lowers exactly the engine loop and its pool workers, and generates as before', async () => {
    const base = before.get(process.pid)!;
    const countAt = (nice: number) => [...threadNices().values()].filter((n) => n === nice).length;
    await settle(() => countAt(base + 7) >= 3);
    const now = threadNices();
    // threads: 3 = the engine's loop thread + 2 pool workers; the other engine (nice 0) adds none.
    expect(countAt(base + 7)).toBe(3);
    expect(now.get(process.pid)).toBe(base); // the event loop keeps its priority
    for (const [tid, nice] of before) if (now.has(tid)) expect(now.get(tid)).toBe(nice);
    const out = await niced.generate({ prompt: new Uint32Array([1, 2, 3]), maxTokens: 4, sampling: GREEDY_SAMPLING }, () => {});
    expect(out.completionTokens).toBeGreaterThan(0);
  });

  it('is reported by modelInfo and range-checked', async () => {
    const handle = await native().loadModel(await testModelPath('engine-nice-3'), { threads: 1, kvCacheMb: 16, engineNice: 3 });
    expect(native().modelInfo(handle).engineNice).toBe(3);
    native().unloadModel(handle);
    const path = await testModelPath('engine-nice-bad');
    for (const engineNice of [20, -1]) expect(() => native().loadModel(path, { threads: 1, kvCacheMb: 16, engineNice })).toThrow(/out of range/);
  });
});
