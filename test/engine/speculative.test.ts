// Speculative decoding with a given draft (GenerateRequest.draft): real addon, real generated
// model. The output must equal plain greedy decoding token for token whatever the draft is; the
// draft only changes how many forward passes it takes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import type { GenerateRequest } from '../../src/engine/types.js';
import { closeTextPool } from '../../src/engine/text-pool.js';
import { testModelPath } from './helpers/models.js';
import { generateEvents, syntheticPrompt } from './helpers/generate.js';
import { native } from '../../src/native/binding.js';
import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { join } from 'node:path';
import { eosBan, GREEDY_SAMPLING as GREEDY } from '../../src/engine/sampling.js';

const prompt = syntheticPrompt;
const run = (model: EngineModel, req: Partial<GenerateRequest> & { prompt: Uint32Array }) => generateEvents(model, req, 64);

/** Deterministic edits of a draft: every `every`-th token substituted, a token inserted, or one deleted, in turn. */
function corrupt(tokens: number[], every: number, salt: number): Uint32Array {
  const out: number[] = [];
  let x = salt;
  for (let i = 0; i < tokens.length; i++) {
    if (i % every !== every - 1) {
      out.push(tokens[i]!);
      continue;
    }
    x = (x * 1103515245 + 12345) % 2147483648;
    const other = 100 + (x % 3000);
    const kind = Math.floor(i / every) % 3;
    if (kind === 0) out.push(other); // substitution
    else if (kind === 1) out.push(other, tokens[i]!); // insertion
    // kind 2: deletion
  }
  return Uint32Array.from(out);
}

// Weights at 5x the default scale: greedy output of the default model repeats one token for
// dozens of steps, which would let a misaligned draft pass; this one rarely repeats.
const SPEC_MODEL = { scale: 0.1 };

let model: EngineModel;

beforeAll(async () => {
  model = await loadModel(await testModelPath('spec', SPEC_MODEL), { threads: 2, kvCacheMb: 64 });
});

afterAll(async () => {
  model?.unload();
  await closeTextPool();
});

describe('speculative decoding with a draft', () => {
  it('a perfect draft (the greedy output itself) is accepted in full and takes far fewer passes', async () => {
    for (const salt of [1, 2, 3]) {
      const p = prompt(24 + salt * 7, salt);
      const plain = await run(model, { prompt: p, maxTokens: 96 });
      expect(plain.result.speculative).toBeUndefined();
      const spec = await run(model, { prompt: p, maxTokens: 96, draft: Uint32Array.from(plain.tokens) });
      expect(spec.tokens).toEqual(plain.tokens);
      expect(spec.result.finishReason).toBe(plain.result.finishReason);
      const s = spec.result.speculative!;
      expect(s.drafted).toBeGreaterThan(0);
      expect(s.accepted).toBe(s.drafted);
      // The first token comes from the prefill pass; then up to 16 draft tokens + 1 per pass.
      expect(s.steps).toBe(1 + Math.ceil((plain.tokens.length - 1) / 17));
      expect(s.accepted + s.steps).toBe(plain.tokens.length);
    }
  });

  it('corrupted drafts (substitutions, insertions, deletions) give the same output with partial acceptance', async () => {
    for (const [salt, every] of [[4, 5], [5, 9], [6, 3]] as const) {
      const p = prompt(30, salt);
      const plain = await run(model, { prompt: p, maxTokens: 80 });
      const spec = await run(model, { prompt: p, maxTokens: 80, draft: corrupt(plain.tokens, every, salt) });
      expect(spec.tokens).toEqual(plain.tokens);
      expect(spec.events.map((e) => e.text).join('')).toBe(plain.events.map((e) => e.text).join(''));
      const s = spec.result.speculative!;
      expect(s.accepted).toBeGreaterThan(0);
      expect(s.accepted).toBeLessThan(s.drafted);
      expect(s.steps).toBeLessThan(plain.tokens.length);
      expect(s.accepted + s.steps).toBe(plain.tokens.length);
    }
  });

  it('an unrelated draft, a one-token draft and an empty draft change nothing', async () => {
    const p = prompt(20, 7);
    const plain = await run(model, { prompt: p, maxTokens: 40 });
    const unrelated = await run(model, { prompt: p, maxTokens: 40, draft: prompt(200, 99) });
    expect(unrelated.tokens).toEqual(plain.tokens);
    expect(unrelated.result.speculative!.steps + unrelated.result.speculative!.accepted).toBe(40);
    const one = await run(model, { prompt: p, maxTokens: 40, draft: Uint32Array.of(plain.tokens[0]!) });
    expect(one.tokens).toEqual(plain.tokens);
    const empty = await run(model, { prompt: p, maxTokens: 40, draft: new Uint32Array(0) });
    expect(empty.tokens).toEqual(plain.tokens);
    expect(empty.result.speculative).toBeUndefined();
  });

  it('never emits past a stop token or max_tokens inside an accepted draft run', async () => {
    const p = prompt(26, 8);
    const plain = await run(model, { prompt: p, maxTokens: 64 });
    const draft = Uint32Array.from(plain.tokens);
    // A stop token whose first occurrence is mid-output.
    const at = plain.tokens.findIndex((t, i) => i >= 5 && plain.tokens.indexOf(t) === i);
    expect(at).toBeGreaterThan(0);
    const stop = plain.tokens[at]!;
    const plainStop = await run(model, { prompt: p, maxTokens: 64, stopTokens: [stop] });
    const specStop = await run(model, { prompt: p, maxTokens: 64, stopTokens: [stop], draft });
    expect(plainStop.tokens).toEqual(plain.tokens.slice(0, at + 1));
    expect(specStop.tokens).toEqual(plainStop.tokens);
    expect(specStop.result).toMatchObject({ finishReason: 'stop', completionTokens: at + 1 });
    for (const max of [1, 2, 10, 17, 18]) {
      const r = await run(model, { prompt: p, maxTokens: max, draft });
      expect(r.tokens).toEqual(plain.tokens.slice(0, max));
      expect(r.result).toMatchObject({ finishReason: 'length', completionTokens: max });
    }
    expect(model.stats().kvBlocksUsed).toBe(0);
  });

  it('penalties, logit bias and logprobs see the same context as plain decoding', async () => {
    const sampling = { ...GREEDY, repetitionPenalty: 1.3, frequencyPenalty: 0.2, logitBias: { 150: 2 } };
    const p = prompt(18, 10);
    const plain = await run(model, { prompt: p, maxTokens: 48, sampling, topLogprobs: 2 });
    const spec = await run(model, { prompt: p, maxTokens: 48, sampling, topLogprobs: 2, draft: corrupt(plain.tokens, 11, 3) });
    expect(spec.tokens).toEqual(plain.tokens);
    expect(spec.events.map((e) => e.logprob)).toEqual(plain.events.map((e) => e.logprob));
    expect(spec.events.map((e) => e.topLogprobs)).toEqual(plain.events.map((e) => e.topLogprobs));
    expect(spec.result.speculative!.accepted).toBeGreaterThan(0);
  });

  it('a sampled (temperature > 0) request ignores its draft', async () => {
    const sampling = { ...GREEDY, temperature: 0.8, seed: 5 };
    const p = prompt(15, 11);
    const plain = await run(model, { prompt: p, maxTokens: 24, sampling });
    const spec = await run(model, { prompt: p, maxTokens: 24, sampling, draft: Uint32Array.from(plain.tokens) });
    expect(spec.tokens).toEqual(plain.tokens);
    expect(spec.result.speculative).toMatchObject({ drafted: 0, accepted: 0, steps: 24 });
  });

  it('speculative and plain sequences running together give the same tokens as each alone', async () => {
    const prompts = [12, 40, 300, 7, 90].map((n, i) => prompt(n, 20 + i));
    const alone: number[][] = [];
    for (const p of prompts) alone.push((await run(model, { prompt: p, maxTokens: 50 })).tokens);
    const together = await Promise.all(
      prompts.map((p, i) => run(model, { prompt: p, maxTokens: 50, ...(i % 2 === 0 ? { draft: corrupt(alone[i]!, 7, i + 1) } : {}) })),
    );
    expect(together.map((r) => r.tokens)).toEqual(alone);
    expect(model.stats().kvBlocksUsed).toBe(0);
  });

  it('under a KV pool too small for the draft rows the output is unchanged', async () => {
    const tight = await loadModel(await testModelPath('spec-tight', SPEC_MODEL), { threads: 2, kvCacheTokens: 160, prefixCache: false });
    try {
      const ps = [1, 2, 3].map((i) => prompt(40, 60 + i));
      const alone: number[][] = [];
      for (const p of ps) alone.push((await run(model, { prompt: p, maxTokens: 40 })).tokens);
      const together = await Promise.all(ps.map((p, i) => run(tight, { prompt: p, maxTokens: 40, draft: Uint32Array.from(alone[i]!) })));
      expect(together.map((r) => r.tokens)).toEqual(alone);
      expect(tight.stats().kvBlocksUsed).toBe(0);
    } finally {
      tight.unload();
    }
  });

  it('cancellation mid-draft ends the sequence and frees its KV blocks', async () => {
    const p = prompt(30, 12);
    // No end token, and far more tokens than the draft covers: past the draft's 400 the sequence
    // decodes one token per step, so it cannot finish before the abort lands however far the event
    // loop lags behind the engine (a 400-token limit let a fast engine finish first under load).
    const sampling = { ...GREEDY, logitBias: eosBan(model.info) };
    const plain = await run(model, { prompt: p, maxTokens: 400, sampling });
    const ac = new AbortController();
    let n = 0;
    const res = await model.generate({ prompt: p, maxTokens: 4000, sampling, draft: Uint32Array.from(plain.tokens), signal: ac.signal }, () => {
      if (++n === 20) ac.abort();
    });
    expect(res.finishReason).toBe('cancelled');
    expect(res.completionTokens).toBeLessThan(4000);
    expect(res.speculative!.accepted).toBeGreaterThan(0);
    const s = model.stats();
    expect(s.kvBlocksUsed).toBe(0);
    expect(s.runningSequences).toBe(0);
  });

  it('draftReplay replays exactly the policy the engine ran', async () => {
    for (const [salt, every] of [[30, 4], [31, 7], [32, 13]] as const) {
      const p = prompt(25, salt);
      const plain = await run(model, { prompt: p, maxTokens: 70 });
      const draft = corrupt(plain.tokens, every, salt);
      const spec = await run(model, { prompt: p, maxTokens: 70, draft });
      expect(native().draftReplay(Uint32Array.from(plain.tokens), draft, 16)).toEqual({
        proposed: spec.result.speculative!.drafted,
        accepted: spec.result.speculative!.accepted,
        steps: spec.result.speculative!.steps,
      });
    }
  });

  it('on real code, a draft with 5% of its tokens corrupted still carries most of the output', async () => {
    // Code repeats short token runs (indentation, `);`, `}`) everywhere: a re-alignment that
    // takes the first match after the pointer runs ahead and never recovers (steps ~ tokens).
    const code = readFileSync(join(PACKAGE_ROOT, 'native/engine/engine.cc'), 'utf8').slice(0, 12000);
    const out = await model.tokenize(code, { addSpecial: false });
    const perfect = native().draftReplay(out, out, 16);
    expect(perfect.steps).toBe(1 + Math.ceil((out.length - 1) / 17));
    for (const every of [17, 20, 23]) {
      const draft = corrupt(Array.from(out), every, every); // one edit per ~20 tokens
      const r = native().draftReplay(out, draft, 16);
      expect(r.accepted / out.length).toBeGreaterThan(0.6);
      expect(r.steps).toBeLessThan(out.length * 0.35);
    }
  });

  it('rejects draft tokens outside the vocabulary and a bad maxDraftTokens', async () => {
    const p = prompt(10, 13);
    await expect(run(model, { prompt: p, draft: Uint32Array.of(1, model.info.vocabSize + 5) })).rejects.toMatchObject({ kind: 'invalid_argument' });
    expect(() => model.generate({ prompt: p, maxTokens: 4, sampling: GREEDY, draft: Uint32Array.of(1), maxDraftTokens: 0 }, () => {})).toThrow(/maxDraftTokens/);
  });
});
