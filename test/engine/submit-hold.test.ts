// Requests submitted in one event-loop turn reach the engine together (NativeModel holds its
// submits until the turn's microtasks have run; engine::hold_submits): a burst starts in one step
// instead of the first few in a step of their own and the rest a step later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { native, type SessionHandle } from '../../src/native/binding.js';
import { GREEDY_SAMPLING as GREEDY } from '../../src/engine/sampling.js';
import { testModelPath } from './helpers/models.js';
import { syntheticPrompt } from './helpers/generate.js';

let model: EngineModel;

beforeAll(async () => {
  model = await loadModel(await testModelPath('submit-hold'), { threads: 2, kvCacheMb: 64, prefixCache: false });
});

afterAll(() => model?.unload());

describe('submit hold', () => {
  it('admits the requests of one turn in the same engine step', async () => {
    for (let round = 0; round < 5; round++) {
      const before = model.stats().steps ?? 0;
      // 16 short prompts (16 × 6 tokens, well inside one step's token budget), one token each.
      const runs = Array.from({ length: 16 }, (_, i) =>
        model.generate({ prompt: syntheticPrompt(6, 100 * round + i + 1), maxTokens: 1, sampling: GREEDY }, () => {}),
      );
      const results = await Promise.all(runs);
      for (const r of results) expect(r).toMatchObject({ completionTokens: 1 });
      // Prefill and first token of all 16 in one step.
      expect((model.stats().steps ?? 0) - before).toBe(1);
    }
  });

  it('a hold that is never released lapses: the submits still run', async () => {
    const session = (model as unknown as { dispatcher: { session: SessionHandle } }).dispatcher.session;
    native().holdSubmits(session); // never released
    try {
      const r = await model.generate({ prompt: syntheticPrompt(6, 999), maxTokens: 2, sampling: GREEDY }, () => {});
      expect(r).toMatchObject({ completionTokens: 2 });
    } finally {
      native().releaseSubmits(session);
    }
  });
});
