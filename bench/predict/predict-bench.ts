// Prediction service benchmark, all real processes on this machine:
//  1. a growing session of 50 prompts: latency per call with and without the prefix cache;
//  2. prefiller+decoder versus standalone at 1 and 16 concurrent sessions;
//  3. KV transfer MB/s from a prefiller process to this process.
// Run: node dist/bench/predict/predict-bench.js [--out bench/results/predict.json]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadModel } from '../../src/engine/index.js';
import { startSvc, type SvcProcess } from '../../src/bench/svc-process.js';
import { summarize } from '../../src/bench/stats.js';
import { benchModel } from '../../src/bench/models.js';
import { PrefillerLink } from '../../src/predict/prefiller-link.js';
import type { KvBlock } from '../../src/engine/types.js';
import { PACKAGE_ROOT } from '../../src/paths.js';

const RECORDING = join(PACKAGE_ROOT, 'test/fixtures/rrweb/todo-list.ndjson');

async function predict(url: string, lines: string[], maxTokens = 16): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: lines.join('\n'), max_tokens: maxTokens, temperature: 0 }) });
  if (res.status !== 200) throw new Error(`predict ${res.status}: ${await res.text()}`);
  await res.json();
  return performance.now() - t0;
}

/** A session is the recording behind a Meta event naming the session, so sessions differ. */
function sessionLines(all: string[], session: number): string[] {
  return [JSON.stringify({ type: 4, data: { href: `http://app.test/session/${session}`, width: 1024, height: 700 }, timestamp: 0 }), ...all];
}

async function growingSession(url: string, lines: string[], steps: number): Promise<number[]> {
  const out: number[] = [];
  const start = Math.max(2, lines.length - steps + 1);
  for (let n = start; n <= lines.length; n++) out.push(await predict(url, lines.slice(0, n)));
  return out;
}

async function concurrentSessions(url: string, all: string[], sessions: number, steps: number, base: number): Promise<{ latencyMs: ReturnType<typeof summarize>; callsPerS: number }> {
  const t0 = performance.now();
  const lat = (await Promise.all(Array.from({ length: sessions }, (_, i) => growingSession(url, sessionLines(all, base + i).slice(0, 14 + steps), steps)))).flat();
  return { latencyMs: summarize(lat), callsPerS: lat.length / ((performance.now() - t0) / 1000) };
}

async function kvTransfer(prefillerUrl: string, modelPath: string, lines: string[]): Promise<{ mb: number; ms: number; mbPerS: number; blocks: number }> {
  const model = await loadModel(modelPath, { threads: 1, kvCacheMb: 64 });
  const tokens = await model.tokenize(lines.join('\n') + '\n', { addSpecial: false });
  // The decoder's own download path (src/predict/prefiller-link.ts), without the local import.
  const link = new PrefillerLink({ url: prefillerUrl, timeoutMs: 60_000, heartbeatMs: 60_000 });
  const run = async () => {
    const t0 = performance.now();
    const blocks: KvBlock[] = [];
    await link.download(model.kv.layout(), tokens, 0, blocks, AbortSignal.timeout(60_000));
    return { bytes: blocks.reduce((n, b) => n + b.data.byteLength, 0), blocks: blocks.length, ms: performance.now() - t0 };
  };
  await run(); // the prefiller computes and caches the prompt once
  const runs = [];
  for (let i = 0; i < 9; i++) runs.push(await run()); // then every transfer is a cache read + wire
  const ms = summarize(runs.map((r) => r.ms)).p50;
  const mb = (runs[0]?.bytes ?? 0) / 1e6;
  link.stop();
  model.unload();
  return { mb, ms, mbPerS: mb / (ms / 1000), blocks: runs[0]?.blocks ?? 0 };
}

export async function runPredictBench(): Promise<Record<string, unknown>> {
  const modelPath = await benchModel('builtin', 'q8_0'); // the built-in shape has a 32k context
  const lines = readFileSync(RECORDING, 'utf8').trim().split('\n');
  const dir = (name: string) => {
    const d = join(tmpdir(), `svc-bench-predict-${process.pid}-${name}`);
    mkdirSync(d, { recursive: true });
    return d;
  };
  const common = ['--model', modelPath, '--threads', '1'];
  const procs: SvcProcess[] = [];
  const start = async (args: string[]) => {
    const p = await startSvc(['predict', ...args, ...common]);
    procs.push(p);
    return p;
  };
  try {
    const cached = await start(['--role', 'standalone', '--port', '0', '--data-dir', dir('a')]);
    const uncached = await start(['--role', 'standalone', '--port', '0', '--no-prefix-cache', '--data-dir', dir('b')]);
    const prefiller = await start(['--role', 'prefiller', '--port', '0', '--data-dir', dir('c')]);
    const decoder = await start(['--role', 'decoder', '--port', '0', '--prefiller', prefiller.url, '--data-dir', dir('d')]);

    const session = sessionLines(lines, 0);
    const steps = Math.min(50, session.length - 1);
    const withCache = await growingSession(cached.url, session, steps);
    const withoutCache = await growingSession(uncached.url, session, steps);

    const roles: Record<string, unknown> = {};
    let base = 100;
    for (const sessions of [1, 16]) {
      roles[`standalone_${sessions}`] = await concurrentSessions(cached.url, lines, sessions, 6, (base += 100));
      roles[`decoder_${sessions}`] = await concurrentSessions(decoder.url, lines, sessions, 6, (base += 100));
    }
    const transfer = await kvTransfer(prefiller.url, modelPath, session);
    return {
      model: 'builtin shape (qwen2 dim 128, 4 layers, q8_0, ctx 32768), 1 thread per process',
      growingSession: { prompts: steps, withCacheMs: summarize(withCache), withoutCacheMs: summarize(withoutCache), lastTenWithCacheMs: summarize(withCache.slice(-10)), lastTenWithoutCacheMs: summarize(withoutCache.slice(-10)) },
      roles,
      kvTransfer: transfer,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop('SIGKILL')));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const result = await runPredictBench();
  console.log(JSON.stringify(result, null, 2));
  if (values.out) {
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, JSON.stringify(result, null, 2) + '\n');
  }
}
