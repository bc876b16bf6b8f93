// Where the HTTP path's time to first token goes, one stream at a time: client send → handler
// entry → engine submit → first token callback → first socket write done → client read, each a
// median over --n requests, beside the in-process generate() TTFT of the same prompt tokens.
// Server marks and the client's send/arrival times share one clock (timeOrigin + now()). The write
// mark is taken when the event loop gets back from the flush: a client woken by the write can
// preempt it first, so 'write returned → client read' can come out negative.
//
//   node dist/bench/chat/ttft-breakdown.js [--n 300] [--tokens 4] [--threads 2] [--model FILE]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { createHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { chatCompletionRoutes } from '../../src/api/chat-completions.js';
import { GREEDY_SAMPLING } from '../../src/engine/sampling.js';
import { median } from '../../src/bench/stats.js';
import type { ClientJob, ClientResult } from './http-client-worker.js';
import { benchChat, runClientJob } from './bench-run.js';

const KEY = 'sk-bench-ttft';
const now = (): number => performance.timeOrigin + performance.now();

interface Marks {
  entry?: number;
  submit?: number;
  token?: number;
  written?: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '300' },
      tokens: { type: 'string', default: '4' },
      threads: { type: 'string', default: '2' },
      model: { type: 'string' },
    },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-ttft-'));
  const path = values.model ? resolve(values.model) : await ensureBuiltinModel(dataDir);
  const model = await loadModel(path, { id: 'builtin', threads: Number(values.threads), maxSequences: 4 });

  let marks: Marks = {};
  const timed = Object.create(model) as EngineModel;
  timed.generate = (req, onToken) => {
    marks.submit = now();
    let first = true;
    return model.generate(req, (ev) => {
      if (!first) return onToken(ev);
      first = false;
      marks.token = now();
      onToken(ev);
      // Runs after the SSE queue's flush microtask, which the token above queued: the write is done.
      queueMicrotask(() => (marks.written = now()));
    });
  };
  const routes = chatCompletionRoutes({ models: new Map([['builtin', timed]]) }).map((r) => ({
    ...r,
    handler: (ctx: Parameters<typeof r.handler>[0]) => {
      marks.entry = now();
      return r.handler(ctx);
    },
  }));
  const server = createHttpServer({ name: 'bench', routes, logger: createLogger({ level: 'error', sink: () => {} }), apiKeys: [KEY], maxBody: 1 << 20 });
  const port = await server.listen('127.0.0.1', 0);

  const tokens = Number(values.tokens);
  const { body, logitBias, prompt } = await benchChat(model, tokens);
  const worker = new Worker(new URL('./http-client-worker.js', import.meta.url));
  const job: ClientJob = { host: '127.0.0.1', port, apiKey: KEY, body, concurrency: 1, client: 'socket' };
  const overHttp = (): Promise<ClientResult> => runClientJob(worker, job);
  const direct = async (): Promise<number> => {
    const t0 = performance.now();
    let first = 0;
    await model.generate({ prompt, maxTokens: tokens, sampling: { ...GREEDY_SAMPLING, logitBias }, priority: 'interactive' }, () => {
      first ||= performance.now();
    });
    return first - t0;
  };

  for (let i = 0; i < 20; i++) {
    await overHttp();
    await direct();
  }
  const rows: Record<string, number[]> = {
    'client send → handler entry': [],
    'handler entry → engine submit': [],
    'engine submit → first token': [],
    'first token → write returned': [],
    'write returned → client read': [],
    'HTTP TTFT (client)': [],
    'in-process TTFT': [],
  };
  const push = (k: string, v: number): void => void rows[k]!.push(v);
  for (let i = 0; i < Number(values.n); i++) {
    marks = {};
    const s = (await overHttp()).samples[0]!;
    if (s.sentAt === undefined || s.ttftMs === undefined) throw new Error('stream without a first token');
    const m = marks as Required<Marks>;
    push('client send → handler entry', m.entry - s.sentAt);
    push('handler entry → engine submit', m.submit - m.entry);
    push('engine submit → first token', m.token - m.submit);
    push('first token → write returned', m.written - m.token);
    push('write returned → client read', s.sentAt + s.ttftMs - m.written);
    push('HTTP TTFT (client)', s.ttftMs);
    push('in-process TTFT', await direct());
  }
  await worker.terminate();
  await server.shutdown(1000);
  model.unload();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`TTFT breakdown, ${values.model ?? 'built-in model'}, ${values.n} requests, medians (µs):`);
  for (const [k, v] of Object.entries(rows)) console.log(`${k.padEnd(34)} ${(median(v) * 1000).toFixed(0).padStart(8)}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
