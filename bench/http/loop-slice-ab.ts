// The event loop's scheduler slice, A/B inside one process so that both settings see the same
// machine load: the engine (built-in model, default --threads) decodes --streams SSE streams over
// the real chat route while a prober thread sends GET /health every 2 ms; every --switch-ms the
// main thread's slice flips between the short one (src/engine/loop-slice.ts) and the kernel's
// default (what the thread had before), and each /health answer and each engine token is counted
// for the setting in force when it happened (the first 20 ms after a flip are dropped).
// Reports /health p50/p99/max and the engine's tokens/s per setting; with --rounds R it repeats
// R times and quotes medians.
//   node dist/bench/http/loop-slice-ab.js [--seconds 20] [--rounds 3] [--streams 16] [--short-us 100]
//     [--busy-threads 0]
// --busy-threads N adds N spinning worker threads at nice 0 (stand-ins for the server's other CPU
// work during an upload and validation: the multipart and validation workers).
import { readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { PROBE_STRIDE, probeHealth } from './health-prober.js';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { createHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { chatCompletionRoutes } from '../../src/api/chat-completions.js';
import type { Route } from '../../src/http/types.js';
import { native } from '../../src/native/binding.js';
import { median } from '../../src/bench/stats.js';
import { eosBan } from '../../src/engine/sampling.js';
import { runStream } from './sse-load-client.js';

const KEY = 'sk-loop-slice-ab';
type Role = { role: 'prober'; port: number } | { role: 'streams'; port: number; streams: number; body: object } | { role: 'spin' };

// ---- worker threads ----

function streamClients(port: number, n: number, body: object): void {
  let on = true;
  parentPort!.on('message', () => {
    on = false;
  });
  for (let i = 0; i < n; i++) {
    void (async () => {
      while (on) await runStream({ port, apiKey: KEY, mode: 'normal', body });
    })();
  }
}

if (!isMainThread) {
  const d = workerData as Role;
  if (d.role === 'prober') probeHealth(d.port, 2);
  else if (d.role === 'streams') streamClients(d.port, d.streams, d.body);
  else {
    let stop = false;
    parentPort!.on('message', () => (stop = true));
    const spin = (): void => {
      const t = performance.now();
      while (performance.now() - t < 50) {
        /* busy */
      }
      if (!stop) setImmediate(spin);
    };
    spin();
  }
}

// ---- main thread ----
function ownSliceUs(): number {
  const m = /^se\.slice\s*:\s*(\d+)/m.exec(readFileSync(`/proc/self/task/${process.pid}/sched`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1000) : NaN;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
}

async function round(model: EngineModel, o: { seconds: number; streams: number; shortUs: number; defaultUs: number; switchMs: number; busy: number }) {
  const tokenAt: number[] = [];
  const timed = Object.create(model) as EngineModel;
  timed.generate = (req, onToken) =>
    model.generate(req, (ev) => {
      tokenAt.push(performance.timeOrigin + performance.now());
      onToken(ev);
    });
  const routes: Route[] = chatCompletionRoutes({ models: new Map([['builtin', timed]]) });
  routes.push({ method: 'GET', path: '/health', auth: false, handler: (ctx) => ctx.json(200, { status: 'ok' }) });
  const server = createHttpServer({ name: 'ab', routes, logger: createLogger({ level: 'error', sink: () => {} }), apiKeys: [KEY], maxBody: 1 << 20 });
  const port = await server.listen('127.0.0.1', 0);
  const body = { model: 'builtin', stream: true, max_tokens: 256, temperature: 0, logit_bias: eosBan(model.info), messages: [{ role: 'user', content: 'Tell a long story.' }] };
  const streams = new Worker(new URL(import.meta.url), { workerData: { role: 'streams', port, streams: o.streams, body } satisfies Role });
  const busy = Array.from({ length: o.busy }, () => new Worker(new URL(import.meta.url), { workerData: { role: 'spin' } satisfies Role }));
  await new Promise((r) => setTimeout(r, 1500)); // streams under way
  const probe = new Worker(new URL(import.meta.url), { workerData: { role: 'prober', port } satisfies Role });
  // Flip the slice on a fixed schedule; record [start, end, short?] windows.
  const windows: Array<[number, number, boolean]> = [];
  const t0 = performance.timeOrigin + performance.now();
  let short = Math.random() < 0.5;
  while (performance.timeOrigin + performance.now() - t0 < o.seconds * 1000) {
    native().markLatencyThread(short ? o.shortUs : o.defaultUs);
    const start = performance.timeOrigin + performance.now();
    await new Promise((r) => setTimeout(r, o.switchMs));
    windows.push([start + 20, performance.timeOrigin + performance.now(), short]);
    short = !short;
  }
  const samples = await new Promise<number[]>((r) => {
    probe.once('message', r);
    probe.postMessage('collect');
  });
  await probe.terminate();
  streams.postMessage('stop');
  for (const b of busy) await b.terminate();
  await server.shutdown(2000);
  await streams.terminate();
  const out: Record<string, { p50: number; p99: number; max: number; n: number; tokS: number }> = {};
  for (const mode of [true, false]) {
    const ws = windows.filter((w) => w[2] === mode);
    const inW = (t: number): boolean => ws.some(([a, b]) => t >= a && t < b);
    const ms: number[] = [];
    for (let i = 0; i < samples.length; i += PROBE_STRIDE) if (inW(samples[i]!)) ms.push(samples[i + 1]!);
    const secs = ws.reduce((s, [a, b]) => s + (b - a), 0) / 1000;
    out[mode ? 'short' : 'default'] = { p50: pct(ms, 50), p99: pct(ms, 99), max: Math.max(...ms), n: ms.length, tokS: tokenAt.filter(inW).length / secs };
  }
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '3' },
      streams: { type: 'string', default: '16' },
      'short-us': { type: 'string', default: '100' },
      'switch-ms': { type: 'string', default: '250' },
      'busy-threads': { type: 'string', default: '0' },
    },
  });
  const defaultUs = ownSliceUs(); // before loadModel marks the loop
  const path = await ensureBuiltinModel(join(tmpdir(), 'svc-bench-models'));
  const model = await loadModel(path, { id: 'builtin' });
  const o = { seconds: Number(values.seconds), streams: Number(values.streams), shortUs: Number(values['short-us']), defaultUs, switchMs: Number(values['switch-ms']), busy: Number(values['busy-threads']) };
  console.error(`default slice ${defaultUs} µs, short ${o.shortUs} µs, engine threads: default`);
  const rows: Array<Awaited<ReturnType<typeof round>>> = [];
  for (let r = 0; r < Number(values.rounds); r++) {
    const res = await round(model, o);
    rows.push(res);
    console.error(`round ${r + 1} (load ${loadavg()[0]!.toFixed(1)}): ${JSON.stringify(res)}`);
  }
  console.log('| loop slice | /health p50 ms | p99 ms | max ms | probes | engine tok/s |');
  console.log('|---|---|---|---|---|---|');
  for (const k of ['short', 'default'] as const) {
    const xs = rows.map((r) => r[k]!);
    const m = (f: (x: (typeof xs)[number]) => number): string => median(xs.map(f)).toFixed(2);
    console.log(`| ${k === 'short' ? `${o.shortUs} µs` : `${defaultUs} µs (kernel default)`} | ${m((x) => x.p50)} | ${m((x) => x.p99)} | ${m((x) => x.max)} | ${m((x) => x.n)} | ${m((x) => x.tokS)} |`);
  }
  model.unload();
  process.exit(0);
}

if (isMainThread) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
