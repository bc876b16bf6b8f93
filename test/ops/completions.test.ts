// POST /v1/completions through the official client's completions.create, against a whole server
// on the real engine: prompt forms, n, echo, logprobs, stop, seed, streaming with usage, and the
// 400 for suffix. Expected texts come from the engine itself (greedy generate on the same tokens).
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatModelPath } from '../chat/harness.js';
import { GREEDY_SAMPLING } from '../../src/engine/sampling.js';
import { startOpsServer, type OpsServer } from './helpers.js';

let s: OpsServer;
let model: string;

beforeAll(async () => {
  s = await startOpsServer([await chatModelPath()]);
  model = [...s.services.models.keys()][0]!;
}, 300_000);

afterAll(async () => {
  await s?.close();
});

async function engineGreedy(prompt: Uint32Array, maxTokens: number): Promise<{ text: string; tokens: number }> {
  let text = '';
  const r = await s.engine().generate({ prompt, maxTokens, sampling: { ...GREEDY_SAMPLING, logitBias: {} } }, (ev) => (text += ev.text));
  return { text: text + (r.tailText ?? ''), tokens: r.completionTokens };
}

describe('POST /v1/completions', () => {
  it('answers a string prompt with the engine\'s greedy text, usage and finish_reason', async () => {
    const prompt = 'The quick brown fox';
    const r = await s.openai.completions.create({ model, prompt, max_tokens: 12, temperature: 0 });
    const tokens = await s.engine().tokenize(prompt);
    const want = await engineGreedy(tokens, 12);
    expect(r.object).toBe('text_completion');
    expect(r.id).toMatch(/^cmpl-/);
    expect(r.model).toBe(model);
    expect(r.choices).toHaveLength(1);
    expect(r.choices[0]!.text).toBe(want.text);
    expect(r.choices[0]!.index).toBe(0);
    expect(r.choices[0]!.logprobs).toBeNull();
    expect(r.choices[0]!.finish_reason).toBe(want.tokens === 12 ? 'length' : 'stop');
    expect(r.usage).toEqual({ prompt_tokens: tokens.length, completion_tokens: want.tokens, total_tokens: tokens.length + want.tokens });
  });

  it('takes token ids, arrays of strings and arrays of token arrays; choices are prompt-major with n', async () => {
    const texts = ['Once upon a time', 'In a galaxy far away'];
    const ids = await Promise.all(texts.map((t) => s.engine().tokenize(t)));
    const want = await Promise.all(ids.map((t) => engineGreedy(t, 8)));
    const byIds = await s.openai.completions.create({ model, prompt: Array.from(ids[0]!), max_tokens: 8, temperature: 0 });
    expect(byIds.choices[0]!.text).toBe(want[0]!.text);
    const many = await s.openai.completions.create({ model, prompt: texts, n: 2, max_tokens: 8, temperature: 0 });
    expect(many.choices.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(many.choices.map((c) => c.text)).toEqual([want[0]!.text, want[0]!.text, want[1]!.text, want[1]!.text]);
    const manyIds = await s.openai.completions.create({ model, prompt: ids.map((t) => Array.from(t)), max_tokens: 8, temperature: 0 });
    expect(manyIds.choices.map((c) => c.text)).toEqual(want.map((w) => w.text));
    expect(many.usage!.prompt_tokens).toBe(ids[0]!.length + ids[1]!.length);
  });

  it('echoes the prompt before the completion', async () => {
    const prompt = 'Echo me';
    const r = await s.openai.completions.create({ model, prompt, max_tokens: 6, temperature: 0, echo: true });
    const want = await engineGreedy(await s.engine().tokenize(prompt), 6);
    expect(r.choices[0]!.text).toBe(prompt + want.text);
  });

  it('returns logprobs: the chosen tokens, their logprobs, the top alternatives and text offsets', async () => {
    const r = await s.openai.completions.create({ model, prompt: 'Numbers: one two', max_tokens: 10, temperature: 0, logprobs: 3 });
    const c = r.choices[0]!;
    const lp = c.logprobs!;
    expect(lp.tokens).toHaveLength(r.usage!.completion_tokens);
    expect(lp.token_logprobs).toHaveLength(lp.tokens!.length);
    for (let i = 0; i < lp.tokens!.length; i++) {
      const top = lp.top_logprobs![i]!;
      expect(Object.keys(top).length).toBeGreaterThan(0);
      expect(Object.keys(top).length).toBeLessThanOrEqual(3);
      // Greedy: the chosen token is the most likely one.
      expect(lp.token_logprobs![i]!).toBeCloseTo(Math.max(...Object.values(top)), 5);
      expect(lp.token_logprobs![i]!).toBeLessThanOrEqual(0);
    }
    expect(lp.text_offset![0]).toBe(0);
    for (let i = 1; i < lp.text_offset!.length; i++) expect(lp.text_offset![i]!).toBeGreaterThanOrEqual(lp.text_offset![i - 1]!);
    if (!lp.tokens!.some((t) => t.startsWith('bytes:'))) expect(lp.tokens!.join('')).toBe(c.text);
  });

  it('ends at a stop sequence, without it', async () => {
    const prompt = 'A long sentence follows';
    const full = await s.openai.completions.create({ model, prompt, max_tokens: 24, temperature: 0 });
    const text = full.choices[0]!.text;
    const stop = text.slice(8, 11);
    expect(stop.length).toBe(3);
    const r = await s.openai.completions.create({ model, prompt, max_tokens: 24, temperature: 0, stop: [stop] });
    expect(r.choices[0]!.text).toBe(text.slice(0, text.indexOf(stop)));
    expect(r.choices[0]!.finish_reason).toBe('stop');
  });

  it('repeats itself for the same seed at temperature 1', async () => {
    const ask = (seed: number) => s.openai.completions.create({ model, prompt: 'Random words:', max_tokens: 16, temperature: 1, seed });
    const [a, b] = await Promise.all([ask(7), ask(7)]);
    expect(a.choices[0]!.text).toBe(b.choices[0]!.text);
  });

  it('streams the same text as the whole answer, with a usage chunk when asked', async () => {
    const prompt = ['Stream one', 'Stream two'];
    const whole = await s.openai.completions.create({ model, prompt, n: 2, max_tokens: 10, temperature: 0 });
    const stream = await s.openai.completions.create({ model, prompt, n: 2, max_tokens: 10, temperature: 0, stream: true, stream_options: { include_usage: true } });
    const texts = ['', '', '', ''];
    const finish: Array<string | null> = [null, null, null, null];
    let usage: OpenAI.CompletionUsage | undefined;
    let chunks = 0;
    for await (const ch of stream) {
      chunks++;
      expect(ch.object).toBe('text_completion');
      if (ch.usage) {
        expect(ch.choices).toEqual([]);
        usage = ch.usage;
      }
      for (const c of ch.choices) {
        texts[c.index] += c.text;
        if (c.finish_reason) finish[c.index] = c.finish_reason;
      }
    }
    expect(chunks).toBeGreaterThan(4);
    expect(texts).toEqual(whole.choices.map((c) => c.text));
    expect(finish).toEqual(whole.choices.map((c) => c.finish_reason));
    expect(usage).toEqual(whole.usage);
  });

  it('streams logprobs with the text they belong to, and echo first', async () => {
    const prompt = 'Tokens with logprobs';
    const whole = await s.openai.completions.create({ model, prompt, max_tokens: 8, temperature: 0, logprobs: 2 });
    const stream = await s.openai.completions.create({ model, prompt, max_tokens: 8, temperature: 0, logprobs: 2, stream: true });
    const tokens: string[] = [];
    for await (const ch of stream) for (const c of ch.choices) tokens.push(...(c.logprobs?.tokens ?? []));
    expect(tokens).toEqual(whole.choices[0]!.logprobs!.tokens);
    const echoed = await s.openai.completions.create({ model, prompt, max_tokens: 4, temperature: 0, echo: true, stream: true });
    let first: string | null = null;
    for await (const ch of echoed) for (const c of ch.choices) first ??= c.text;
    expect(first).toBe(prompt);
  });

  it('refuses suffix, and other invalid requests, with a clear 400', async () => {
    const bad = async (body: Record<string, unknown>) => {
      try {
        await s.openai.completions.create({ model, prompt: 'x', ...body } as never);
      } catch (e) {
        return e as InstanceType<typeof OpenAI.APIError>;
      }
      throw new Error('expected a 400');
    };
    const e = await bad({ suffix: 'after' });
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/suffix .*not supported/);
    expect((e.error as { param?: string }).param).toBe('suffix');
    expect((await bad({ prompt: [] })).status).toBe(400);
    expect((await bad({ prompt: [1e9] })).status).toBe(400);
    expect((await bad({ best_of: 3 })).status).toBe(400);
    expect((await bad({ model: 'nope' })).status).toBe(404);
  });
});
