// The apply models over HTTP: the real uWS server with the chat route (which dispatches apply
// models to src/api/apply-completions.ts), the real piscina worker from dist/, the openai SDK.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { chatCompletionRoutes } from '../../src/api/chat-completions.js';
import { completeApply } from '../../src/api/apply-completions.js';
import { isApplyModel } from '../../src/assets/apply-models.js';
import { closeApplyPool } from '../../src/apply/pool.js';
import { servedTokenizer } from '../../src/apply/tokens.js';
import { caseMessage, loadCorpus } from './corpus-loader.js';
import { ensureBuilt } from './build.js';

const KEY = 'sk-apply-test-0123456789';
const cases = loadCorpus();
const byName = (n: string) => {
  const c = cases.find((x) => x.name === n);
  if (!c) throw new Error(`no corpus case ${n}`);
  return c;
};

let server: HttpServer;
let url: string;
let client: OpenAI;

beforeAll(async () => {
  ensureBuilt();
  server = createHttpServer({
    name: 'apply-test',
    routes: [
      ...chatCompletionRoutes({ models: new Map() }),
      // A cheap route answered on the event loop, to see that apply work does not hold it.
      { method: 'GET', path: '/ping', auth: false, handler: (ctx) => ctx.json(200, { ok: true }) },
    ],
    logger: createLogger({ level: 'error', sink: () => {} }),
    apiKeys: [KEY],
    maxBody: 16 * 1024 * 1024,
  });
  const port = await server.listen('127.0.0.1', 0);
  url = `http://127.0.0.1:${port}`;
  client = new OpenAI({ baseURL: `${url}/v1`, apiKey: KEY, maxRetries: 0, timeout: 60_000 });
}, 600_000);

afterAll(async () => {
  await server?.shutdown(2000);
  await closeApplyPool();
});

function countTokens(text: string): number {
  return servedTokenizer().encode(text, { addSpecial: false }).length;
}

describe('apply over HTTP (openai SDK)', () => {
  it('isApplyModel names exactly the three apply models', () => {
    expect(['svc-v3-fast', 'svc-v3-large', 'auto'].every(isApplyModel)).toBe(true);
    expect(isApplyModel('gpt-4o')).toBe(false);
  });

  it('svc-v3-fast returns the merged file as a chat.completion', async () => {
    const c = byName('ts-two-hunks');
    const r = await client.chat.completions.create({ model: 'svc-v3-fast', messages: [{ role: 'user', content: caseMessage(c) }] });
    expect(r.object).toBe('chat.completion');
    expect(r.id).toMatch(/^chatcmpl-/);
    expect(r.model).toBe('svc-v3-fast');
    expect(r.choices[0]!.message.content).toBe(c.expected);
    expect(r.choices[0]!.finish_reason).toBe('stop');
    expect(r.usage!.completion_tokens).toBe(countTokens(c.expected));
    expect(r.usage!.prompt_tokens).toBeGreaterThan(countTokens(c.code));
    expect(r.usage!.total_tokens).toBe(r.usage!.prompt_tokens + r.usage!.completion_tokens);
  }, 60_000);

  it('svc-v3-large and auto produce the same file and say which model ran', async () => {
    const c = byName('ts-repeated-anchor');
    for (const model of ['svc-v3-large', 'auto'] as const) {
      const r = await client.chat.completions.create({ model, messages: [{ role: 'user', content: caseMessage(c) }] });
      expect(r.choices[0]!.message.content).toBe(c.expected);
      expect(['svc-v3-fast', 'svc-v3-large']).toContain(r.model);
      if (model === 'svc-v3-large') expect(r.model).toBe('svc-v3-large');
    }
  }, 60_000);

  it('keeps CRLF endings byte for byte', async () => {
    const c = byName('c-crlf-loop');
    const r = await client.chat.completions.create({ model: 'auto', messages: [{ role: 'user', content: caseMessage(c) }] });
    expect(r.choices[0]!.message.content).toBe(c.expected);
    expect(r.choices[0]!.message.content).toContain('\r\n');
  }, 60_000);

  it('streams content deltas that join to the merged file, then finish_reason, usage and [DONE]', async () => {
    const c = byName('py-method-edit');
    const stream = await client.chat.completions.create({
      model: 'svc-v3-fast',
      messages: [{ role: 'user', content: caseMessage(c) }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const ch of stream) chunks.push(ch);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks[0]!.choices[0]!.delta.content).toBe('');
    for (const ch of chunks) text += ch.choices[0]?.delta.content ?? '';
    expect(text).toBe(c.expected);
    const finish = chunks.filter((ch) => ch.choices[0]?.finish_reason);
    expect(finish.length).toBe(1);
    expect(finish[0]!.choices[0]!.finish_reason).toBe('stop');
    const last = chunks[chunks.length - 1]!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.completion_tokens).toBe(countTokens(c.expected));
    for (const ch of chunks) expect(ch.object).toBe('chat.completion.chunk');
  }, 60_000);

  it('says what the merge did in x-apply-report, and keeps code the update did not remove', async () => {
    const c = byName('ts-two-hunks');
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-v3-fast', messages: [{ role: 'user', content: caseMessage(c) }] }),
    });
    expect(res.headers.get('x-apply-report')).toMatch(/^hunks=\d+ (?:anchors|definition)=\d+.*kept-uncertain=0$/);
    await res.json();
    // A lone function with no markers: the syntax pass swaps the original function of that name
    // (issue 28's rule, markers or not), the other function stays, and the report says so.
    const code = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n';
    const lazy = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-v3-fast', messages: [{ role: 'user', content: `<code>${code}</code>\n<update>function b() {\n  return 3;\n}</update>` }] }),
    });
    expect(lazy.headers.get('x-apply-report')).toBe('hunks=1 definition=1; definitions=1 (javascript); kept-uncertain=0');
    const body = (await lazy.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]!.message.content).toBe(code.replace('return 2', 'return 3'));
  }, 60_000);

  it('ends the raw SSE stream with data: [DONE] and sends no usage chunk unless asked', async () => {
    const c = byName('ts-single-hunk');
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-v3-fast', stream: true, messages: [{ role: 'user', content: caseMessage(c) }] }),
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const body = await res.text();
    const events = body.split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => e.slice(6));
    expect(events[events.length - 1]).toBe('[DONE]');
    const objs = events.slice(0, -1).map((e) => JSON.parse(e) as { usage?: unknown; choices: unknown[] });
    expect(objs.every((o) => o.usage === undefined && o.choices.length === 1)).toBe(true);
  }, 60_000);

  it('honours max_tokens: the text is cut to that many tokens and finish_reason is length', async () => {
    const c = byName('ts-two-hunks');
    const r = await client.chat.completions.create({ model: 'svc-v3-fast', max_tokens: 7, messages: [{ role: 'user', content: caseMessage(c) }] });
    expect(r.choices[0]!.finish_reason).toBe('length');
    expect(r.usage!.completion_tokens).toBe(7);
    const text = r.choices[0]!.message.content!;
    expect(c.expected.startsWith(text)).toBe(true);
    expect(countTokens(text)).toBe(7);
  }, 60_000);

  it('rejects bad input with 400 invalid_request_error naming the problem', async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ model: 'svc-v3-fast', messages: [{ role: 'user', content: '<code>x</code>' }] }, /<update>/],
      [{ model: 'svc-v3-fast', messages: [{ role: 'user', content: '<update>x</update>' }] }, /<code>/],
      [{ model: 'svc-v3-large', messages: [{ role: 'user', content: '<code>a\nb\n</code>\n<update></update>' }] }, /empty <update>/],
      [{ model: 'svc-v3-fast', messages: [] }, /empty/],
      [{ model: 'auto', messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }] }, /exactly one/],
      [{ model: 'svc-v3-large', messages: [{ role: 'system', content: '<code>a</code>\n<update>b</update>' }] }, /role/],
      [{ model: 'svc-v3-fast', messages: [{ role: 'user', content: 42 }] }, /content/],
      [{ model: 'svc-v3-fast', messages: 'hi' }, /array/],
      [{ model: 'svc-v3-fast', max_tokens: 0, messages: [{ role: 'user', content: '<code>a</code>\n<update>b</update>' }] }, /max_tokens/],
      [{ model: 'svc-v3-fast', stream: 'yes', messages: [{ role: 'user', content: '<code>a</code>\n<update>b</update>' }] }, /stream/],
      // chat features a merge does not have: refused by name, not silently ignored
      [{ model: 'svc-v3-fast', stop: 'return', messages: [{ role: 'user', content: '<code>a</code>\n<update>b</update>' }] }, /stop:? is not supported by the apply models/],
      [{ model: 'auto', logprobs: true, messages: [{ role: 'user', content: '<code>a</code>\n<update>b</update>' }] }, /logprobs:? is not supported/],
      [{ model: 'svc-v3-large', tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'required', messages: [{ role: 'user', content: '<code>a</code>\n<update>b</update>' }] }, /tools:? is not supported/],
      [{ model: 'svc-v3-fast', response_format: { type: 'json_object' }, messages: [{ role: 'user', content: '<code>a</code>\n<update>b</update>' }] }, /response_format:? is not supported/],
    ];
    for (const [body, re] of bad) {
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      const j = (await res.json()) as { error: { code: string; message: string } };
      expect(j.error.code).toBe('invalid_request_error');
      expect(j.error.message).toMatch(re);
    }
    // Their empty or off values are fine.
    const fine = await client.chat.completions.create({ model: 'svc-v3-fast', stop: null, logprobs: false, tools: [], response_format: { type: 'text' }, messages: [{ role: 'user', content: '<code>a\n</code>\n<update>b\n</update>' }] });
    expect(fine.choices[0]!.message.content).toBe('b\n');
    // The SDK maps it to BadRequestError.
    await expect(client.chat.completions.create({ model: 'svc-v3-fast', messages: [] })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  }, 60_000);

  it('keeps the event loop free while a large merge runs in the worker', async () => {
    const code = Array.from({ length: 30_000 }, (_, i) => `  const v${i} = compute(${i % 101}, 'row ${i}');`).join('\n') + '\n';
    const update = `// ... existing code ...\n  const v15000 = compute(0, 'changed');\n// ... existing code ...`;
    const order: string[] = [];
    const big = client.chat.completions
      .create({ model: 'svc-v3-large', messages: [{ role: 'user', content: `<code>${code}</code>\n<update>${update}</update>` }] })
      .then((r) => {
        order.push('apply');
        return r;
      });
    await new Promise((r) => setTimeout(r, 20));
    const ping = await fetch(`${url}/ping`);
    order.push('ping');
    expect(ping.status).toBe(200);
    const r = await big;
    expect(order).toEqual(['ping', 'apply']);
    expect(r.choices[0]!.message.content).toContain("  const v15000 = compute(0, 'changed');\n  const v15001");
  }, 120_000);

  it('completeApply (the batch path) returns status and body without HTTP', async () => {
    const c = byName('go-repeated-err');
    const r = await completeApply({ model: 'svc-v3-fast', messages: [{ role: 'user', content: caseMessage(c) }] });
    expect(r.statusCode).toBe(200);
    const body = r.body as { object: string; model: string; choices: Array<{ message: { content: string } }> };
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]!.message.content).toBe(c.expected);
    await expect(completeApply({ model: 'svc-v3-fast', messages: [] })).rejects.toMatchObject({ code: 'invalid_request_error', status: 400 });
  }, 60_000);
});
