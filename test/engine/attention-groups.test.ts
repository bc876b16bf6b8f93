// Prefill attention runs consecutive tokens of one sequence in groups (forward.cc, attend_rows);
// a decode token, or a pass of one token, runs alone. Every logit must be the same bits either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { testModelPath } from './helpers/models.js';
import { syntheticPrompt } from './helpers/generate.js';

let grouped: EngineModel;
let alone: EngineModel;

beforeAll(async () => {
  // Built-in shapes: 2 query heads per KV head, so a 512-token pass attends in groups of 8 tokens.
  grouped = await loadModel(await testModelPath('attn-grouped'), { threads: 2, kvCacheMb: 64, prefixCache: false });
  // One token per pass: every token attends alone.
  alone = await loadModel(await testModelPath('attn-alone'), { threads: 2, kvCacheMb: 64, prefixCache: false, maxBatchTokens: 1 });
});

afterAll(() => {
  grouped?.unload();
  alone?.unload();
});

const bits = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

describe('prefill attention in token groups', () => {
  it('gives every position the same logits, bit for bit, as one token per pass', async () => {
    const p = syntheticPrompt(300, 21);
    const a = await grouped.evaluate(p, { allLogits: true });
    const b = await alone.evaluate(p, { allLogits: true });
    expect(a.logits.length).toBe(300 * grouped.info.vocabSize);
    expect(bits(a.logits).equals(bits(b.logits))).toBe(true);
  });
});
