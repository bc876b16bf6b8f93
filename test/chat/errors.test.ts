// Every error class through both SDKs (typed exceptions), request validation naming fields,
// and the model listing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { KEY, MODEL_ID, startChatServer, type ChatHarness } from './harness.js';

let h: ChatHarness;
let limited: ChatHarness;

beforeAll(async () => {
  h = await startChatServer();
  // Same model, a second server with a one-request bucket that refills very slowly.
  limited = await startChatServer({ rateLimit: { rps: 0.01, burst: 1 } }, h.model);
});

afterAll(async () => {
  await h?.close();
  await limited?.close();
  h?.model.unload();
});

const msgs = [{ role: 'user' as const, content: 'hi' }];

async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the request to fail');
}

describe('OpenAI SDK error classes', () => {
  it('401 AuthenticationError', async () => {
    const bad = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'wrong', maxRetries: 0 });
    const e = await caught(bad.chat.completions.create({ model: MODEL_ID, messages: msgs }));
    expect(e).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((e as InstanceType<typeof OpenAI.APIError>).code).toBe('unauthorized');
  });

  it('400 BadRequestError naming the field', async () => {
    const e = (await caught(h.openai.chat.completions.create({ model: MODEL_ID, messages: msgs, temperature: 5 }))) as InstanceType<typeof OpenAI.APIError>;
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect([e.type, e.param, e.code]).toEqual(['invalid_request_error', 'temperature', 'invalid_request_error']);
    expect(e.requestID).toBeTruthy();
  });

  it('400 for tool turns the APIs refuse: an orphan tool message, an unanswered tool_use', async () => {
    const orphan = (await caught(
      h.openai.chat.completions.create({ model: MODEL_ID, messages: [...msgs, { role: 'tool', tool_call_id: 'call_x', content: 'r' }] }),
    )) as InstanceType<typeof OpenAI.APIError>;
    expect(orphan).toBeInstanceOf(OpenAI.BadRequestError);
    expect(orphan.param).toBe('messages[1].role');
    const call = { id: 'toolu_1', name: 'f', input: {}, type: 'tool_use' as const };
    const unanswered = await caught(
      h.anthropic.messages.create({
        model: MODEL_ID,
        max_tokens: 4,
        tools: [{ name: 'f', input_schema: { type: 'object' } }],
        messages: [...msgs, { role: 'assistant', content: [call] }, { role: 'user', content: 'and?' }],
      }),
    );
    expect(unanswered).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((unanswered as Error).message)).toMatch(/tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/);
  });

  it('400 naming the field for a schema the grammar compiler refuses, and for too many stop sequences', async () => {
    const bad = { type: 'object', properties: { a: { type: 'nonsense' } } };
    const rf = (await caught(
      h.openai.chat.completions.create({ model: MODEL_ID, messages: msgs, max_tokens: 4, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: bad } } }),
    )) as InstanceType<typeof OpenAI.APIError>;
    expect(rf).toBeInstanceOf(OpenAI.BadRequestError);
    expect(rf.param).toBe('response_format');
    expect(rf.message).toMatch(/response_format: the JSON schema cannot be used: .*nonsense/);
    // A pattern the compiler cannot enforce is refused, not silently ignored.
    const look = (await caught(
      h.openai.chat.completions.create({ model: MODEL_ID, messages: msgs, max_tokens: 4, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'string', pattern: '^(?!x)' } } } }),
    )) as InstanceType<typeof OpenAI.APIError>;
    expect([look.status, look.param]).toEqual([400, 'response_format']);
    expect(look.message).toMatch(/pattern: lookahead and lookbehind are not supported/);
    const tool = (await caught(
      h.openai.chat.completions.create({
        model: MODEL_ID,
        messages: msgs,
        max_tokens: 4,
        tools: [{ type: 'function', function: { name: 'f', parameters: bad } }],
        tool_choice: 'required',
      }),
    )) as InstanceType<typeof OpenAI.APIError>;
    expect([tool.status, tool.param]).toEqual([400, 'tools']);
    // One refused schema among several candidates: 400 whichever tool the model would have
    // picked (it was a 200 when it picked the good one, a mid-stream error when a later parallel
    // call picked the bad one). Eight seeds at temperature 1, streamed and not.
    const tools = [
      { type: 'function' as const, function: { name: 'good', parameters: { type: 'object', properties: { a: { type: 'string' } } } } },
      { type: 'function' as const, function: { name: 'f', parameters: bad } },
    ];
    for (let seed = 1; seed <= 8; seed++) {
      const stream = seed % 2 === 0;
      const res = (await caught(
        (async () => {
          const body = { model: MODEL_ID, messages: msgs, max_tokens: 24, temperature: 1, seed, tools, tool_choice: 'required' as const };
          if (!stream) return h.openai.chat.completions.create(body);
          for await (const _ of await h.openai.chat.completions.create({ ...body, stream: true }));
        })(),
      )) as InstanceType<typeof OpenAI.APIError>;
      expect([seed, res.status, res.param]).toEqual([seed, 400, 'tools']);
    }
    const anyTool = await caught(
      h.anthropic.messages.create({
        model: MODEL_ID,
        max_tokens: 24,
        messages: msgs,
        tools: tools.map((t) => ({ name: t.function.name, input_schema: t.function.parameters as { type: 'object' } })),
        tool_choice: { type: 'any' },
      }),
    );
    expect(anyTool).toBeInstanceOf(Anthropic.BadRequestError);
    const stop = (await caught(h.openai.chat.completions.create({ model: MODEL_ID, messages: msgs, stop: ['a', 'b', 'c', 'd', 'e'] }))) as InstanceType<typeof OpenAI.APIError>;
    expect([stop.status, stop.param]).toEqual([400, 'stop']);
    expect(stop.message).toMatch(/at most 4/);
    const anth = await caught(
      h.anthropic.messages.create({ model: MODEL_ID, max_tokens: 4, messages: msgs, output_config: { format: { type: 'json_schema', schema: bad } } } as never),
    );
    expect(anth).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((anth as Error).message)).toMatch(/output_config\.format: the JSON schema cannot be used/);
  });

  it('compiles a JSON schema off the event loop: another request is answered while a slow schema is still being refused', async () => {
    // An unanchored 4,000-character pattern exhausts the compile budget (~0.2 s on this machine);
    // unique per run, so no memo answers it. Compiled on the event loop, it held the others back.
    const pattern = 'a'.repeat(3999) + String.fromCharCode(98 + Math.floor(Math.random() * 20));
    const order: string[] = [];
    const chat = h.openai.chat.completions
      .create({ model: MODEL_ID, messages: msgs, max_tokens: 4, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'string', pattern } } } })
      .then(() => order.push('chat ok'), (e: InstanceType<typeof OpenAI.APIError>) => order.push(`chat ${e.status}`));
    await new Promise((r) => setTimeout(r, 40));
    const other = h.openai.models.list().then(() => order.push('models ok'));
    await Promise.all([chat, other]);
    expect(order).toEqual(['models ok', 'chat 400']);
  });

  it('400, not 500, for schemas nested thousands deep, before a forced tool call starts its stream', async () => {
    // Bodies written as text: JSON.stringify (and so the SDKs) cannot write a value this deep.
    const post = async (path: string, head: string, value: string, tail: string): Promise<[number, { error: { param?: string; message: string } }]> => {
      const res = await fetch(`${h.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: `{"model":"${MODEL_ID}","max_tokens":4,"messages":[{"role":"user","content":"hi"}],${head}${value}${tail}}`,
      });
      return [res.status, (await res.json()) as { error: { param?: string; message: string } }];
    };
    const deep = '{"type":"object","properties":{"a":'.repeat(3000) + '{"type":"string"}' + '}}'.repeat(3000);
    const [status, body] = await post('/v1/chat/completions', '"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":', deep, '}}');
    expect([status, body.error.param]).toEqual([400, 'response_format']);
    expect(body.error.message).toMatch(/nested more than 256 levels/);
    // Deep inside a keyword the grammar defaults do not walk.
    const inEnum = await post('/v1/chat/completions', '"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{"enum":[', '['.repeat(20_000) + ']'.repeat(20_000), ']}}}');
    expect([inEnum[0], inEnum[1].error.param]).toEqual([400, 'response_format']);
    const anth = await post('/v1/messages', '"output_config":{"format":{"type":"json_schema","schema":', deep, '}}');
    expect(anth[0]).toBe(400);
    expect(anth[1].error.message).toMatch(/output_config\.format: the JSON schema is nested/);
    // A tool's schema too deep for the grammar: refused when the request is read, forced or not,
    // naming the tool (with tool_choice auto it was accepted; 5000 deep failed in the template).
    let toolSchema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 200; i++) toolSchema = { type: 'object', properties: { a: toolSchema } };
    for (const tool_choice of [{ type: 'function' as const, function: { name: 'f' } }, 'auto' as const]) {
      const tool = (await caught(
        (async () => {
          const stream = await h.openai.chat.completions.create({
            model: MODEL_ID,
            messages: msgs,
            max_tokens: 4,
            stream: true,
            tools: [{ type: 'function', function: { name: 'f', parameters: toolSchema } }],
            tool_choice,
          });
          for await (const _ of stream);
        })(),
      )) as InstanceType<typeof OpenAI.APIError>;
      expect([tool.status, tool.param]).toEqual([400, 'tools[0].function.parameters']);
    }
    const deepTool = await post('/v1/messages', '"tools":[{"name":"f","input_schema":', deep, '}]');
    expect([deepTool[0], deepTool[1].error.message]).toEqual([400, expect.stringContaining('tools[0].input_schema: the JSON schema is nested')]);
  });

  it('400 when max_tokens does not fit the context window', async () => {
    const e = (await caught(h.openai.chat.completions.create({ model: MODEL_ID, messages: msgs, max_tokens: 100_000 }))) as InstanceType<typeof OpenAI.APIError>;
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.param).toBe('max_tokens');
    expect(e.code).toBe('context_length_exceeded');
    const long = 'word '.repeat(33_000);
    const e2 = (await caught(h.openai.chat.completions.create({ model: MODEL_ID, messages: [{ role: 'user', content: long }] }))) as InstanceType<typeof OpenAI.APIError>;
    expect(e2).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e2.param).toBe('messages');
  });

  it('400 for images: the model has no vision', async () => {
    const e = (await caught(
      h.openai.chat.completions.create({ model: MODEL_ID, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] }] }),
    )) as InstanceType<typeof OpenAI.APIError>;
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.message).toMatch(/vision/);
  });

  it('404 NotFoundError for an unknown model', async () => {
    const e = (await caught(h.openai.chat.completions.create({ model: 'no-such-model', messages: msgs }))) as InstanceType<typeof OpenAI.APIError>;
    expect(e).toBeInstanceOf(OpenAI.NotFoundError);
    expect(e.param).toBe('model');
  });

  it('429 RateLimitError with Retry-After', async () => {
    await limited.openai.chat.completions.create({ model: MODEL_ID, messages: msgs, max_tokens: 1 });
    const e = (await caught(limited.openai.chat.completions.create({ model: MODEL_ID, messages: msgs, max_tokens: 1 }))) as InstanceType<typeof OpenAI.APIError>;
    expect(e).toBeInstanceOf(OpenAI.RateLimitError);
    expect(Number(e.headers?.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('Anthropic SDK error classes', () => {
  it('401 AuthenticationError', async () => {
    const bad = new Anthropic({ baseURL: h.url, apiKey: 'wrong', maxRetries: 0 });
    const e = await caught(bad.messages.create({ model: MODEL_ID, max_tokens: 4, messages: msgs }));
    expect(e).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('400 BadRequestError with the Anthropic envelope', async () => {
    const e = (await caught(h.anthropic.messages.create({ model: MODEL_ID, max_tokens: 0, messages: msgs }))) as InstanceType<typeof Anthropic.APIError>;
    expect(e).toBeInstanceOf(Anthropic.BadRequestError);
    const body = e.error as { type: string; error: { type: string; code: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.code).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/max_tokens/);
    expect(e.requestID).toBeTruthy();
  });

  it('400 for image blocks, apply models and thinking budgets out of range', async () => {
    const img = await caught(
      h.anthropic.messages.create({
        model: MODEL_ID,
        max_tokens: 4,
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] }],
      }),
    );
    expect(img).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((img as Error).message)).toMatch(/vision/);
    const apply = await caught(h.anthropic.messages.create({ model: 'svc-v3-fast', max_tokens: 4, messages: msgs }));
    expect(apply).toBeInstanceOf(Anthropic.BadRequestError);
    const thinking = await caught(h.anthropic.messages.create({ model: MODEL_ID, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 4000 }, messages: msgs }));
    expect(thinking).toBeInstanceOf(Anthropic.BadRequestError);
  });

  it('404 NotFoundError for an unknown model (messages and count_tokens)', async () => {
    expect(await caught(h.anthropic.messages.create({ model: 'nope', max_tokens: 4, messages: msgs }))).toBeInstanceOf(Anthropic.NotFoundError);
    expect(await caught(h.anthropic.messages.countTokens({ model: 'nope', messages: msgs }))).toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('429 RateLimitError', async () => {
    const a = new Anthropic({ baseURL: limited.url, apiKey: 'sk-chat-test-0123456789', maxRetries: 0 });
    // The bucket of this key is empty after the OpenAI 429 test or after this first call.
    await a.messages.create({ model: MODEL_ID, max_tokens: 1, messages: msgs }).catch(() => undefined);
    expect(await caught(a.messages.create({ model: MODEL_ID, max_tokens: 1, messages: msgs }))).toBeInstanceOf(Anthropic.RateLimitError);
  });
});

describe('models', () => {
  it('lists the chat model and the three apply models; retrieves one; 404 for unknown', async () => {
    const ids: string[] = [];
    for await (const m of h.openai.models.list()) ids.push(m.id);
    expect(ids).toEqual(expect.arrayContaining([MODEL_ID, 'svc-v3-fast', 'svc-v3-large', 'auto']));
    const m = (await h.openai.models.retrieve(MODEL_ID)) as unknown as Record<string, unknown>;
    expect(m).toMatchObject({ id: MODEL_ID, object: 'model', owned_by: 'svc', context_window: 32768, formats: ['chat.completions', 'messages'] });
    expect(typeof m.created).toBe('number');
    const apply = (await h.openai.models.retrieve('svc-v3-fast')) as unknown as Record<string, unknown>;
    expect(apply.formats).toEqual(['chat.completions']);
    expect(await caught(h.openai.models.retrieve('nope'))).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('serves the Anthropic SDK\'s models.list() (paged) and models.retrieve() too', async () => {
    const all: string[] = [];
    for await (const m of h.anthropic.models.list()) all.push(m.id);
    expect(all).toEqual([MODEL_ID, 'svc-v3-fast', 'svc-v3-large', 'auto']);
    // Pages of one, following has_more / last_id the way the SDK does.
    const paged: string[] = [];
    for await (const m of h.anthropic.models.list({ limit: 1 })) paged.push(m.id);
    expect(paged).toEqual(all);
    const first = await h.anthropic.models.list({ limit: 2 });
    expect([first.data.map((m) => m.id), first.has_more, first.first_id, first.last_id]).toEqual([all.slice(0, 2), true, all[0], all[1]]);
    const before = await h.anthropic.models.list({ limit: 2, before_id: 'auto' });
    expect(before.data.map((m) => m.id)).toEqual(all.slice(1, 3));
    const m = await h.anthropic.models.retrieve(MODEL_ID);
    expect([m.type, m.id, m.display_name]).toEqual(['model', MODEL_ID, MODEL_ID]);
    expect(Date.parse(m.created_at)).toBeGreaterThan(0);
    expect(await caught(h.anthropic.models.list({ limit: 0 }))).toBeInstanceOf(Anthropic.BadRequestError);
    expect(await caught(h.anthropic.models.retrieve('nope'))).toBeInstanceOf(Anthropic.NotFoundError);
  });
});
