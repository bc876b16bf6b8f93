// The engine's compute threads ask the kernel for a long time slice (native/kernels/compute_thread.cc)
// so that the event loop preempts them at once when it wakes. Checked where the kernel has per-task
// slices (Linux 6.12+ EEVDF, shown as se.slice in /proc/<tid>/sched).
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { testModelPath } from './helpers/models.js';
import { kernelHasSlices, threadSliceNs } from './helpers/sched.js';

const COMPUTE_SLICE_NS = 4_000_000;

function threadSlices(): number[] {
  const out: number[] = [];
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const ns = threadSliceNs(tid);
      if (ns !== undefined) out.push(ns);
    } catch {
      // the thread ended while we listed them
    }
  }
  return out;
}

describe.skipIf(!kernelHasSlices() || process.env.INFER_COMPUTE_SLICE_US !== undefined)('compute thread slice', () => {
  let model: EngineModel;
  beforeAll(async () => {
    model = await loadModel(await testModelPath('cached'), { threads: 2, kvCacheMb: 16 });
  });
  afterAll(() => model?.unload());

  it('gives the engine loop and its pool worker the long slice, and no other thread', async () => {
    // The loop thread marks itself when it starts; give it a moment.
    let slices = threadSlices();
    for (let i = 0; i < 50 && slices.filter((s) => s === COMPUTE_SLICE_NS).length < 2; i++) {
      await new Promise((r) => setTimeout(r, 10));
      slices = threadSlices();
    }
    const long = slices.filter((s) => s === COMPUTE_SLICE_NS).length;
    expect(long).toBe(2);
    expect(slices.length).toBeGreaterThan(long);
  });
});
