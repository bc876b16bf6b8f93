// What the HTTP chat path adds on top of the engine: time to first token, inter-token latency and
// tokens/s for C concurrent streams of the built-in model, streamed through /v1/chat/completions
// (real uWS server, client on its own thread) versus LoadedModel.generate() called in-process with
// the same prompt tokens. The HTTP client is a lean one (sse-socket-client.ts: keep-alive sockets,
// HTTP/1.1 and SSE parsed off the socket) so that the figures are what the server adds; the same
// streams through fetch (undici, what most Node clients use) are reported as a secondary column,
// and that difference is client cost. Both paths ban EOS so every stream yields exactly --tokens tokens, and
// alternate round by round so that load and cache state are shared fairly; medians are quoted.
// The server side is also timed on its own: handler entry → engine generate() call ("prep":
// body, zod, chat template, tokenizer) and engine token → SSE write is synchronous in between.
//
//   node dist/bench/chat/server-overhead.js [--concurrency 1,64] [--tokens 32] [--rounds 5] [--reps 10] [--threads 2] [--no-fetch]
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { createHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { chatCompletionRoutes } from '../../src/api/chat-completions.js';
import { buildPrompt } from '../../src/chat/prompt.js';
import { planFromOpenAI, chatCompletionRequestSchema } from '../../src/chat/openai-request.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import type { ClientJob, ClientResult } from './http-client-worker.js';
import { median } from '../../src/bench/stats.js';

interface StreamTiming {
  ttftMs: number;
  itlMs: number[];
  tokens: number;
}

interface RunStats {
  ttft: number[];
  itl: number[];
  tokensPerSec: number;
}

const KEY = 'sk-bench-chat';

function stats(streams: StreamTiming[], wallMs: number): RunStats {
  const tokens = streams.reduce((a, s) => a + s.tokens, 0);
  return { ttft: streams.map((s) => s.ttftMs), itl: streams.flatMap((s) => s.itlMs), tokensPerSec: (tokens / wallMs) * 1000 };
}

async function inProcess(model: EngineModel, prompt: Uint32Array, c: number, tokens: number, logitBias: Record<number, number>): Promise<RunStats> {
  const t0 = performance.now();
  const streams = await Promise.all(
    Array.from({ length: c }, async () => {
      const start = performance.now();
      const times: number[] = [];
      await model.generate(
        {
          prompt,
          maxTokens: tokens,
          sampling: { temperature: 0, topP: 1, topK: 0, minP: 0, repetitionPenalty: 1, presencePenalty: 0, frequencyPenalty: 0, logitBias },
          priority: 'interactive',
        },
        () => times.push(performance.now()),
      );
      return { ttftMs: times[0]! - start, itlMs: times.slice(1).map((t, i) => t - times[i]!), tokens: times.length };
    }),
  );
  return stats(streams, performance.now() - t0);
}

function overHttp(worker: Worker, job: ClientJob): Promise<RunStats> {
  return new Promise((resolve, reject) => {
    worker.once('message', (m: ClientResult) => {
      const bad = m.samples.find((s) => !s.ok);
      if (bad) return reject(new Error(`HTTP stream failed: ${bad.error}`));
      const streams = m.samples.map((s) => ({
        ttftMs: s.ttftMs ?? NaN,
        itlMs: s.chunkTimesMs.slice(1).map((t, i) => t - s.chunkTimesMs[i]!),
        tokens: s.outputTokens,
      }));
      worker.off('error', reject);
      resolve(stats(streams, m.wallMs));
    });
    worker.once('error', reject);
    worker.postMessage(job);
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      concurrency: { type: 'string', default: '1,64' },
      tokens: { type: 'string', default: '32' },
      rounds: { type: 'string', default: '5' },
      reps: { type: 'string', default: '10' },
      threads: { type: 'string', default: '2' },
      json: { type: 'string' },
      'no-fetch': { type: 'boolean', default: false },
    },
  });
  const levels = values.concurrency.split(',').map(Number);
  const tokens = Number(values.tokens);
  const rounds = Number(values.rounds);
  const reps = Number(values.reps);

  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-chat-'));
  const path = await ensureBuiltinModel(dataDir);
  const model = await loadModel(path, { id: 'builtin', threads: Number(values.threads), maxSequences: Math.max(64, ...levels) });
  // Server-side marks: handler entry and the engine call it leads to (requests are FIFO per tick).
  const entries: number[] = [];
  const prepMs: number[] = [];
  // When each HTTP request reached the engine: the spread of one burst shows how many streams
  // missed the first engine step (the in-process path submits all of them in one tick).
  const submitAt: number[] = [];
  // Event-loop time the HTTP path spends per token: runner, parser, chunk JSON, SSE write.
  const tokenUs: number[] = [];
  const timed = Object.create(model) as EngineModel;
  timed.generate = (req, onToken) => {
    const entry = entries.shift();
    if (entry !== undefined) prepMs.push(performance.now() - entry);
    submitAt.push(performance.now());
    return model.generate(req, (ev) => {
      const t = performance.now();
      onToken(ev);
      if (tokenUs.length < 200_000) tokenUs.push((performance.now() - t) * 1000);
    });
  };
  const services = { models: new Map([['builtin', timed]]) };
  const routes = chatCompletionRoutes(services).map((r) => ({
    ...r,
    handler: (ctx: Parameters<typeof r.handler>[0]) => {
      entries.push(performance.now());
      return r.handler(ctx);
    },
  }));
  const server = createHttpServer({
    name: 'bench',
    routes,
    logger: createLogger({ level: 'error', sink: () => {} }),
    apiKeys: [KEY],
    maxBody: 1 << 20,
  });
  const port = await server.listen('127.0.0.1', 0);
  const worker = new Worker(new URL('./http-client-worker.js', import.meta.url));

  const logitBias = Object.fromEntries(model.info.eosTokens.map((t) => [t, -100]));
  const body = {
    model: 'builtin',
    messages: [{ role: 'user', content: 'Write a short paragraph about the sea.' }],
    max_tokens: tokens,
    temperature: 0,
    logit_bias: Object.fromEntries(Object.entries(logitBias).map(([k, v]) => [k, v])),
    stream: true,
  };
  // The same prompt tokens the HTTP path builds, so both paths prefill the same thing.
  const prompt = (await buildPrompt(model, planFromOpenAI(chatCompletionRequestSchema.parse(body)))).tokens;

  const withFetch = !values['no-fetch'];
  const results: Array<Record<string, number>> = [];
  for (const c of levels) {
    const job: ClientJob = { host: '127.0.0.1', port, apiKey: KEY, body, concurrency: c, client: 'socket' };
    const fetchJob: ClientJob = { ...job, client: 'fetch' };
    await inProcess(model, prompt, c, tokens, logitBias); // warm-up (also fills the prefix cache)
    await overHttp(worker, job);
    if (withFetch) await overHttp(worker, fetchJob);
    prepMs.length = 0;
    tokenUs.length = 0;
    const direct: RunStats[] = [];
    const http: RunStats[] = [];
    const viaFetch: RunStats[] = [];
    const spreads: number[] = [];
    const n = c === 1 ? reps : 1; // single streams are short: repeat them for stable medians
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < n; i++) direct.push(await inProcess(model, prompt, c, tokens, logitBias));
      for (let i = 0; i < n; i++) {
        submitAt.length = 0;
        http.push(await overHttp(worker, job));
        spreads.push(Math.max(...submitAt) - Math.min(...submitAt));
      }
      // fetch's rounds are not in the server-side columns (prep, µs/token, spread).
      const prepMark = prepMs.length;
      const tokenMark = tokenUs.length;
      if (withFetch) for (let i = 0; i < n; i++) viaFetch.push(await overHttp(worker, fetchJob));
      prepMs.length = prepMark;
      tokenUs.length = tokenMark;
    }
    results.push({
      concurrency: c,
      streams: direct.reduce((a, s) => a + s.ttft.length, 0),
      direct_ttft_p50_ms: median(direct.flatMap((s) => s.ttft)),
      http_ttft_p50_ms: median(http.flatMap((s) => s.ttft)),
      server_prep_p50_ms: median(prepMs),
      server_token_p50_us: median(tokenUs),
      http_submit_spread_ms: median(spreads),
      direct_itl_p50_ms: median(direct.flatMap((s) => s.itl)),
      http_itl_p50_ms: median(http.flatMap((s) => s.itl)),
      direct_tok_s: median(direct.map((s) => s.tokensPerSec)),
      http_tok_s: median(http.map((s) => s.tokensPerSec)),
      ...(withFetch
        ? { fetch_ttft_p50_ms: median(viaFetch.flatMap((s) => s.ttft)), fetch_tok_s: median(viaFetch.map((s) => s.tokensPerSec)) }
        : {}),
    });
  }
  await worker.terminate();
  await server.shutdown(1000);
  model.unload();
  rmSync(dataDir, { recursive: true, force: true });

  const f = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(2));
  const pct = (a: number, b: number) => `${f(((a - b) / b) * 100)}%`;
  console.log(`chat server overhead: built-in model, prompt ${prompt.length} tokens, ${tokens} tokens/stream, medians over all streams; http = lean socket client`);
  console.log(
    '| concurrent | streams/path | TTFT direct ms | TTFT http ms | added ms | server prep ms | server µs/token | submit spread ms | ITL direct ms | ITL http ms | tok/s direct | tok/s http | tok/s change | TTFT fetch ms | tok/s fetch |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.concurrency} | ${r.streams} | ${f(r.direct_ttft_p50_ms)} | ${f(r.http_ttft_p50_ms)} | ${f(r.http_ttft_p50_ms! - r.direct_ttft_p50_ms!)} | ${f(r.server_prep_p50_ms)} | ${f(r.server_token_p50_us)} | ${f(r.http_submit_spread_ms)} | ${f(r.direct_itl_p50_ms)} | ${f(r.http_itl_p50_ms)} | ${f(r.direct_tok_s)} | ${f(r.http_tok_s)} | ${pct(r.http_tok_s!, r.direct_tok_s!)} | ${f(r.fetch_ttft_p50_ms)} | ${f(r.fetch_tok_s)} |`,
    );
  }
  const out = values.json ?? join(PACKAGE_ROOT, 'bench', 'results', 'chat-server-overhead.json');
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, JSON.stringify({ promptTokens: prompt.length, tokens, rounds, results }, null, 2));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
