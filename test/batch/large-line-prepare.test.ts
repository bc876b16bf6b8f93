// A large batch line reaches the executor as its bytes (UnparsedBody) and is prepared in the chat
// prepare pool (src/api/chat-prepare-pool.ts): the executor's answer must be the one the parsed
// body gets (success, forced tool calls, grammars, n > 1, logprobs, and every kind of error), on the
// real engine and the generated test model. End to end, a batch whose lines are over the threshold
// writes the same output and error files as with the threshold out of reach, and the pool is used.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { executeChatCompletion } from '../../src/api/chat-executor.js';
import { CHAT_PREPARE_WORKER_FILE, chatPrepareCounts, closeChatPreparePool } from '../../src/api/chat-prepare-pool.js';
import { closeValidationWorker, VALIDATE_WORKER_FILE } from '../../src/batch/input-worker.js';
import type { ChatExecutor, UnparsedBody } from '../../src/batch/types.js';
import type { ChatServices } from '../../src/chat/services.js';
import { MODEL_ID, chatModelPath } from '../chat/harness.js';
import { line, readJsonl, startBatchServer, uploadJsonl, waitTerminal, type OutputLine } from './harness.js';
import { weatherTool } from '../helpers/chat-tools.js';

const built = existsSync(CHAT_PREPARE_WORKER_FILE) && existsSync(VALIDATE_WORKER_FILE);

let model: EngineModel;
let services: ChatServices;

beforeAll(async () => {
  // No prefix cache: each run of a prompt must see the engine as the first one did (cached_tokens).
  model = await loadModel(await chatModelPath(), { id: MODEL_ID, threads: 2, kvCacheMb: 64, prefixCache: false });
  services = { models: new Map([[MODEL_ID, model]]) };
});

afterAll(async () => {
  await closeChatPreparePool();
  await closeValidationWorker();
  model?.unload();
});

/** Deterministic text of about `chars` characters, some of it multi-byte. */
function filler(chars: number, seed: number): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'café', 'naïve', '世界', 'données', 'über', 'tree', 'river', 'stone'];
  let x = seed;
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const w = words[x % words.length]!;
    out.push(w);
    n += w.length + 1;
  }
  return out.join(' ');
}


const long = filler(6000, 1);
const user = (content: string) => [{ role: 'user', content }];

/** Request bodies that take each branch: answers, forced and auto tools, a grammar, n > 1 with a
 *  seed, logprobs, and the errors of validation, planning, an unknown model and the context. */
const CASES: Record<string, Record<string, unknown>> = {
  plain: { model: MODEL_ID, messages: [{ role: 'system', content: 'Be brief.' }, ...user(long)], max_tokens: 8, temperature: 0, stream: true, stream_options: { include_usage: true } },
  forced: { model: MODEL_ID, messages: user(long), tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'get_weather' } }, max_tokens: 64, temperature: 0 },
  auto: { model: MODEL_ID, messages: user(long), tools: [weatherTool], max_tokens: 8, temperature: 0 },
  grammar: {
    model: MODEL_ID,
    messages: user(long),
    response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } } },
    max_tokens: 16,
    temperature: 0,
  },
  seeded: { model: MODEL_ID, messages: user(long), n: 2, seed: 7, max_tokens: 6, logprobs: true, top_logprobs: 2 },
  invalid: { model: MODEL_ID, messages: user(long), temperature: 5 },
  planError: { model: MODEL_ID, messages: user(long), top_logprobs: 3 },
  unknownModel: { model: 'no-such-model', messages: user(long), max_tokens: 4 },
  unknownAndInvalid: { model: 'no-such-model', messages: user(long), temperature: 5 },
  tooManyTokens: { model: MODEL_ID, messages: user(long), max_tokens: 40_000 },
  overContext: { model: MODEL_ID, messages: user(filler(300 * 1024, 2)), max_tokens: 4 },
};

/** The line's bytes as the input worker sends a long one. */
function unparsed(customId: string, body: Record<string, unknown>): UnparsedBody {
  return { unparsed: 'batch-line', line: new Uint8Array(Buffer.from(line(customId, body))), model: body.model as string };
}

/** A response with its per-call random parts (ids, creation time) fixed. */
function normalized(body: unknown): string {
  return JSON.stringify(body)
    .replace(/"id":"chatcmpl-[^"]*"/g, '"id":"chatcmpl"')
    .replace(/"id":"call_[^"]*"/g, '"id":"call"')
    .replace(/"created":\d+/g, '"created":0');
}

const opts = { requestId: 'req_test', priority: 'batch' as const };

describe.skipIf(!built)('a large batch line prepared off the loop', () => {
  it('answers as the parsed body does, errors included, through the pool', async () => {
    for (const [name, body] of Object.entries(CASES)) {
      const before = chatPrepareCounts.offLoop;
      const here = await executeChatCompletion(services, structuredClone(body), opts);
      const off = await executeChatCompletion(services, unparsed(name, body), opts);
      expect(chatPrepareCounts.offLoop, name).toBe(before + 1);
      expect({ name, status: off.statusCode, body: normalized(off.body) }).toEqual({ name, status: here.statusCode, body: normalized(here.body) });
    }
    // Each kind of answer was reached (the cases do what their names say).
    const status = async (b: Record<string, unknown>) => (await executeChatCompletion(services, unparsed('s', b), opts)).statusCode;
    expect(await status(CASES.plain!)).toBe(200);
    expect(await status(CASES.invalid!)).toBe(400);
    expect(await status(CASES.unknownModel!)).toBe(404);
    expect(await status(CASES.unknownAndInvalid!)).toBe(400);
    expect(await status(CASES.overContext!)).toBe(400);
    const forced = await executeChatCompletion(services, unparsed('f', CASES.forced!), opts);
    expect((forced.body as { choices: Array<{ message: { tool_calls?: unknown[] } }> }).choices[0]!.message.tool_calls?.length).toBeGreaterThan(0);
  });

  it('keeps an apply model line on the usual path', async () => {
    const before = chatPrepareCounts.offLoop;
    const body = { model: 'svc-v3-fast', messages: user(`<code>function a() {\n  return 1;\n}\n</code>\n<update>function a() {\n  return 2;\n}\n</update>`) };
    const here = await executeChatCompletion(services, structuredClone(body), opts);
    const off = await executeChatCompletion(services, unparsed('apply', body), opts);
    expect(chatPrepareCounts.offLoop).toBe(before);
    expect(off.statusCode).toBe(200);
    expect(normalized(off.body)).toEqual(normalized(here.body));
  });

  it('a batch of lines over the threshold writes the files a parsed batch writes', async () => {
    const executor: ChatExecutor = (body, o) => executeChatCompletion(services, body, o);
    const lines = Object.entries(CASES)
      // A batch runs one model (no unknown-model lines); n > 1 is covered above and slow on two cores.
      .filter(([name]) => name !== 'seeded' && !name.startsWith('unknown'))
      .map(([name, { stream: _, ...body }]) => line(name, body)); // batch validation refuses `stream: true`
    lines.push(line('short', { model: MODEL_ID, messages: user('hi'), max_tokens: 4, temperature: 0 }));
    const run = async (unparsedLineChars: number): Promise<{ out: OutputLine[]; err: OutputLine[]; prepared: number }> => {
      const s = await startBatchServer({ executor, limits: { concurrency: 1, unparsedLineChars } });
      try {
        const before = chatPrepareCounts.offLoop;
        const f = await uploadJsonl(s.client, lines);
        const b = await s.client.batches.create({ input_file_id: f.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
        const done = await waitTerminal(s.client, b.id, 120_000);
        expect(done.status, JSON.stringify(done.errors)).toBe('completed');
        return { out: await readJsonl(s.client, done.output_file_id), err: await readJsonl(s.client, done.error_file_id), prepared: chatPrepareCounts.offLoop - before };
      } finally {
        await s.close();
      }
    };
    const parsed = await run(Number.MAX_SAFE_INTEGER);
    const bytes = await run(1000);
    expect(parsed.prepared).toBe(0);
    expect(bytes.prepared).toBe(lines.length - 1); // every line but the short one
    const view = (ls: OutputLine[]) => ls.map((l) => [l.custom_id, l.response?.status_code, normalized(l.response?.body)]);
    expect(view(bytes.out)).toEqual(view(parsed.out));
    expect(view(bytes.err)).toEqual(view(parsed.err));
    expect(bytes.out.length + bytes.err.length).toBe(lines.length);
  });
});
