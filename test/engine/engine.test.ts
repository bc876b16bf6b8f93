// The serving engine end to end through loadModel(): real addon, real generated GGUF models.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/engine/engine-errors.js';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import type { GenerateRequest } from '../../src/engine/types.js';
import { closeTextPool, OFFLOAD_MIN_CHARS, TEXT_WORKER_FILE } from '../../src/engine/text-pool.js';
import { existsSync } from 'node:fs';
import { testModelPath } from './helpers/models.js';
import { generateEvents, syntheticPrompt } from './helpers/generate.js';
import { eosBan, GREEDY_SAMPLING as GREEDY } from '../../src/engine/sampling.js';

const prompt = syntheticPrompt;
const run = (model: EngineModel, req: Partial<GenerateRequest> & { prompt: Uint32Array }) => generateEvents(model, req, 16);

let cached: EngineModel;
let cold: EngineModel;

beforeAll(async () => {
  cached = await loadModel(await testModelPath('cached'), { threads: 2, kvCacheMb: 64 });
  cold = await loadModel(await testModelPath('cold'), { threads: 2, kvCacheMb: 64, prefixCache: false });
});

afterAll(async () => {
  cached?.unload();
  cold?.unload();
  await closeTextPool();
});

describe('generation', () => {
  it('concurrent sequences give the same greedy tokens as each alone', async () => {
    // Lengths mix long chunked prefills (> 512-token step budget) with short prompts that are
    // already decoding while the long ones prefill.
    const prompts = [5, 37, 600, 130, 1, 260].map((n, i) => prompt(n, i + 1));
    const alone = [];
    for (const p of prompts) alone.push((await run(cold, { prompt: p, maxTokens: 20 })).tokens);
    const together = await Promise.all(prompts.map((p) => run(cold, { prompt: p, maxTokens: 20 })));
    expect(together.map((r) => r.tokens)).toEqual(alone);
    for (const r of together) expect(r.result).toMatchObject({ finishReason: 'length', completionTokens: 20, cachedTokens: 0 });
  });

  it('same seed gives the same output; another seed another', async () => {
    const sampling = { ...GREEDY, temperature: 1.0, topP: 0.95, topK: 200, seed: 42 };
    const p = prompt(20, 9);
    const a = await run(cold, { prompt: p, sampling, maxTokens: 24 });
    const b = await run(cold, { prompt: p, sampling, maxTokens: 24 });
    const c = await run(cold, { prompt: p, sampling: { ...sampling, seed: 43 }, maxTokens: 24 });
    expect(b.tokens).toEqual(a.tokens);
    expect(c.tokens).not.toEqual(a.tokens);
  });

  it('unseeded requests sample differently, submitted together or one after another', async () => {
    // Each unseeded sampler takes its own seed (one random_device read per process, then a
    // sequence): two requests must not share a stream.
    const sampling = { ...GREEDY, temperature: 1.0, topP: 0.95, topK: 200 };
    const p = prompt(20, 9);
    const [a, b] = await Promise.all([run(cold, { prompt: p, sampling, maxTokens: 24 }), run(cold, { prompt: p, sampling, maxTokens: 24 })]);
    const c = await run(cold, { prompt: p, sampling, maxTokens: 24 });
    expect(b.tokens).not.toEqual(a.tokens);
    expect(c.tokens).not.toEqual(a.tokens);
    expect(c.tokens).not.toEqual(b.tokens);
  });

  it('greedy tokens agree with teacher-forced evaluate()', async () => {
    const p = prompt(40, 3);
    const g = await run(cold, { prompt: p, maxTokens: 12 });
    const all = Uint32Array.from([...p, ...g.tokens]);
    const ev = await cold.evaluate(all, { topK: 1 });
    const argmax = Array.from(ev.topIds.subarray(p.length - 1, p.length - 1 + g.tokens.length));
    expect(argmax).toEqual(g.tokens);
  });

  it('returns log-probabilities of the chosen and top tokens', async () => {
    const r = await run(cold, { prompt: prompt(10, 4), maxTokens: 4, topLogprobs: 3 });
    for (const ev of r.events) {
      expect(ev.topLogprobs).toHaveLength(3);
      expect(ev.topLogprobs![0]!.token).toBe(ev.token);
      expect(ev.logprob).toBeCloseTo(ev.topLogprobs![0]!.logprob, 5);
      expect(ev.logprob!).toBeLessThanOrEqual(0);
      expect(ev.topLogprobs![1]!.logprob).toBeLessThanOrEqual(ev.topLogprobs![0]!.logprob);
    }
  });

  it('logit bias -100 bans a token and +100 forces it', async () => {
    const p = prompt(10, 5);
    const base = await run(cold, { prompt: p, maxTokens: 3 });
    const banned = await run(cold, { prompt: p, maxTokens: 3, sampling: { ...GREEDY, logitBias: { [base.tokens[0]!]: -100 } } });
    expect(banned.tokens[0]).not.toBe(base.tokens[0]);
    const forced = await run(cold, { prompt: p, maxTokens: 3, sampling: { ...GREEDY, logitBias: { 1234: 100 } } });
    expect(forced.tokens).toEqual([1234, 1234, 1234]);
  });

  it('stops at a requested stop token without emitting its text', async () => {
    const p = prompt(12, 6);
    const base = await run(cold, { prompt: p, maxTokens: 8 });
    const stopAt = base.tokens[3]!;
    const r = await run(cold, { prompt: p, maxTokens: 8, stopTokens: [stopAt] });
    const idx = base.tokens.indexOf(stopAt);
    expect(r.result.finishReason).toBe('stop');
    expect(r.tokens).toEqual(base.tokens.slice(0, idx + 1));
    expect(r.events.at(-1)!.text).toBe('');
  });

  it('streams text that never splits a UTF-8 character', async () => {
    const r = await run(cold, { prompt: prompt(8, 7), maxTokens: 64 });
    const full = await cold.detokenize(r.tokens);
    expect(full.startsWith(r.text)).toBe(true);
    expect(r.text.includes('\uFFFD')).toBe(full.slice(0, r.text.length).includes('\uFFFD'));
  });

  it('cancellation ends the sequence and frees its KV blocks', async () => {
    const ac = new AbortController();
    let n = 0;
    const res = await cold.generate({ prompt: prompt(30, 8), maxTokens: 1000, sampling: GREEDY, signal: ac.signal }, () => {
      if (++n === 3) ac.abort();
    });
    expect(res.finishReason).toBe('cancelled');
    expect(res.completionTokens).toBeLessThan(1000);
    const s = cold.stats();
    expect(s.kvBlocksUsed).toBe(0);
    expect(s.runningSequences).toBe(0);
  });

  it('rejects a prompt longer than the context, and one larger than the KV pool', async () => {
    const tooLong = prompt(cold.info.contextLength, 1);
    await expect(run(cold, { prompt: tooLong })).rejects.toMatchObject({ fault: { kind: 'context_overflow', input: 'prompt', tokens: tooLong.length, context: cold.info.contextLength } });
    const small = await loadModel(await testModelPath('small-pool'), { threads: 1, kvCacheTokens: 64 });
    try {
      const err = await run(small, { prompt: prompt(100, 2) }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngineError);
      expect(err).toMatchObject({ kind: 'kv_exhausted' });
    } finally {
      small.unload();
    }
  });
});

describe('admission', () => {
  it('refuses interactive requests past the running slots plus maxQueued at once (queue_full); batch requests are not counted', async () => {
    const m = await loadModel(await testModelPath('queue'), { threads: 1, maxSequences: 2, maxQueued: 1 });
    try {
      const ac = new AbortController();
      const sampling = { ...GREEDY, logitBias: eosBan(m.info) };
      const long = (i: number) => m.generate({ prompt: prompt(10, i), maxTokens: 1000, sampling, signal: ac.signal }, () => {});
      const held = [long(1), long(2), long(3)]; // two running, one waiting
      await expect(long(4)).rejects.toMatchObject({ fault: { kind: 'queue_full', waiting: 1 } });
      const batch = m.generate({ prompt: prompt(10, 5), maxTokens: 2, sampling, priority: 'batch', signal: ac.signal }, () => {});
      ac.abort();
      for (const r of await Promise.all([...held, batch])) expect(r.finishReason).toMatch(/cancelled|length/);
      // finished requests give their places back
      expect((await run(m, { prompt: prompt(5, 1) })).result.finishReason).toBeTruthy();
    } finally {
      m.unload();
    }
  });
});

describe('scheduling', () => {
  /** Starts four decoding streams, then a fifth request (newcomerTokens long) once they are under
   *  way; returns whether the step that gave the newcomer its first token also gave any decoding
   *  stream a token. Events of one engine step reach JS in one callback, so a microtask-counted
   *  tick tells steps apart. */
  async function newcomerSharesStep(m: EngineModel, newcomerTokens = 1): Promise<boolean> {
    let tick = 0;
    let bump = false;
    const stamp = (): number => {
      if (!bump) {
        bump = true;
        queueMicrotask(() => {
          tick++;
          bump = false;
        });
      }
      return tick;
    };
    const ac = new AbortController();
    const sampling = { ...GREEDY, logitBias: eosBan(m.info) };
    const decoderTicks: number[] = [];
    let started = 0;
    let go!: () => void;
    const underWay = new Promise<void>((r) => (go = r));
    const decoders = [1, 2, 3, 4].map((i) => {
      let n = 0;
      return m.generate({ prompt: prompt(6, 40 + i), maxTokens: 5000, sampling, signal: ac.signal }, () => {
        decoderTicks.push(stamp());
        if (++n === 3 && ++started === 4) go();
      });
    });
    await underWay;
    let first = -1;
    await m.generate({ prompt: prompt(newcomerTokens, 50), maxTokens: 2, sampling }, () => {
      if (first < 0) first = stamp();
    });
    ac.abort();
    await Promise.all(decoders);
    return decoderTicks.includes(first);
  }

  it("runs a short new prompt without the decoding streams (prefill first), unless turned off, past the stall cap, or the prompt outweighs the decodes", async () => {
    const firstModel = await loadModel(await testModelPath('prefill-first'), { threads: 1, kvCacheMb: 16, decodeStallMs: 10_000 });
    const mixed = await loadModel(await testModelPath('mixed'), { threads: 1, kvCacheMb: 16, decodeStallMs: 0 });
    // 1 µs: every decoding stream has waited longer than that by the next step.
    const capped = await loadModel(await testModelPath('stall-capped'), { threads: 1, kvCacheMb: 16, decodeStallMs: 0.001 });
    try {
      expect(await newcomerSharesStep(firstModel)).toBe(false);
      // 200 prompt tokens are far more work than four decode rows: leaving those out saves little.
      expect(await newcomerSharesStep(firstModel, 200)).toBe(true);
      expect(await newcomerSharesStep(mixed)).toBe(true);
      expect(await newcomerSharesStep(capped)).toBe(true);
    } finally {
      firstModel.unload();
      mixed.unload();
      capped.unload();
    }
  });
});

describe('prefix cache', () => {
  it('reuses a shared prefix and gives the same output as a cold run', async () => {
    const shared = prompt(200, 11);
    const a = Uint32Array.from([...shared, ...prompt(9, 12)]);
    const b = Uint32Array.from([...shared, ...prompt(14, 13)]);
    const before = cached.stats().cache;
    const first = await run(cached, { prompt: a });
    expect(first.result.cachedTokens).toBe(0);
    const second = await run(cached, { prompt: b });
    expect(second.result.cachedTokens).toBe(192); // whole 16-token blocks of the shared 200
    expect(second.tokens).toEqual((await run(cold, { prompt: b })).tokens);
    const again = await run(cached, { prompt: a });
    expect(again.result.cachedTokens).toBe(Math.floor((a.length - 1) / 16) * 16);
    expect(again.tokens).toEqual(first.tokens);
    const after = cached.stats().cache;
    expect(after.lookups - before.lookups).toBe(3);
    expect(after.hitTokens - before.hitTokens).toBe(192 + again.result.cachedTokens);
    expect(after.hitRate).toBeGreaterThan(0);
    expect(after.cachedTokens).toBeGreaterThanOrEqual(208);
    expect(cached.stats().kvBlocksUsed).toBe(0);
  });

  it('evicts least recently used prefixes under a small budget, and preempts without changing output', async () => {
    const m = await loadModel(await testModelPath('evict'), { threads: 2, kvCacheTokens: 320 });
    try {
      const prompts = [1, 2, 3, 4, 5].map((i) => prompt(100, 40 + i));
      for (const p of prompts) await run(m, { prompt: p, maxTokens: 8 });
      const s = m.stats();
      expect(s.cache.cachedTokens).toBeLessThanOrEqual(320);
      expect(m.kv.cachedPrefixTokens(prompts[0]!)).toBe(0); // the oldest was evicted
      expect(m.kv.cachedPrefixTokens(prompts[4]!)).toBe(96);
      // 4 sequences of 40 + 60 tokens need 400 > 320 tokens of KV: someone gets preempted.
      const ps = [6, 7, 8, 9].map((i) => prompt(40, 40 + i));
      const alone = [];
      for (const p of ps) alone.push((await run(cold, { prompt: p, maxTokens: 60 })).tokens);
      const together = await Promise.all(ps.map((p) => run(m, { prompt: p, maxTokens: 60 })));
      expect(together.map((r) => r.tokens)).toEqual(alone);
      expect(m.nativeStats().preemptions).toBeGreaterThan(0);
      expect(m.stats().kvBlocksUsed).toBe(0);
    } finally {
      m.unload();
    }
  });
});

describe('models', () => {
  it('loading the same file twice shares weights and engine', async () => {
    const path = cached.info.path;
    const again = await loadModel(path, { threads: 2 });
    try {
      expect(again.nativeInfo.fingerprint).toBe(cached.nativeInfo.fingerprint);
      const before = cached.stats().cache.lookups;
      await run(again, { prompt: prompt(5, 99), maxTokens: 2 });
      expect(cached.stats().cache.lookups).toBe(before + 1);
      expect(again.nativeStats().modelsLoaded).toBe(cached.nativeStats().modelsLoaded);
    } finally {
      again.unload();
    }
  });

  it('unloading during generation rejects the pending request and frees the engine', async () => {
    const m = await loadModel(await testModelPath('unload'), { threads: 1 });
    let tokens = 0;
    const p = m.generate({ prompt: prompt(20, 3), maxTokens: 1000, sampling: GREEDY }, () => {
      if (++tokens === 2) m.unload();
    });
    await expect(p).rejects.toMatchObject({ kind: 'model_unloaded' });
    await expect(run(m, { prompt: prompt(5, 1) })).rejects.toMatchObject({ kind: 'model_unloaded' });
  });

  it('exposes metadata, tokenizer and chat template', async () => {
    expect(cached.metadata['general.architecture']).toBe('qwen2');
    expect(Array.isArray(cached.metadata['tokenizer.ggml.tokens'])).toBe(true);
    expect(cached.info.eosTokens.length).toBeGreaterThan(0);
    const text = await cached.renderChat({ messages: [{ role: 'user', content: 'hi there' }], addGenerationPrompt: true });
    expect(text).toContain('hi there');
    const ids = await cached.tokenize(text, { parseSpecial: true });
    expect(await cached.detokenize(ids)).toBe(text.replace(/<\|[^|]+\|>/g, ''));
  });
});

describe('text work off the event loop', () => {
  it('long inputs are tokenized and rendered in the worker pool with the same result', async () => {
    expect(existsSync(TEXT_WORKER_FILE)).toBe(true); // built by scripts/build.mjs before tests
    const long = 'The quick brown fox, 123 jumps over the lazy dog! é 漢字 🙂\n'.repeat(Math.ceil(OFFLOAD_MIN_CHARS / 40));
    const ids = await cached.tokenize(long, { addSpecial: true, parseSpecial: false });
    expect(Array.from(ids)).toEqual(Array.from(cached.tokenizer.encode(long, { addSpecial: true, parseSpecial: false })));
    const input = { messages: [{ role: 'user', content: long }], addGenerationPrompt: true };
    expect(await cached.renderChat(input)).toContain(long);
  });
});

describe('KV transfer', () => {
  it('exported blocks imported into another engine serve its prefix cache', async () => {
    const dst = await loadModel(await testModelPath('kv-dst'), { threads: 2 });
    try {
      expect(dst.kv.layout()).toEqual(cached.kv.layout());
      const p = prompt(100, 77);
      const blocks = await cached.kv.exportKv(p, 0);
      expect(blocks.map((b) => b.index)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(await dst.kv.importKv(p, blocks)).toBe(96);
      expect(dst.kv.cachedPrefixTokens(p)).toBe(96);
      const r = await run(dst, { prompt: p });
      expect(r.result.cachedTokens).toBe(96);
      expect(r.tokens).toEqual((await run(cold, { prompt: p })).tokens);
    } finally {
      dst.unload();
    }
  });
});

describe('constrained decoding', () => {
  it('json_schema output parses and validates', async () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 6 },
        ok: { type: 'boolean' },
        color: { enum: ['red', 'green', 'blue'] },
        tags: { type: 'array', items: { type: 'boolean' }, maxItems: 3 },
      },
      required: ['name', 'ok', 'color', 'tags'],
      additionalProperties: false,
    };
    for (const seed of [1, 2, 3]) {
      const r = await run(cold, {
        prompt: prompt(10, 60 + seed),
        maxTokens: 300,
        sampling: { ...GREEDY, temperature: 0.8, seed },
        grammar: { kind: 'json_schema', schema },
      });
      expect(['grammar_end', 'stop']).toContain(r.result.finishReason);
      const v = JSON.parse(r.text) as Record<string, unknown>;
      expect(Object.keys(v).sort()).toEqual(['color', 'name', 'ok', 'tags']);
      expect(typeof v.name).toBe('string');
      expect((v.name as string).length).toBeLessThanOrEqual(6);
      expect(typeof v.ok).toBe('boolean');
      expect(['red', 'green', 'blue']).toContain(v.color);
      expect(Array.isArray(v.tags)).toBe(true);
    }
  });

  it('rejects an unsupported schema (grammar_rejected)', async () => {
    await expect(
      run(cold, { prompt: prompt(5, 1), grammar: { kind: 'json_schema', schema: { type: 'object', allOf: [{}, {}] } } }),
    ).rejects.toMatchObject({ kind: 'grammar_rejected' });
  });
});
