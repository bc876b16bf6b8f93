// The serving engine on each model family: continuous batching, the prefix cache and chunked
// prefill must not change a sequence's tokens, including on sliding-window layers (windows shorter
// than the prompts here, so cached and batched positions really fall out of the window).
import { afterAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import type { GenerateRequest } from '../../src/engine/types.js';
import type { ModelSpec } from '../../src/model-maker/index.js';
import { generateEvents, syntheticPrompt as prompt } from './helpers/generate.js';
import { testModelPath } from './helpers/models.js';

const FAMILIES: Array<{ arch: ModelSpec['arch']; extra: Partial<ModelSpec> }> = [
  { arch: 'qwen3', extra: { headDim: 64 } },
  { arch: 'gemma2', extra: { slidingWindow: 24 } },
  { arch: 'gemma3', extra: { headDim: 64, slidingWindow: 20, layers: 6 } },
  { arch: 'phi3', extra: { ropeFactors: true, tied: false } },
  { arch: 'gpt-oss', extra: { experts: 8, expertsUsed: 2, expertFfn: 128, slidingWindow: 24, ropeYarn: { factor: 32, origCtx: 512 }, tied: false } },
];

const loaded: EngineModel[] = [];
afterAll(() => {
  for (const m of loaded) m.unload();
});

describe.each(FAMILIES)('engine on $arch', ({ arch, extra }) => {
  const spec: Partial<ModelSpec> = { arch, ...extra, dtype: 'q8_0' };
  const run = (m: EngineModel, req: Partial<GenerateRequest> & { prompt: Uint32Array }) => generateEvents(m, req, 16);
  const open = async (name: string, prefixCache: boolean) => {
    const m = await loadModel(await testModelPath(`${arch}-${name}`, spec), { threads: 2, kvCacheMb: 64, prefixCache });
    loaded.push(m);
    return m;
  };

  it('concurrent sequences, chunked prefills and the prefix cache give each sequence its tokens alone', async () => {
    const cold = await open('cold', false);
    const cached = await open('cached', true);
    const prompts = [5, 37, 600, 130, 1, 90].map((n, i) => prompt(n, i + 1));
    const alone = [];
    for (const p of prompts) alone.push((await run(cold, { prompt: p, maxTokens: 20 })).tokens);
    const together = await Promise.all(prompts.map((p) => run(cold, { prompt: p, maxTokens: 20 })));
    expect(together.map((r) => r.tokens)).toEqual(alone);

    // A shared 200-token prefix (many windows long) served from the cache.
    const shared = prompt(200, 11);
    const a = Uint32Array.from([...shared, ...prompt(9, 12)]);
    const b = Uint32Array.from([...shared, ...prompt(14, 13)]);
    await run(cached, { prompt: a });
    const second = await run(cached, { prompt: b });
    expect(second.result.cachedTokens).toBe(192);
    expect(second.tokens).toEqual((await run(cold, { prompt: b })).tokens);
  });

  it('greedy tokens agree with teacher-forced evaluate()', async () => {
    const cold = await open('eval', false);
    const p = prompt(60, 3);
    const g = await run(cold, { prompt: p, maxTokens: 12 });
    const ev = await cold.evaluate(Uint32Array.from([...p, ...g.tokens]), { topK: 1 });
    expect(Array.from(ev.topIds.subarray(p.length - 1, p.length - 1 + g.tokens.length))).toEqual(g.tokens);
  });
});
