// Properties every chat wire format must keep, run once per format through its official SDK
// against the real server and engine: a stream carries exactly the non-streamed answer, usage
// counts the prompt as count_tokens does, and a client that goes away frees its KV at once.
// (In-band errors after a stream started: test/chat/midstream-error.test.ts, per format.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../src/engine/index.js';
import { chatModelPath, MODEL_ID, startChatServer, type ChatHarness } from './harness.js';

let h: ChatHarness;

beforeAll(async () => {
  // No prefix cache: after a request ends, every KV block it held must be back in the pool.
  h = await startChatServer({}, await loadModel(await chatModelPath(), { id: MODEL_ID, threads: 2, kvCacheMb: 64, prefixCache: false }));
}, 300_000);

afterAll(async () => {
  await h?.close();
});

interface Answer {
  text: string;
  promptTokens: number;
  completionTokens: number;
}

/** One wire format seen through its SDK. */
interface Wire {
  name: string;
  complete(prompt: string, maxTokens: number): Promise<Answer>;
  stream(prompt: string, maxTokens: number): Promise<Answer>;
  /** Streams, and aborts the request once `after` text deltas arrived. */
  abortAfter(prompt: string, after: number): Promise<number>;
}

const openaiWire: Wire = {
  name: 'OpenAI Chat Completions',
  async complete(prompt, maxTokens) {
    const r = await h.openai.chat.completions.create({ model: MODEL_ID, max_tokens: maxTokens, temperature: 0, messages: [{ role: 'user', content: prompt }] });
    return { text: r.choices[0]!.message.content ?? '', promptTokens: r.usage!.prompt_tokens, completionTokens: r.usage!.completion_tokens };
  },
  async stream(prompt, maxTokens) {
    const s = await h.openai.chat.completions.create({
      model: MODEL_ID, max_tokens: maxTokens, temperature: 0, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: prompt }],
    });
    let text = '';
    let usage = { prompt_tokens: -1, completion_tokens: -1 };
    for await (const c of s) {
      text += c.choices[0]?.delta.content ?? '';
      if (c.usage) usage = c.usage;
    }
    return { text, promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
  },
  async abortAfter(prompt, after) {
    const ac = new AbortController();
    const s = await h.openai.chat.completions.create(
      { model: MODEL_ID, max_tokens: 4000, temperature: 0, stream: true, messages: [{ role: 'user', content: prompt }] },
      { signal: ac.signal },
    );
    let n = 0;
    try {
      for await (const c of s) if (c.choices[0]?.delta.content && ++n === after) ac.abort();
    } catch {
      // the abort ends the iteration
    }
    return n;
  },
};

const anthropicWire: Wire = {
  name: 'Anthropic Messages',
  async complete(prompt, maxTokens) {
    // temperature is Anthropic's (default 1); this SDK's create() types leave it out.
    const params = { model: MODEL_ID, max_tokens: maxTokens, temperature: 0, messages: [{ role: 'user' as const, content: prompt }] };
    const r = await h.anthropic.messages.create(params);
    const text = r.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    return { text, promptTokens: r.usage.input_tokens + (r.usage.cache_read_input_tokens ?? 0), completionTokens: r.usage.output_tokens };
  },
  async stream(prompt, maxTokens) {
    const s = h.anthropic.messages.stream({ model: MODEL_ID, max_tokens: maxTokens, temperature: 0, messages: [{ role: 'user', content: prompt }] });
    let text = '';
    s.on('text', (t) => (text += t));
    const m = await s.finalMessage();
    return { text, promptTokens: m.usage.input_tokens + (m.usage.cache_read_input_tokens ?? 0), completionTokens: m.usage.output_tokens };
  },
  async abortAfter(prompt, after) {
    const s = h.anthropic.messages.stream({ model: MODEL_ID, max_tokens: 4000, temperature: 0, messages: [{ role: 'user', content: prompt }] });
    let n = 0;
    s.on('text', () => {
      if (++n === after) s.abort();
    });
    await s.done().catch(() => undefined);
    return n;
  },
};

async function countTokens(prompt: string): Promise<number> {
  return (await h.anthropic.messages.countTokens({ model: MODEL_ID, messages: [{ role: 'user', content: prompt }] })).input_tokens;
}

/** The engine's counts once it is idle, or after 1 s: well inside the ~4 s the aborted 4000-token
 *  answer would take to finish on its own, so only a cancellation can pass. */
async function engineIdle(): Promise<{ running: number; kvBlocksUsed: number }> {
  const deadline = Date.now() + 1_000;
  for (;;) {
    const s = h.model.nativeStats();
    if ((s.running === 0 && s.queued === 0) || Date.now() > deadline) return s;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe.each([openaiWire, anthropicWire])('$name', (wire) => {
  it('a stream carries exactly the non-streamed answer and the same usage', async () => {
    const prompt = 'Describe the sea in a few words.';
    const whole = await wire.complete(prompt, 24);
    const streamed = await wire.stream(prompt, 24);
    expect(whole.completionTokens).toBeGreaterThan(0);
    expect(streamed).toEqual(whole);
  });

  it('usage counts the prompt as count_tokens does', async () => {
    const prompt = 'Count me: one, two, three, four.';
    const answer = await wire.complete(prompt, 2);
    expect(answer.promptTokens).toBe(await countTokens(prompt));
  });

  it('a client that goes away mid-stream frees its sequence and all its KV at once', async () => {
    // Deltas already on the wire still arrive after the abort; the 4000-token answer does not.
    const got = await wire.abortAfter('go on', 3);
    expect(got).toBeGreaterThanOrEqual(3);
    expect(got).toBeLessThan(500);
    const s = await engineIdle();
    expect(s.running).toBe(0);
    expect(s.kvBlocksUsed).toBe(0);
  });
});
