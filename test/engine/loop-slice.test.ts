// Loading an engine gives Node's event loop (the main thread) the kernel's shortest scheduler slice
// (src/engine/loop-slice.ts), so that it preempts a compute thread as soon as it wakes. Checked
// where the kernel has per-task slices (Linux 6.12+ EEVDF, se.slice in /proc/<tid>/sched).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { DEFAULT_LOOP_SLICE_US, loopSliceUs } from '../../src/engine/loop-slice.js';
import { testModelPath } from './helpers/models.js';
import { kernelHasSlices, threadSliceNs } from './helpers/sched.js';

describe('loopSliceUs', () => {
  it('defaults to the kernel minimum and takes SVC_LOOP_SLICE_US (0 = leave the thread alone)', () => {
    expect(DEFAULT_LOOP_SLICE_US).toBe(100);
    expect(loopSliceUs({})).toBe(100);
    expect(loopSliceUs({ SVC_LOOP_SLICE_US: '' })).toBe(100);
    expect(loopSliceUs({ SVC_LOOP_SLICE_US: '0' })).toBe(0);
    expect(loopSliceUs({ SVC_LOOP_SLICE_US: '750' })).toBe(750);
    expect(loopSliceUs({ SVC_LOOP_SLICE_US: 'fast' })).toBe(100);
    expect(loopSliceUs({ SVC_LOOP_SLICE_US: '-5' })).toBe(100);
  });
});

describe.skipIf(!kernelHasSlices() || process.env.SVC_LOOP_SLICE_US !== undefined)('event loop slice', () => {
  let model: EngineModel;
  let before: number | undefined;
  beforeAll(async () => {
    before = threadSliceNs(process.pid);
    model = await loadModel(await testModelPath('loop-slice'), { threads: 2, kvCacheMb: 16 });
  });
  afterAll(() => model?.unload());

  it('gives the main thread the 100 µs slice once an engine is loaded', () => {
    expect(before).not.toBe(100_000);
    expect(threadSliceNs(process.pid)).toBe(100_000);
  });
});
