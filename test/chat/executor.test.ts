// executeChatCompletion: the in-process entry the batch runner uses; never throws.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { executeChatCompletion } from '../../src/api/chat-executor.js';
import type { ChatServices } from '../../src/chat/services.js';
import { MODEL_ID, chatModelPath } from './harness.js';

let model: EngineModel;
let services: ChatServices;

beforeAll(async () => {
  model = await loadModel(await chatModelPath(), { id: MODEL_ID, threads: 2, kvCacheMb: 32 });
  services = { models: new Map([[MODEL_ID, model]]) };
});

afterAll(() => model?.unload());

const opts = { requestId: 'req_test', priority: 'batch' as const };

describe('executeChatCompletion', () => {
  it('answers a chat model with a chat.completion (stream flags ignored)', async () => {
    const r = await executeChatCompletion(
      services,
      { model: MODEL_ID, messages: [{ role: 'user', content: 'hi' }], max_tokens: 3, stream: true, stream_options: { include_usage: true } },
      opts,
    );
    expect(r.statusCode).toBe(200);
    const b = r.body as { object: string; choices: Array<{ message: { role: string } }>; usage: { completion_tokens: number } };
    expect(b.object).toBe('chat.completion');
    expect(b.choices[0]!.message.role).toBe('assistant');
    expect(b.usage.completion_tokens).toBeLessThanOrEqual(3);
  });

  it('returns error envelopes instead of throwing', async () => {
    const bad = await executeChatCompletion(services, { model: MODEL_ID, messages: [] }, opts);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'invalid_request_error', type: 'invalid_request_error', param: 'messages' } });
    const missing = await executeChatCompletion(services, { model: 'nope', messages: [{ role: 'user', content: 'x' }] }, opts);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'not_found', param: 'model' } });
    const notObject = await executeChatCompletion(services, 'x', opts);
    expect(notObject.statusCode).toBe(400);
  });

  it('dispatches apply models to the apply engine', async () => {
    const content = '<instruction>rename</instruction>\n<code>function a() {\n  return 1;\n}\n</code>\n<update>function a() {\n  return 2;\n}\n</update>';
    const r = await executeChatCompletion(services, { model: 'svc-v3-fast', messages: [{ role: 'user', content }] }, opts);
    expect(r.statusCode).toBe(200);
    const b = r.body as { choices: Array<{ message: { content: string } }> };
    expect(b.choices[0]!.message.content).toContain('return 2;');
  });

  it('honours cancellation', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await executeChatCompletion(services, { model: MODEL_ID, messages: [{ role: 'user', content: 'x' }], max_tokens: 50 }, { ...opts, signal: ac.signal });
    expect(r.statusCode).toBe(200);
    expect((r.body as { usage: { completion_tokens: number } }).usage.completion_tokens).toBe(0);
  });
});
