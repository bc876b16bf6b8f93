// Messages and count_tokens through the official @anthropic-ai/sdk against the real server and
// engine. Random weights: structure and invariants only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import { KEY, MODEL_ID, readSse, startChatServer, type ChatHarness } from './harness.js';

let h: ChatHarness;
let anthropic: Anthropic;

beforeAll(async () => {
  h = await startChatServer();
  anthropic = h.anthropic;
});

afterAll(async () => {
  await h?.close();
  h?.model.unload();
});

const weather: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Current weather',
  input_schema: {
    type: 'object',
    properties: { city: { type: 'string', enum: ['Paris', 'Rome'] }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
};

describe('messages', () => {
  it('answers with a Message and a request id', async () => {
    const { data, response } = await anthropic.messages
      .create({ model: MODEL_ID, max_tokens: 8, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello' }], metadata: { user_id: 'u1' } })
      .withResponse();
    expect(data.id).toMatch(/^msg_/);
    expect(data.type).toBe('message');
    expect(data.role).toBe('assistant');
    expect(data.model).toBe(MODEL_ID);
    expect(['end_turn', 'max_tokens']).toContain(data.stop_reason);
    expect(data.stop_sequence).toBeNull();
    for (const b of data.content) expect(b.type).toBe('text');
    expect(data.usage.output_tokens).toBeLessThanOrEqual(8);
    expect(data.usage.input_tokens + (data.usage.cache_read_input_tokens ?? 0)).toBeGreaterThan(5);
    expect(response.headers.get('request-id')).toBeTruthy();
  });

  it('streams the exact named-event sequence', async () => {
    const res = await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'whatever-2025', 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL_ID, max_tokens: 6, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    const events = await readSse(res);
    for (const [name, data] of events) expect((JSON.parse(data) as { type: string }).type).toBe(name);
    const names = events.map(([n]) => n);
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(names.filter((n) => n === 'ping')).toHaveLength(1);
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const start = JSON.parse(events[0]![1]) as { message: { usage: { input_tokens: number }; content: unknown[] } };
    expect(start.message.usage.input_tokens).toBeGreaterThan(5);
    expect(start.message.content).toEqual([]);
    // Blocks: start/delta*/stop with indexes counting from 0.
    let open: number | null = null;
    let next = 0;
    for (const [name, data] of events) {
      const d = JSON.parse(data) as { index?: number };
      if (name === 'content_block_start') {
        expect(open).toBeNull();
        expect(d.index).toBe(next++);
        open = d.index!;
      } else if (name === 'content_block_delta') {
        expect(d.index).toBe(open);
      } else if (name === 'content_block_stop') {
        expect(d.index).toBe(open);
        open = null;
      }
    }
    expect(open).toBeNull();
    const delta = JSON.parse(events[events.length - 2]![1]) as { delta: { stop_reason: string }; usage: { output_tokens: number } };
    expect(['end_turn', 'max_tokens']).toContain(delta.delta.stop_reason);
    expect(delta.usage.output_tokens).toBeGreaterThan(0);
    expect(delta.usage.output_tokens).toBeLessThanOrEqual(6);
  });

  it('stream() and finalMessage() agree with the text deltas; greedy stream equals non-stream', async () => {
    const params = { model: MODEL_ID, max_tokens: 10, temperature: 0, messages: [{ role: 'user' as const, content: 'Write a line' }] };
    const whole = await anthropic.messages.create(params);
    const stream = anthropic.messages.stream(params);
    let text = '';
    stream.on('text', (t) => (text += t));
    const final = await stream.finalMessage();
    const finalText = final.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    expect(finalText).toBe(text);
    expect(finalText).toBe(whole.content.map((b) => (b.type === 'text' ? b.text : '')).join(''));
    expect(final.stop_reason).toBe(whole.stop_reason);
    expect(final.usage.output_tokens).toBe(whole.usage.output_tokens);
    expect(final.usage.input_tokens + (final.usage.cache_read_input_tokens ?? 0)).toBe(whole.usage.input_tokens + (whole.usage.cache_read_input_tokens ?? 0));
  });

  it('echoes the stop sequence that ended the output', async () => {
    const params = { model: MODEL_ID, max_tokens: 24, temperature: 0, messages: [{ role: 'user' as const, content: 'Keep talking' }] };
    const full = (await anthropic.messages.create(params)).content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    if (full.length < 8) throw new Error(`greedy output too short for this test: ${JSON.stringify(full)}`);
    const at = Math.floor(full.length / 2);
    const stop = full.slice(at, at + 3);
    const r = await anthropic.messages.create({ ...params, stop_sequences: ['NEVER-SEEN', stop] });
    expect(r.stop_reason).toBe('stop_sequence');
    expect(r.stop_sequence).toBe(stop);
    expect(r.content.map((b) => (b.type === 'text' ? b.text : '')).join('')).toBe(full.slice(0, full.indexOf(stop)));
    const s = await anthropic.messages.stream({ ...params, stop_sequences: [stop] }).finalMessage();
    expect([s.stop_reason, s.stop_sequence]).toEqual(['stop_sequence', stop]);
  });

  it('maps thinking budget to an effort tier reported in x-reasoning-effort', async () => {
    for (const [budget, tier] of [
      [1024, 'low'],
      [8191, 'low'],
      [8192, 'medium'],
      [24575, 'medium'],
      [24576, 'high'],
    ] as const) {
      // Streamed and dropped after the headers: a budget this large would take long to fill.
      const ac = new AbortController();
      const res = await fetch(`${h.url}/v1/messages`, {
        method: 'POST',
        signal: ac.signal,
        headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({
          model: MODEL_ID,
          max_tokens: budget + 100,
          stream: true,
          thinking: { type: 'enabled', budget_tokens: budget },
          messages: [{ role: 'user', content: 'think' }],
        }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-reasoning-effort')).toBe(tier);
      ac.abort();
      await res.body?.cancel().catch(() => undefined);
    }
    // No thinking: no header.
    const { response } = await anthropic.messages.create({ model: MODEL_ID, max_tokens: 2, messages: [{ role: 'user', content: 'x' }] }).withResponse();
    expect(response.headers.get('x-reasoning-effort')).toBeNull();
  });
});

describe('tools', () => {
  it('forced tool_use round trip: tool_use input validates, tool_result, then an answer', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Rome?' }];
    const first = await anthropic.messages.create({ model: MODEL_ID, max_tokens: 256, tools: [weather], tool_choice: { type: 'tool', name: 'get_weather' }, messages });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect(use.id).toMatch(/^toolu_/);
    expect(use.name).toBe('get_weather');
    const input = use.input as Record<string, unknown>;
    expect(['Paris', 'Rome']).toContain(input.city);
    expect(['c', 'f']).toContain(input.unit);
    messages.push({ role: 'assistant', content: first.content });
    // Every tool_use gets its result (a forced choice may make parallel calls).
    const uses = first.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    messages.push({ role: 'user', content: uses.map((u) => ({ type: 'tool_result' as const, tool_use_id: u.id, content: '21C and sunny' })) });
    const second = await anthropic.messages.create({ model: MODEL_ID, max_tokens: 8, tools: [weather], tool_choice: { type: 'none' }, messages });
    expect(['end_turn', 'max_tokens']).toContain(second.stop_reason);
    expect(second.content.every((b) => b.type === 'text')).toBe(true);
  });

  it("tool_choice 'any' streams input_json_delta into a tool_use block (stream helper)", async () => {
    const stream = anthropic.messages.stream({ model: MODEL_ID, max_tokens: 256, tools: [weather], tool_choice: { type: 'any' }, messages: [{ role: 'user', content: 'go' }] });
    let json = '';
    stream.on('inputJson', (partial) => (json += partial));
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    const use = final.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect(use.input).toEqual(JSON.parse(json));
    expect(['Paris', 'Rome']).toContain((use.input as { city: string }).city);
  });
});

describe('count_tokens', () => {
  it('equals the input tokens a real request reports (system and tools included)', async () => {
    const body = {
      model: MODEL_ID,
      system: `A unique system prompt ${Date.now()} for counting.`,
      tools: [weather],
      messages: [{ role: 'user' as const, content: 'How many tokens is this?' }],
    };
    const { input_tokens } = await anthropic.messages.countTokens(body);
    const bare = await anthropic.messages.countTokens({ model: MODEL_ID, messages: body.messages });
    expect(input_tokens).toBeGreaterThan(bare.input_tokens); // system + tools count
    const r = await anthropic.messages.create({ ...body, max_tokens: 2 });
    // Anthropic reports cache reads apart: prompt = input_tokens + cache_read_input_tokens.
    expect(r.usage.input_tokens + (r.usage.cache_read_input_tokens ?? 0)).toBe(input_tokens);
    const s = anthropic.messages.stream({ ...body, max_tokens: 2 });
    let started = 0;
    s.on('streamEvent', (e) => {
      if (e.type === 'message_start') started = e.message.usage.input_tokens + (e.message.usage.cache_read_input_tokens ?? 0);
    });
    await s.finalMessage();
    expect(started).toBe(input_tokens);
  });

  it('reports cache reads on a repeated prompt, in message_start as in message_delta, free and forced', async () => {
    const system = 'Shared context that spans a good number of KV blocks. '.repeat(10);
    const p = { model: MODEL_ID, max_tokens: 2, system, messages: [{ role: 'user' as const, content: 'hi' }] };
    await anthropic.messages.create(p);
    const again = await anthropic.messages.create(p);
    expect(again.usage.cache_read_input_tokens).toBeGreaterThan(64);
    for (const body of [p, { ...p, max_tokens: 8, tools: [weather], tool_choice: { type: 'tool' as const, name: weather.name } }]) {
      const s = anthropic.messages.stream(body);
      // Copied as they arrive: the stream helper updates its message snapshot in place.
      const usage: Array<Array<number | null | undefined>> = [];
      s.on('streamEvent', (e) => {
        if (e.type === 'message_start') usage.push([e.message.usage.input_tokens, e.message.usage.cache_read_input_tokens]);
        if (e.type === 'message_delta') usage.push([e.usage.input_tokens, e.usage.cache_read_input_tokens]);
      });
      await s.finalMessage();
      const [start, delta] = usage;
      expect(start).toEqual(delta);
      expect(start![1]).toBeGreaterThan(64);
    }
  });
});
