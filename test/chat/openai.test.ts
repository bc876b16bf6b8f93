// Chat Completions through the official openai SDK against the real server and engine.
// The model has random weights: assertions are on structure and invariants, never on content.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { KEY, MODEL_ID, chatModelPath, readSse, startChatServer, type ChatHarness } from './harness.js';
import { eosBan } from '../../src/engine/sampling.js';
import { readGgufHeader } from '../../src/gguf/gguf-reader.js';
import { createTokenizer } from '../../src/tokenizer/index.js';
import { weatherTool } from '../helpers/chat-tools.js';

let h: ChatHarness;
let openai: OpenAI;

beforeAll(async () => {
  h = await startChatServer();
  openai = h.openai;
});

afterAll(async () => {
  await h?.close();
  h?.model.unload();
});

const user = (content: string) => [{ role: 'user' as const, content }];

describe('non-streaming', () => {
  it('answers with a complete chat.completion and a request id', async () => {
    const { data, response } = await openai.chat.completions.create({ model: MODEL_ID, messages: user('Say hi'), max_tokens: 8 }).withResponse();
    expect(data.id).toMatch(/^chatcmpl-/);
    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe(MODEL_ID);
    expect(data.choices).toHaveLength(1);
    const c = data.choices[0]!;
    expect(c.index).toBe(0);
    expect(c.message.role).toBe('assistant');
    expect(typeof c.message.content).toBe('string');
    expect(['stop', 'length']).toContain(c.finish_reason);
    expect(c.logprobs).toBeNull();
    const u = data.usage!;
    expect(u.prompt_tokens).toBeGreaterThan(10);
    expect(u.completion_tokens).toBeGreaterThan(0);
    expect(u.completion_tokens).toBeLessThanOrEqual(8);
    expect(u.total_tokens).toBe(u.prompt_tokens + u.completion_tokens);
    expect(u.prompt_tokens_details?.cached_tokens).toBeGreaterThanOrEqual(0);
    if (c.finish_reason === 'length') expect(u.completion_tokens).toBe(8);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('top_p 0 keeps the most likely token: the greedy answer at any temperature, on both routes', async () => {
    const body = { model: MODEL_ID, messages: user('Say hi'), max_tokens: 8 };
    const greedy = (await openai.chat.completions.create({ ...body, temperature: 0 })).choices[0]!.message.content;
    const nucleus0 = await openai.chat.completions.create({ ...body, temperature: 1.5, top_p: 0, seed: 3 });
    expect(nucleus0.choices[0]!.message.content).toBe(greedy);
    // top_p is in the Messages API though no longer in the SDK's request type.
    const m = await h.anthropic.messages.create({ model: MODEL_ID, max_tokens: 4, top_p: 0, messages: [{ role: 'user', content: 'hi' }] } as never);
    expect((m as { content: unknown[] }).content.length).toBeGreaterThan(0);
  });

  it('logprobs carry each token\'s own bytes; content ends with U+FFFD for a character left incomplete', async () => {
    const tok = createTokenizer(readGgufHeader(await chatModelPath()).metadata);
    // Byte-level tokens of single bytes that are never a whole character alone.
    const byteToken = (b: number): number => {
      for (let id = 0; id < 512; id++) if (tok.tokenBytes(id).length === 1 && tok.tokenBytes(id)[0] === b) return id;
      throw new Error(`no token for byte ${b}`);
    };
    const ids = [0xe4, 0xb8, 0xad].map(byteToken);
    for (const stream of [false, true]) {
      const body = { model: MODEL_ID, messages: user('hi'), max_tokens: 5, temperature: 0, logprobs: true, top_logprobs: 2, logit_bias: Object.fromEntries(ids.map((id) => [String(id), 100])) };
      let content = '';
      const entries: Array<{ token: string; bytes: number[] | null; top_logprobs: Array<{ token: string; bytes: number[] | null }> }> = [];
      if (stream) {
        for await (const c of await openai.chat.completions.create({ ...body, stream: true })) {
          content += c.choices[0]?.delta.content ?? '';
          entries.push(...(c.choices[0]?.logprobs?.content ?? []));
        }
      } else {
        const r = await openai.chat.completions.create(body);
        content = r.choices[0]!.message.content!;
        entries.push(...r.choices[0]!.logprobs!.content!);
      }
      expect(entries).toHaveLength(5);
      for (const e of entries) {
        expect(e.bytes).toHaveLength(1);
        expect([0xe4, 0xb8, 0xad]).toContain(e.bytes![0]);
        expect(e.token).toBe(`bytes:\\x${e.bytes![0]!.toString(16)}`);
        for (const t of e.top_logprobs) expect(t.bytes!.length).toBeGreaterThan(0);
      }
      // The bytes rebuild the content exactly, replacement characters included.
      expect(content).toBe(new TextDecoder().decode(Uint8Array.from(entries.flatMap((e) => e.bytes!))));
    }
  });

  it('returns n choices and per-token logprobs', async () => {
    const r = await openai.chat.completions.create({ model: MODEL_ID, messages: user('x'), max_completion_tokens: 4, n: 2, logprobs: true, top_logprobs: 2, seed: 1 });
    expect(r.choices.map((c) => c.index)).toEqual([0, 1]);
    for (const c of r.choices) {
      const lp = c.logprobs!.content!;
      expect(lp.length).toBeGreaterThan(0);
      for (const e of lp) {
        expect(e.logprob).toBeLessThanOrEqual(0);
        expect(e.top_logprobs.length).toBeLessThanOrEqual(2);
        expect(Buffer.from(e.bytes!).toString('utf8')).toBe(e.token);
      }
    }
    expect(r.usage!.completion_tokens).toBeLessThanOrEqual(8);
  });

  it('seeded choices: choice 0 is the n = 1 answer, and seeds s and s + 1 share no choice', async () => {
    const ask = (seed: number, n: number) =>
      openai.chat.completions.create({ model: MODEL_ID, messages: user('x'), max_tokens: 8, temperature: 1, seed, n }).then((r) => r.choices.map((c) => c.message.content));
    const [a, b, single] = await Promise.all([ask(100, 3), ask(101, 3), ask(100, 1)]);
    expect(a[0]).toBe(single[0]);
    expect(new Set([...a, ...b]).size).toBe(6);
  });

  it('n = 16 with stop sequences: every choice listens on the request\'s abort signal, and Node warns of nothing', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const r = await openai.chat.completions.create({ model: MODEL_ID, messages: user('x'), max_tokens: 3, n: 16, stop: ['zzz'], seed: 2 });
      expect(r.choices).toHaveLength(16);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});

describe('streaming', () => {
  it('streams the same text as the non-streaming answer (greedy), framed as the SDK expects', async () => {
    const params = { model: MODEL_ID, messages: user('Tell me a story'), max_tokens: 12, temperature: 0 };
    const whole = await openai.chat.completions.create(params);
    const stream = await openai.chat.completions.create({ ...params, stream: true });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.choices.length === 1)).toBe(true);
    const last = chunks[chunks.length - 1]!;
    expect(last.choices[0]!.finish_reason).toBe(whole.choices[0]!.finish_reason);
    expect(chunks.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
    expect(chunks.some((c) => 'usage' in c)).toBe(false);
    const text = chunks.map((c) => c.choices[0]!.delta.content ?? '').join('');
    expect(text).toBe(whole.choices[0]!.message.content);
  });

  it('sends the usage chunk (choices: []) only with include_usage, then [DONE]', async () => {
    const res = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL_ID, messages: user('hi'), max_tokens: 5, stream: true, stream_options: { include_usage: true } }),
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = await readSse(res);
    expect(events[events.length - 1]).toEqual([null, '[DONE]']);
    const chunks = events.slice(0, -1).map(([, d]) => JSON.parse(d) as Record<string, unknown>);
    const usageChunk = chunks[chunks.length - 1]!;
    expect(usageChunk.choices).toEqual([]);
    const usage = usageChunk.usage as { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    expect(usage.completion_tokens).toBeLessThanOrEqual(5);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('works with the strict .stream() helper and finalChatCompletion()', async () => {
    const stream = openai.chat.completions.stream({ model: MODEL_ID, messages: user('go'), max_tokens: 6, stream_options: { include_usage: true } });
    let deltas = '';
    stream.on('content', (d) => (deltas += d));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.role).toBe('assistant');
    expect(final.choices[0]!.message.content ?? '').toBe(deltas);
    expect(final.usage!.completion_tokens).toBeLessThanOrEqual(6);
  });

  it('streams n choices, each with its own role and finish_reason', async () => {
    const final = await openai.chat.completions.stream({ model: MODEL_ID, messages: user('two'), max_tokens: 4, n: 2, seed: 3 }).finalChatCompletion();
    expect(final.choices.map((c) => c.index).sort()).toEqual([0, 1]);
    for (const c of final.choices) {
      expect(c.message.role).toBe('assistant');
      expect(['stop', 'length']).toContain(c.finish_reason);
    }
  });

  it('cancels generation when the client goes away', async () => {
    const ac = new AbortController();
    const stream = await openai.chat.completions.create(
      { model: MODEL_ID, messages: user('a long answer please'), max_tokens: 1500, stream: true, logit_bias: eosBan(h.model.info) },
      { signal: ac.signal },
    );
    let got = 0;
    try {
      for await (const _ of stream) {
        if (++got === 3) ac.abort();
      }
    } catch {
      // the SDK raises APIUserAbortError
    }
    expect(got).toBeGreaterThanOrEqual(3);
    const deadline = Date.now() + 5000;
    while (h.model.stats().runningSequences > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(h.model.stats().runningSequences).toBe(0);
  });
});

const timeTool = {
  type: 'function' as const,
  function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string', enum: ['utc', 'local'] } }, required: ['zone'] } },
};

function checkWeatherArgs(args: string): void {
  const a = JSON.parse(args) as Record<string, unknown>;
  expect(['Paris', 'London', 'Tokyo']).toContain(a.city);
  expect(['c', 'f']).toContain(a.unit);
  expect(Object.keys(a).sort()).toEqual(['city', 'unit']);
}

describe('tools', () => {
  it('a forced call round trip: tool_calls whose arguments validate, then the tool result, then an answer', async () => {
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = user('What is the weather in Paris?');
    const first = await openai.chat.completions.create({
      model: MODEL_ID,
      messages,
      tools: [weatherTool, timeTool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      max_tokens: 256,
    });
    const c = first.choices[0]!;
    expect(c.finish_reason).toBe('stop'); // OpenAI's value for a named tool_choice
    expect(c.message.content).toBeNull();
    const call = c.message.tool_calls![0]!;
    expect(call.type).toBe('function');
    expect(call.id).toMatch(/^call_/);
    if (call.type !== 'function') throw new Error('not a function call');
    expect(call.function.name).toBe('get_weather');
    checkWeatherArgs(call.function.arguments);

    messages.push(c.message as OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam);
    messages.push({ role: 'tool', tool_call_id: call.id, content: '{"temp": 15}' });
    const second = await openai.chat.completions.create({ model: MODEL_ID, messages, tools: [weatherTool, timeTool], tool_choice: 'none', max_tokens: 8 });
    expect(typeof second.choices[0]!.message.content).toBe('string');
    expect(second.choices[0]!.message.tool_calls).toBeUndefined();
    // The tool turn is in the prompt: it is longer than the first one.
    expect(second.usage!.prompt_tokens).toBeGreaterThan(first.usage!.prompt_tokens);
  });

  it('the deprecated functions / function_call API is answered with message.function_call, streamed and not', async () => {
    const [open] = await h.model.tokenize('<tool_call>', { addSpecial: false, parseSpecial: true });
    const body = {
      model: MODEL_ID,
      messages: user('What is the weather in Paris?'),
      functions: [weatherTool.function, timeTool.function],
      // A bias towards another call: the legacy API makes one at most.
      logit_bias: { [String(open)]: 100 },
      max_tokens: 256,
    };
    const named = await openai.chat.completions.create({ ...body, function_call: { name: 'get_weather' } });
    const c = named.choices[0]!;
    expect(c.finish_reason).toBe('stop'); // as for a named tool_choice
    expect(c.message.tool_calls).toBeUndefined();
    expect(c.message.content).toBeNull();
    expect(c.message.function_call!.name).toBe('get_weather');
    checkWeatherArgs(c.message.function_call!.arguments);
    // function_call 'auto' is free output; a forced one ('required' has no legacy spelling) is named.
    const streamed = await openai.chat.completions.stream({ ...body, function_call: { name: 'get_time' } }).finalChatCompletion();
    const s = streamed.choices[0]!;
    expect(s.message.tool_calls ?? []).toEqual([]);
    expect(s.message.function_call!.name).toBe('get_time');
    expect(['utc', 'local']).toContain((JSON.parse(s.message.function_call!.arguments) as { zone: string }).zone);
    // A tools request is unchanged by the legacy path.
    const modern = await openai.chat.completions.create({ ...body, functions: undefined, tools: [weatherTool], tool_choice: 'required', logit_bias: {} });
    expect([modern.choices[0]!.finish_reason, modern.choices[0]!.message.function_call]).toEqual(['tool_calls', undefined]);
  });

  it("tool_choice 'required' streams a call through the .stream() helper", async () => {
    const stream = openai.chat.completions.stream({
      model: MODEL_ID,
      messages: user('weather or time?'),
      tools: [weatherTool, timeTool],
      tool_choice: 'required',
      // Room for the whitespace the JSON grammar lets a random model write between tokens.
      max_tokens: 256,
    });
    const final = await stream.finalChatCompletion();
    const c = final.choices[0]!;
    expect(c.finish_reason).toBe('tool_calls');
    const call = c.message.tool_calls![0]!;
    if (call.type !== 'function') throw new Error('not a function call');
    expect(['get_weather', 'get_time']).toContain(call.function.name);
    const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
    if (call.function.name === 'get_weather') checkWeatherArgs(call.function.arguments);
    else expect(['utc', 'local']).toContain(args.zone);
  });

  it("tool_choice 'required' makes parallel calls when the model opens another <tool_call>, each under its schema", async () => {
    // The model's own next token decides whether another call follows: biased towards
    // <tool_call>, it keeps calling up to the cap; banned, or with parallel_tool_calls false, one call.
    const [open] = await h.model.tokenize('<tool_call>', { addSpecial: false, parseSpecial: true });
    const body = { model: MODEL_ID, messages: user('Weather in Paris and Tokyo?'), tools: [weatherTool, timeTool], tool_choice: 'required' as const, max_tokens: 3000 };
    const stream = openai.chat.completions.stream({ ...body, logit_bias: { [String(open)]: 100 }, stream_options: { include_usage: true } });
    const final = await stream.finalChatCompletion();
    const many = final.choices[0]!;
    expect(many.finish_reason).toBe('tool_calls');
    expect(many.message.tool_calls).toHaveLength(16); // MAX_FORCED_CALLS
    const ids = new Set<string>();
    for (const call of many.message.tool_calls!) {
      if (call.type !== 'function') throw new Error('not a function call');
      ids.add(call.id);
      if (call.function.name === 'get_weather') checkWeatherArgs(call.function.arguments);
      else expect(JSON.parse(call.function.arguments)).toHaveProperty('zone');
    }
    expect(ids.size).toBe(16);
    const banned = await openai.chat.completions.create({ ...body, logit_bias: { [String(open)]: -100 } });
    expect(banned.choices[0]!.message.tool_calls).toHaveLength(1);
    const single = await openai.chat.completions.create({ ...body, logit_bias: { [String(open)]: 100 }, parallel_tool_calls: false });
    expect(single.choices[0]!.message.tool_calls).toHaveLength(1);
    // A named tool choice is one call of that tool.
    const named = await openai.chat.completions.create({ ...body, tool_choice: { type: 'function', function: { name: 'get_time' } }, logit_bias: { [String(open)]: 100 } });
    expect(named.choices[0]!.message.tool_calls).toHaveLength(1);
    // Each call's tokens count: 16 calls use more than one.
    expect(final.usage!.completion_tokens).toBeGreaterThan(banned.usage!.completion_tokens * 4);
  });
});

describe('response_format', () => {
  it('json_schema output parses and validates', async () => {
    const schema = {
      type: 'object',
      properties: {
        mood: { type: 'string', enum: ['happy', 'sad'] },
        ok: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 3 },
        // integer bounds are enforced (they used to be ignored: {"v": 7} for 100..200)
        count: { type: 'integer', minimum: 100, maximum: 200, multipleOf: 3 },
        step: { type: 'integer', exclusiveMinimum: -3, exclusiveMaximum: 0 },
        // pattern and format are enforced too (they used to be ignored)
        id: { type: 'string', format: 'uuid' },
        day: { type: 'string', format: 'date' },
        code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{2}$' },
        // and bounds on numbers, exactly (a decimal multipleOf 10^-q too)
        price: { type: 'number', exclusiveMinimum: 0.5, maximum: 0.75, multipleOf: 0.01 },
        // any decimal multipleOf (it used to be ignored unless 10^-q)
        rating: { type: 'number', minimum: 1, maximum: 5, multipleOf: 0.5 },
      },
      required: ['mood', 'ok', 'tags', 'count', 'step', 'id', 'day', 'code', 'price', 'rating'],
      additionalProperties: false,
    };
    for (let i = 0; i < 3; i++) {
      const r = await openai.chat.completions.create({
        model: MODEL_ID,
        messages: user('Reply in JSON'),
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
        max_tokens: 400,
        seed: i,
        temperature: 1,
      });
      expect(r.choices[0]!.finish_reason).toBe('stop');
      const v = JSON.parse(r.choices[0]!.message.content!) as Record<string, unknown>;
      expect(Object.keys(v).sort()).toEqual(['code', 'count', 'day', 'id', 'mood', 'ok', 'price', 'rating', 'step', 'tags']);
      expect([1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5]).toContain(v.rating);
      expect(v.price as number).toBeGreaterThan(0.5);
      expect(v.price as number).toBeLessThanOrEqual(0.75);
      expect(String(v.price)).toMatch(/^0\.\d{1,2}$/);
      expect(v.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
      expect(v.day).toMatch(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/);
      expect(v.code).toMatch(/^[A-Z]{3}-[0-9]{2}$/);
      expect(Number.isInteger(v.count) && (v.count as number) >= 100 && (v.count as number) <= 200 && (v.count as number) % 3 === 0).toBe(true);
      expect([-2, -1]).toContain(v.step);
      expect(['happy', 'sad']).toContain(v.mood);
      expect(typeof v.ok).toBe('boolean');
      expect(Array.isArray(v.tags)).toBe(true);
      for (const t of v.tags as unknown[]) expect(['a', 'b']).toContain(t);
    }
  });

  it('a logit_bias ban on every token the grammar allows still completes the document (it ended unfinished as "stop")', async () => {
    const bias: Record<string, number> = {};
    for (const text of [...'0123456789'].flatMap((d) => [d, ` ${d}`])) {
      const ids = await h.model.tokenize(text, { addSpecial: false });
      if (ids.length === 1) bias[String(ids[0])] = -100;
    }
    for (const stream of [false, true]) {
      const schema = { type: 'object', properties: { d: { type: 'integer', minimum: 0, maximum: 9 } }, required: ['d'], additionalProperties: false };
      const params = { model: MODEL_ID, messages: user('a digit'), max_tokens: 200, temperature: 1, seed: 3, logit_bias: bias, response_format: { type: 'json_schema' as const, json_schema: { name: 'd', schema } } };
      let text = '';
      let finish: string | null = null;
      if (stream) {
        for await (const c of await openai.chat.completions.create({ ...params, stream: true })) {
          text += c.choices[0]?.delta.content ?? '';
          finish = c.choices[0]?.finish_reason ?? finish;
        }
      } else {
        const r = await openai.chat.completions.create(params);
        text = r.choices[0]!.message.content!;
        finish = r.choices[0]!.finish_reason;
      }
      expect(finish).toBe('stop');
      const d = (JSON.parse(text) as { d: number }).d;
      expect(Number.isInteger(d) && d >= 0 && d <= 9).toBe(true);
    }
  });

  it('top_logprobs under a grammar lists only allowed tokens, each with a number (masked ones came back null)', async () => {
    const r = await openai.chat.completions.create({
      model: MODEL_ID, messages: user('yes or no'), max_tokens: 20, logprobs: true, top_logprobs: 20,
      response_format: { type: 'json_schema', json_schema: { name: 'b', schema: { type: 'boolean' } } },
    });
    const entries = r.choices[0]!.logprobs!.content!;
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      expect(e.top_logprobs.length).toBeGreaterThan(0);
      for (const t of e.top_logprobs) expect(typeof t.logprob).toBe('number');
    }
    expect(entries.some((e) => e.top_logprobs.length < 20)).toBe(true);
  });

  it('json_object output is a JSON object', async () => {
    const r = await openai.chat.completions.create({ model: MODEL_ID, messages: user('JSON please'), response_format: { type: 'json_object' }, max_tokens: 300 });
    if (r.choices[0]!.finish_reason === 'stop') {
      const v: unknown = JSON.parse(r.choices[0]!.message.content!);
      expect(typeof v).toBe('object');
      expect(Array.isArray(v)).toBe(false);
    } else {
      expect(r.choices[0]!.finish_reason).toBe('length');
    }
  });
});

describe('stop sequences and caching', () => {
  it('ends before a stop sequence taken from the greedy output, and excludes it', async () => {
    const params = { model: MODEL_ID, messages: user('Count for me'), max_tokens: 24, temperature: 0, logit_bias: eosBan(h.model.info) };
    const full = (await openai.chat.completions.create(params)).choices[0]!.message.content!;
    expect(full.length).toBeGreaterThan(8);
    // A stop string from the middle of the text (it may span tokens).
    const at = Math.floor(full.length / 2);
    const stop = full.slice(at, at + 3);
    const expected = full.slice(0, full.indexOf(stop));
    const r = await openai.chat.completions.create({ ...params, stop: [stop, 'NEVER-SEEN'] });
    expect(r.choices[0]!.message.content).toBe(expected);
    expect(r.choices[0]!.finish_reason).toBe('stop');
    // Streaming gives the same cut.
    const s = await openai.chat.completions.create({ ...params, stop, stream: true });
    let text = '';
    for await (const c of s) text += c.choices[0]?.delta.content ?? '';
    expect(text).toBe(expected);
  });

  it('reports cached prompt tokens on a repeated prompt', async () => {
    const long = 'Here is some shared context that is long enough to fill several KV blocks. '.repeat(8);
    const params = { model: MODEL_ID, messages: [{ role: 'system' as const, content: long }, ...user('Q1')], max_tokens: 2 };
    await openai.chat.completions.create(params);
    const again = await openai.chat.completions.create(params);
    const cached = again.usage!.prompt_tokens_details!.cached_tokens!;
    expect(cached).toBeGreaterThan(64);
    expect(cached).toBeLessThanOrEqual(again.usage!.prompt_tokens);
  });
});
