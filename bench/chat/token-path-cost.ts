// Main-thread CPU per streamed token of the chat route itself, without engine compute: a synthetic
// token source (a real model's tokenizer and template, generate() replaced) feeds the route, and
// the same source is read in-process for comparison. Two pacings: tokens back to back (the event
// loop never sleeps) and one token per --interval ms from another thread (the loop sleeps and is
// woken per token, as with the engine). The difference between the two is the cost of waking,
// switching and waking the client per token on this machine, not work the route does.
//
//   node dist/bench/chat/token-path-cost.js [--tokens 64] [--interval 0.6] [--reps 5]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import type { GenerateRequest, GenerateResult, TokenEvent } from '../../src/engine/types.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { createHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { chatCompletionRoutes } from '../../src/api/chat-completions.js';
import { median } from '../../src/bench/stats.js';
import { GREEDY_SAMPLING } from '../../src/engine/sampling.js';
import type { ClientJob } from './http-client-worker.js';
import { BENCH_MESSAGES, mainThreadCpuMs, runClientJob } from './bench-run.js';

const KEY = 'sk-bench-token-path';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tokens: { type: 'string', default: '64' },
      interval: { type: 'string', default: '0.6' },
      reps: { type: 'string', default: '5' },
    },
  });
  const tokens = Number(values.tokens);
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-token-path-'));
  const model = await loadModel(await ensureBuiltinModel(dataDir), { id: 'builtin', threads: 1, maxSequences: 4 });
  const ticker = new Worker(new URL('./token-ticker.js', import.meta.url));
  let paced = false;

  /** Emits req.maxTokens '\n' tokens, back to back (setImmediate) or one per ticker message. */
  const synthetic = (req: GenerateRequest, onToken: (ev: TokenEvent) => void): Promise<GenerateResult> =>
    new Promise((resolve) => {
      let n = 0;
      const done = (): void => resolve({ finishReason: 'length', promptTokens: req.prompt.length, cachedTokens: 0, completionTokens: n });
      if (paced) {
        const onTick = (): void => {
          onToken({ token: 198, text: '\n' });
          if (++n < req.maxTokens) return;
          ticker.off('message', onTick);
          done();
        };
        ticker.on('message', onTick);
        ticker.postMessage({ n: req.maxTokens, intervalMs: Number(values.interval) });
      } else {
        const tick = (): void => {
          onToken({ token: 198, text: '\n' });
          if (++n < req.maxTokens) setImmediate(tick);
          else done();
        };
        setImmediate(tick);
      }
    });
  const fake = Object.create(model) as EngineModel;
  fake.generate = synthetic;
  const server = createHttpServer({
    name: 'bench',
    routes: chatCompletionRoutes({ models: new Map([['builtin', fake]]) }),
    logger: createLogger({ level: 'error', sink: () => {} }),
    apiKeys: [KEY],
    maxBody: 1 << 20,
  });
  const port = await server.listen('127.0.0.1', 0);
  const client = new Worker(new URL('./http-client-worker.js', import.meta.url));
  const body = { model: 'builtin', messages: BENCH_MESSAGES, max_tokens: tokens, stream: true };
  const job: ClientJob = { host: '127.0.0.1', port, apiKey: KEY, body, concurrency: 1, client: 'socket' };
  const overHttp = async (): Promise<number> => (await runClientJob(client, job)).samples[0]!.outputTokens;
  const inProcess = async (): Promise<number> => {
    let n = 0;
    await synthetic({ prompt: new Uint32Array([1]), maxTokens: tokens, sampling: GREEDY_SAMPLING }, () => n++);
    return n;
  };
  const perToken = async (run: () => Promise<number>): Promise<number> => {
    const c0 = mainThreadCpuMs();
    let n = 0;
    for (let i = 0; i < 4; i++) n += await run();
    return ((mainThreadCpuMs() - c0) * 1000) / n;
  };

  console.log(`main-thread CPU µs per token, ${tokens} tokens/stream, medians of ${values.reps}:`);
  console.log('| pacing | in-process | HTTP | HTTP − in-process |');
  console.log('|---|---|---|---|');
  for (const mode of [false, true]) {
    paced = mode;
    for (let i = 0; i < 3; i++) await Promise.all([overHttp(), inProcess()]);
    const http: number[] = [];
    const direct: number[] = [];
    for (let r = 0; r < Number(values.reps); r++) {
      http.push(await perToken(overHttp));
      direct.push(await perToken(inProcess));
    }
    const [h, d] = [median(http), median(direct)];
    const label = mode ? `one per ${values.interval} ms from another thread` : 'back to back';
    console.log(`| ${label} | ${d.toFixed(1)} | ${h.toFixed(1)} | ${(h - d).toFixed(1)} |`);
  }
  await client.terminate();
  await ticker.terminate();
  await server.shutdown(1000);
  model.unload();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
