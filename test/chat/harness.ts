// A real chat server for the integration tests: the project's generated model (Qwen2.5 chat
// template, real BPE vocabulary, random weights) on the real engine, behind the real uWS server
// with the chat route modules, plus clients from the official SDKs pointed at it.
import { existsSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { createHttpServer, type HttpServer, type HttpServerOptions } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { makeModel, resolveSpec } from '../../src/model-maker/index.js';
import { chatCompletionRoutes } from '../../src/api/chat-completions.js';
import { messagesRoutes } from '../../src/api/messages.js';
import { modelRoutes } from '../../src/api/models.js';
import { apiErrorOf } from '../../src/api/engine-error-mapping.js';
import type { ChatServices } from '../../src/chat/services.js';

export const KEY = 'sk-chat-test-0123456789';
export const MODEL_ID = 'svc-chat-test';

/** A small generated model: the builtin shapes, a 4k-token slice of the Qwen vocabulary, a 32k
 *  context window (room for thinking budgets up to the high tier). */
export async function chatModelPath(): Promise<string> {
  const dir = join(tmpdir(), 'svc-chat-tests');
  mkdirSync(dir, { recursive: true });
  const spec = resolveSpec('builtin', { vocabLimit: 4096, ctx: 32768 });
  const key = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 12);
  // One file per spec shared by every test process: the writer renames a finished file into
  // place, and the engine maps it read-only.
  const path = join(dir, `chat-${key}.gguf`);
  if (!existsSync(path)) await makeModel(spec, path);
  return path;
}

export interface ChatHarness {
  url: string;
  model: EngineModel;
  services: ChatServices;
  server: HttpServer;
  openai: OpenAI;
  anthropic: Anthropic;
  close(): Promise<void>;
}

export async function startChatServer(opts: Partial<HttpServerOptions> = {}, model?: EngineModel): Promise<ChatHarness> {
  const m = model ?? (await loadModel(await chatModelPath(), { id: MODEL_ID, threads: 2, kvCacheMb: 64 }));
  const services: ChatServices = { models: new Map([[MODEL_ID, m]]) };
  const server = createHttpServer({
    name: 'chat-test',
    routes: [...chatCompletionRoutes(services), ...messagesRoutes(services), ...modelRoutes(services)],
    logger: createLogger({ level: 'error', sink: () => {} }),
    apiKeys: [KEY],
    maxBody: 1024 * 1024,
    toApiError: apiErrorOf,
    ...opts,
  });
  const port = await server.listen('127.0.0.1', 0);
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    model: m,
    services,
    server,
    openai: new OpenAI({ baseURL: `${url}/v1`, apiKey: KEY, maxRetries: 0 }),
    anthropic: new Anthropic({ baseURL: url, apiKey: KEY, maxRetries: 0 }),
    close: async () => {
      await server.shutdown(2000);
    },
  };
}

/** Raw SSE read of a response: [eventName | null, data] pairs. */
export async function readSse(res: Response): Promise<Array<[string | null, string]>> {
  const text = await res.text();
  const out: Array<[string | null, string]> = [];
  for (const block of text.split('\n\n')) {
    let name: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) name = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length) out.push([name, data.join('\n')]);
  }
  return out;
}
