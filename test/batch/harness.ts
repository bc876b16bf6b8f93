// A real main-API server (uWS on port 0) with the Files and Batches routes over real LMDB in a
// temp dir, the real chat executor behind the runner, and the official openai client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { executeChatCompletion } from '../../src/api/chat-executor.js';
import { fileRoutes } from '../../src/api/files.js';
import { batchRoutes } from '../../src/api/batches.js';
import { BatchSystem } from '../../src/batch/system.js';
import type { BatchLimits, ChatExecutor, Clock } from '../../src/batch/types.js';
import type { ModelRegistry } from '../../src/chat/services.js';
import { closeApplyPool } from '../../src/apply/pool.js';

export const TEST_KEY = 'sk-batch-test-key';

export interface BatchServer {
  client: OpenAI;
  sys: BatchSystem;
  server: HttpServer;
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

/** The production executor: every model through executeChatCompletion (apply models included). */
export function realExecutor(): ChatExecutor {
  const services: { models: ModelRegistry } = { models: new Map() };
  return (body, opts) => executeChatCompletion(services, body, opts);
}

/**
 * Holds requests of the real executor at a gate until released, so a test can observe a batch
 * while requests are in flight (the executor itself is not replaced).
 */
export class Gate {
  started = 0;
  private open = false;
  /** While open, requests past this many started ones are held anyway (then it closes). */
  private openFor = Infinity;
  private waiters: Array<() => void> = [];
  wrap(inner: ChatExecutor): ChatExecutor {
    return async (body, opts) => {
      this.started++;
      if (this.open && this.started > this.openFor) this.open = false;
      if (!this.open) {
        // Like a real executor, a held request gives up when its signal aborts.
        await new Promise<void>((resolve, reject) => {
          const onAbort = (): void => {
            const i = this.waiters.indexOf(go);
            if (i >= 0) this.waiters.splice(i, 1);
            reject(new Error('aborted'));
          };
          const go = (): void => {
            opts.signal.removeEventListener('abort', onAbort);
            resolve();
          };
          opts.signal.addEventListener('abort', onAbort, { once: true });
          this.waiters.push(go);
        });
      }
      return inner(body, opts);
    };
  }
  /** Holds requests that start from now on. */
  hold(): void {
    this.open = false;
  }
  /** Lets the next `n` requests through (and any held now), then holds again. */
  releaseFor(n: number): void {
    this.openFor = this.started + n;
    this.openNow();
  }
  release(): void {
    this.openFor = Infinity;
    this.openNow();
  }
  private openNow(): void {
    this.open = true;
    for (const w of this.waiters.splice(0)) w();
  }
  get waiting(): number {
    return this.waiters.length;
  }
}

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private ms = Date.now()) {}
  now(): number {
    return this.ms;
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export async function startBatchServer(opts: {
  executor?: ChatExecutor;
  clock?: Clock;
  limits?: Partial<BatchLimits>;
  maxFileBytes?: number;
  chunkSize?: number;
  dataDir?: string;
} = {}): Promise<BatchServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-batch-'));
  const sys = new BatchSystem({
    dataDir,
    executor: opts.executor ?? realExecutor(),
    clock: opts.clock,
    limits: { expiryCheckMs: 20, ...opts.limits },
    maxFileBytes: opts.maxFileBytes,
    chunkSize: opts.chunkSize,
    log: () => undefined,
  });
  await sys.start();
  const server = createHttpServer({
    name: 'main',
    routes: [...fileRoutes(sys), ...batchRoutes(sys)],
    logger: createLogger({ level: 'silent' }),
    apiKeys: [TEST_KEY],
    maxBody: 1024 * 1024,
  });
  const port = await server.listen('127.0.0.1', 0);
  const url = `http://127.0.0.1:${port}`;
  const client = new OpenAI({ apiKey: TEST_KEY, baseURL: `${url}/v1`, maxRetries: 0 });
  return {
    client,
    sys,
    server,
    url,
    dataDir,
    async close() {
      await server.shutdown(1000);
      await sys.close();
      await closeApplyPool();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An apply request (svc-v3-fast: the native merge, a real model path with no weights). */
export function applyBody(i: number): Record<string, unknown> {
  const code = `function f${i}() {\n  return ${i};\n}\n\nfunction g() {\n  return 0;\n}\n`;
  const update = `function f${i}() {\n  return ${i + 1};\n}\n// ... existing code ...\n`;
  return {
    model: 'svc-v3-fast',
    messages: [{ role: 'user', content: `<instruction>I change f${i}.</instruction>\n<code>${code}</code>\n<update>${update}</update>` }],
  };
}

/** An apply request the model must refuse (no <code> tag): a real 4xx from the real path. */
export function badApplyBody(): Record<string, unknown> {
  return { model: 'svc-v3-fast', messages: [{ role: 'user', content: 'no tags at all' }] };
}

export function line(customId: string, body: Record<string, unknown>): string {
  return JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body });
}

export async function uploadJsonl(client: OpenAI, lines: string[], name = 'input.jsonl') {
  return client.files.create({ file: await toFile(Buffer.from(lines.join('\n') + '\n'), name), purpose: 'batch' });
}

/** Uploads n apply requests (custom ids `<prefix>-<i>`) and creates a batch over them. */
export async function createApplyBatch(client: OpenAI, n: number, prefix: string) {
  const lines = [];
  for (let i = 0; i < n; i++) lines.push(line(`${prefix}-${i}`, applyBody(i)));
  const f = await uploadJsonl(client, lines);
  return client.batches.create({ input_file_id: f.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
}

export async function waitFor<T>(get: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const TERMINAL = new Set(['completed', 'failed', 'expired', 'cancelled']);

export async function waitTerminal(client: OpenAI, id: string, timeoutMs = 30_000) {
  return waitFor(() => client.batches.retrieve(id), (b) => TERMINAL.has(b.status), timeoutMs);
}

export interface OutputLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: any } | null;
  error: { code: string; message: string } | null;
}

export async function readJsonl(client: OpenAI, fileId: string | null | undefined): Promise<OutputLine[]> {
  if (!fileId) return [];
  const text = await (await client.files.content(fileId)).text();
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as OutputLine);
}
