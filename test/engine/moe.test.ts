// Mixture-of-experts models in the serving engine: a step's rows are grouped by expert (each
// active expert's weights read once per step), a lone decode runs its k experts in one pass, and
// neither may change a sequence's tokens. With 16 experts of which 2 (qwen3moe) or 4 (gpt-oss) are
// used per token, the tokens of different prompts (and the positions of one prompt) are routed to
// different experts, so batching them together really mixes expert groups. gpt-oss adds attention
// sinks, 64-token windows on every other layer (shorter than the long prompts), biased experts and
// YaRN, all of which batching must leave alone too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import type { ModelSpec } from '../../src/model-maker/index.js';
import { testModelPath } from './helpers/models.js';
import { generateEvents, syntheticPrompt } from './helpers/generate.js';

const CASES: Array<{ name: string; spec: Partial<ModelSpec> }> = [
  { name: 'qwen3moe', spec: { arch: 'qwen3moe', experts: 16, expertsUsed: 2, expertFfn: 128 } },
  {
    name: 'gpt-oss',
    spec: { arch: 'gpt-oss', experts: 16, expertsUsed: 4, expertFfn: 128, slidingWindow: 64, ropeYarn: { factor: 32, origCtx: 1024 }, dtype: 'mxfp4_moe', tied: false },
  },
];

describe.each(CASES)('mixture of experts: $name', ({ name, spec }) => {
  let model: EngineModel;

  beforeAll(async () => {
    model = await loadModel(await testModelPath(`moe-cold-${name}`, spec), { threads: 2, kvCacheMb: 64, prefixCache: false });
  });

  afterAll(() => model?.unload());

  it(`loads as ${name}`, () => {
    expect(model.nativeInfo.architecture).toBe(name);
  });

  it('concurrent sequences give the same greedy tokens as each alone', async () => {
    // Long chunked prefills (> the 512-token step budget) beside short prompts already decoding:
    // steps mix prefill rows and several decode rows of different sequences.
    const prompts = [3, 41, 700, 150, 1, 90].map((n, i) => syntheticPrompt(n, i + 11));
    const alone = [];
    for (const p of prompts) alone.push((await generateEvents(model, { prompt: p }, 24)).tokens);
    const together = await Promise.all(prompts.map((p) => generateEvents(model, { prompt: p }, 24)));
    expect(together.map((r) => r.tokens)).toEqual(alone);
    // Different prompts continue differently (the experts are not all alike).
    expect(new Set(alone.map((t) => t.join(','))).size).toBe(prompts.length);
  });

  it('evaluate() of a whole sequence gives the logits of decoding it token by token', async () => {
    const p = syntheticPrompt(40, 5);
    const { tokens } = await generateEvents(model, { prompt: p }, 16);
    const seq = [...p, ...tokens.slice(0, -1)];
    const res = await model.evaluate(seq, { allLogits: true });
    const vocab = res.logits.length / res.logitPositions.length;
    // Greedy decoding picked each token from one-row steps; the batched pass must pick the same.
    for (let i = 0; i < tokens.length; i++) {
      const row = res.logits.subarray((p.length - 1 + i) * vocab, (p.length + i) * vocab);
      let arg = 0;
      for (let v = 1; v < vocab; v++) if (row[v]! > row[arg]!) arg = v;
      expect(arg, `token ${i}`).toBe(tokens[i]);
    }
  });
});
