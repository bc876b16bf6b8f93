// The event loop's work to take in a burst of chat requests: a real uWS server with the chat route
// on this thread (built-in model, --threads engine threads), the lean socket client on another
// sending --concurrency streamed requests at once, --tokens each. Per burst it reads this thread's
// CPU time (/proc schedstat, which the machine's other load does not inflate) from the moment the
// client is told to go to the last engine submit ("intake": route, body, validation, planning,
// template, tokenization, submit, SSE headers of every request) and to the end of the burst, and
// the wall time from the first handler entry to the last submit.
// With --cpu-prof, the burst phase starts after the line `burst phase from <µs>` (the profile's
// clock, CLOCK_MONOTONIC): samples from then on are the bursts alone, without setup and warm-up.
//   node dist/bench/chat/burst-intake.js [--bursts 30] [--concurrency 64] [--tokens 1] [--threads 2]
//     [--baseline /path/to/other/dist]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { createHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { chatCompletionRoutes } from '../../src/api/chat-completions.js';
import type { Route } from '../../src/http/types.js';
import { median } from '../../src/bench/stats.js';
import { benchChat, mainThreadCpuMs, runClientJob } from './bench-run.js';

const KEY = 'sk-bench-burst-intake';

interface Modules {
  createHttpServer: typeof createHttpServer;
  chatCompletionRoutes: typeof chatCompletionRoutes;
}

interface Burst {
  intakeCpuMs: number;
  totalCpuMs: number;
  intakeWallMs: number;
  ttftMs: number;
}

/** A server over `model` whose generate() records when (wall, loop CPU) each request reached it. */
/** A server over `model` whose generate() records when each request reached it, and the loop's
 *  CPU clock at the burst's last submit (read once: reading /proc per request would cost more
 *  than some of the stages measured). */
async function timedServer(mods: Modules, model: EngineModel, burstSize: number): Promise<{ port: number; submits: number[]; entries: number[]; lastSubmitCpu: { ms: number } }> {
  const submits: number[] = [];
  const entries: number[] = [];
  const lastSubmitCpu = { ms: NaN };
  const timed = Object.create(model) as EngineModel;
  timed.generate = (req, onToken) => {
    submits.push(performance.now());
    if (submits.length === burstSize) lastSubmitCpu.ms = mainThreadCpuMs();
    return model.generate(req, onToken);
  };
  const routes: Route[] = mods.chatCompletionRoutes({ models: new Map([['builtin', timed]]) }).map((r) => ({
    ...r,
    handler: (ctx: Parameters<typeof r.handler>[0]) => {
      entries.push(performance.now());
      return r.handler(ctx);
    },
  }));
  const server = mods.createHttpServer({ name: 'bench', routes, logger: createLogger({ level: 'error', sink: () => {} }), apiKeys: [KEY], maxBody: 1 << 20 });
  return { port: await server.listen('127.0.0.1', 0), submits, entries, lastSubmitCpu };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      bursts: { type: 'string', default: '30' },
      concurrency: { type: 'string', default: '64' },
      tokens: { type: 'string', default: '1' },
      threads: { type: 'string', default: '2' },
      baseline: { type: 'string' },
    },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-intake-'));
  const model = await loadModel(await ensureBuiltinModel(join(tmpdir(), 'svc-bench-models')), { id: 'builtin', threads: Number(values.threads), maxSequences: Math.max(64, Number(values.concurrency)) });
  const chat = await benchChat(model, Number(values.tokens));
  const paths: Array<{ label: string; mods: Modules }> = [];
  if (values.baseline) {
    const dir = resolve(values.baseline);
    const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(join(dir, rel)).href)) as T;
    paths.push({ label: 'baseline', mods: { createHttpServer: (await load<Modules>('src/http/server.js')).createHttpServer, chatCompletionRoutes: (await load<Modules>('src/api/chat-completions.js')).chatCompletionRoutes } });
  }
  paths.push({ label: 'this build', mods: { createHttpServer, chatCompletionRoutes } });
  const n = Number(values.concurrency);
  const servers = await Promise.all(paths.map((p) => timedServer(p.mods, model, n)));
  const worker = new Worker(new URL('./http-client-worker.js', import.meta.url));
  const results: Burst[][] = paths.map(() => []);
  const burst = async (i: number): Promise<Burst> => {
    const s = servers[i]!;
    s.submits.length = 0;
    s.entries.length = 0;
    const cpu0 = mainThreadCpuMs();
    const r = await runClientJob(worker, { host: '127.0.0.1', port: s.port, apiKey: KEY, body: chat.body, concurrency: n, client: 'socket' });
    const cpu1 = mainThreadCpuMs();
    return { intakeCpuMs: s.lastSubmitCpu.ms - cpu0, totalCpuMs: cpu1 - cpu0, intakeWallMs: Math.max(...s.submits) - Math.min(...s.entries), ttftMs: median(r.samples.map((x) => x.ttftMs ?? NaN)) };
  };
  // Warm-up: JIT, the tokenizer's word cache, the client's connections.
  for (let w = 0; w < 5; w++) for (let i = 0; i < paths.length; i++) await burst(i);
  console.log(`burst phase from ${process.hrtime.bigint() / 1000n}`);
  for (let b = 0; b < Number(values.bursts); b++) {
    for (let k = 0; k < paths.length; k++) {
      const i = (b + k) % paths.length;
      results[i]!.push(await burst(i));
    }
  }
  console.log(`burst of ${n} streamed requests, ${values.tokens} token(s) each, built-in model, --threads ${values.threads}; medians of ${values.bursts} bursts; CPU = the event loop thread's`);
  console.log('| server | intake CPU ms (to the last submit) | per request µs | whole burst CPU ms | per request µs | intake wall ms (first handler → last submit) | TTFT p50 ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (let i = 0; i < paths.length; i++) {
    const m = (f: (x: Burst) => number): number => median(results[i]!.map(f));
    console.log(`| ${paths[i]!.label} | ${m((x) => x.intakeCpuMs).toFixed(2)} | ${((m((x) => x.intakeCpuMs) * 1000) / n).toFixed(0)} | ${m((x) => x.totalCpuMs).toFixed(2)} | ${((m((x) => x.totalCpuMs) * 1000) / n).toFixed(0)} | ${m((x) => x.intakeWallMs).toFixed(2)} | ${m((x) => x.ttftMs).toFixed(2)} |`);
  }
  await worker.terminate();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
