// One engine property suite run across step token budgets (--max-batch-tokens): how prompts are
// cut into prefill chunks, and how many rows of other sequences share a step, must not change any
// sequence's greedy tokens or the logits behind them. Budgets from one token (every prefill token
// its own step) to the default 512; prompts longer than the largest budget so every budget chunks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { testModelPath } from './helpers/models.js';
import { generateEvents, syntheticPrompt } from './helpers/generate.js';

const BUDGETS = [1, 7, 64, 512];
const PROMPTS = [3, 90, 600, 41, 1].map((n, i) => syntheticPrompt(n, i + 21));
const TOKENS = 12;

const models = new Map<number, EngineModel>();

beforeAll(async () => {
  for (const b of BUDGETS) {
    models.set(b, await loadModel(await testModelPath(`budget-${b}`), { threads: 2, kvCacheMb: 64, prefixCache: false, maxBatchTokens: b }));
  }
}, 300_000);

afterAll(() => {
  for (const m of models.values()) m.unload();
});

/** Each prompt's greedy tokens and per-token logprobs, all prompts submitted at once. */
async function together(model: EngineModel): Promise<Array<{ tokens: number[]; logprobs: Array<Array<number | undefined>> }>> {
  const runs = await Promise.all(PROMPTS.map((p) => generateEvents(model, { prompt: p, topLogprobs: 2 }, TOKENS)));
  return runs.map((r) => ({ tokens: r.tokens, logprobs: r.events.map((e) => [e.logprob, ...(e.topLogprobs ?? []).map((t) => t.logprob)]) }));
}

describe('across step token budgets', () => {
  it('concurrent sequences give the same greedy tokens and logprobs at every budget', async () => {
    const reference = await together(models.get(512)!);
    expect(reference.every((r) => r.tokens.length === TOKENS)).toBe(true);
    expect(reference.flatMap((r) => r.logprobs.flat()).every((x) => typeof x === 'number' && x <= 0)).toBe(true);
    expect(new Set(reference.map((r) => r.tokens.join(','))).size).toBe(PROMPTS.length);
    for (const b of BUDGETS.filter((x) => x !== 512)) {
      const got = await together(models.get(b)!);
      expect(got.map((r) => r.tokens), `budget ${b}`).toEqual(reference.map((r) => r.tokens));
      expect(got.map((r) => r.logprobs), `budget ${b}`).toEqual(reference.map((r) => r.logprobs));
    }
  }, 300_000);

  it('a budget of one token still runs one decode row per sequence per step', async () => {
    const m = models.get(1)!;
    const before = m.nativeStats().steps;
    await Promise.all(PROMPTS.slice(0, 2).map((p) => generateEvents(m, { prompt: p }, TOKENS)));
    // 3 + 90 prompt tokens at one token per step, then the decode steps: at least as many steps as
    // prompt tokens, so the budget bounded the chunks.
    expect(m.nativeStats().steps - before).toBeGreaterThanOrEqual(93);
  }, 300_000);
});
