// Prediction service on long and growing recorded sessions (issue #23), all on this machine:
//  growing     one session of 200 requests, each appending events: cached fraction per request
//              across window jumps, latency;
//  concurrent  p50/p99 latency at 1, 4 and 16 concurrent growing sessions;
//  ttft        time to a first token (max_tokens 1) for a fresh window: decoder with a remote
//              prefiller vs standalone;
//  stall       the longest event-loop stall while a 20 MB body is parsed and windowed, inline vs
//              in the prepare worker (in this process, monitorEventLoopDelay).
// Inter-token gaps beside a KV export: export-gap-bench.ts; TTFT at 8k/16k windows: ttft-roles.ts.
// The model is the built-in shape (qwen2 dim 128, 4 layers, q8_0) with a 4096-token context, so
// windows are 4k tokens. Run after a build:
//   node dist/bench/predict/sessions-bench.js [--only growing,stall] [--out bench/results/predict-sessions.json]
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadModel } from '../../src/engine/index.js';
import { summarize } from '../../src/bench/stats.js';
import { startSvc, type SvcProcess } from '../../src/bench/svc-process.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { PromptPreparer } from '../../src/predict/prepare-pool.js';
import { builtinModel } from './bench-model.js';
import { longSession } from './sessions.js';

const CTX = 4096;
const FIXTURES = join(PACKAGE_ROOT, 'test/fixtures/rrweb');
const recordings = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.ndjson'))
  .map((f) => readFileSync(join(FIXTURES, f), 'utf8').trim().split('\n'));

interface Call {
  ms: number;
  promptTokens: number;
  cachedTokens: number;
  dropped: number;
}

async function predict(url: string, lines: string[], maxTokens: number): Promise<Call> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: lines.join('\n'), max_tokens: maxTokens, temperature: 0 }) });
  if (res.status !== 200) throw new Error(`predict ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { usage: { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } } };
  return { ms: performance.now() - t0, promptTokens: body.usage.prompt_tokens, cachedTokens: body.usage.prompt_tokens_details.cached_tokens, dropped: Number(res.headers.get('x-prompt-events-dropped')) };
}

/** `requests` calls of one session, each with `step` more events than the last. */
async function growing(url: string, session: number, requests: number, step: number, first = 20, maxTokens = 16): Promise<Call[]> {
  const lines = longSession(recordings, first + requests * step, session);
  const calls: Call[] = [];
  for (let r = 0; r < requests; r++) calls.push(await predict(url, lines.slice(0, first + r * step), maxTokens));
  return calls;
}

function cacheReport(calls: Call[]) {
  let windows = 1;
  let hits = 0;
  let sameWindow = 0;
  const firstJump = calls.findIndex((c) => c.dropped > 0);
  for (let i = 1; i < calls.length; i++) {
    const same = calls[i]!.dropped === calls[i - 1]!.dropped;
    if (!same) windows++;
    else sameWindow++;
    if (same && calls[i]!.cachedTokens > 0.5 * calls[i]!.promptTokens) hits++;
  }
  const frac = (cs: Call[]) => cs.reduce((n, c) => n + c.cachedTokens, 0) / Math.max(1, cs.reduce((n, c) => n + c.promptTokens, 0));
  return {
    requests: calls.length,
    windows,
    firstWindowedRequest: firstJump,
    cachedFractionAll: frac(calls),
    cachedFractionFromSecondWindow: firstJump >= 0 ? frac(calls.slice(firstJump)) : null,
    requestsAfterTheFirstOfTheirWindowOver50pctCached: `${hits}/${sameWindow}`,
    promptTokens: summarize(calls.map((c) => c.promptTokens)),
    perRequest: calls.map((c) => [c.promptTokens, c.cachedTokens, c.dropped]),
    latencyMs: summarize(calls.map((c) => c.ms)),
  };
}

async function benchGrowing(url: string) {
  return cacheReport(await growing(url, 1, 200, 4));
}

async function benchConcurrent(url: string) {
  const out: Record<string, unknown> = {};
  let session = 100;
  for (const n of [1, 4, 16]) {
    const t0 = performance.now();
    const all = (await Promise.all(Array.from({ length: n }, () => growing(url, session++, 24, 4, 60)))).flat();
    out[`sessions_${n}`] = { requests: all.length, latencyMs: summarize(all.map((c) => c.ms)), requestsPerS: all.length / ((performance.now() - t0) / 1000), cachedFraction: all.reduce((a, c) => a + c.cachedTokens, 0) / all.reduce((a, c) => a + c.promptTokens, 0) };
  }
  return out;
}

async function benchTtft(standalone: string, decoder: string) {
  const out: Record<string, unknown> = {};
  let session = 1000;
  for (const target of [1024, 2048, 3500]) {
    const r: Record<string, unknown> = {};
    for (const [name, url] of [['standalone', standalone], ['decoder', decoder]] as const) {
      const ms: number[] = [];
      let tokens = 0;
      for (let rep = 0; rep < 3; rep++) {
        // A fresh session (never seen by either node) with about `target` prompt tokens.
        const lines = longSession(recordings, 4000, session++).slice(2);
        const probe = await predict(url, lines.slice(0, 40), 1);
        const n = Math.max(1, Math.floor(target / (probe.promptTokens / 40)));
        const call = await predict(url, [JSON.stringify({ type: 4, data: { href: `http://bench/${session++}`, width: 1024, height: 700 }, timestamp: 0 }), ...lines.slice(0, n)], 1);
        ms.push(call.ms);
        tokens = call.promptTokens;
      }
      r[name] = { promptTokens: tokens, ms: summarize(ms) };
    }
    out[`window_${target}`] = r;
  }
  return out;
}

async function benchStall(modelPath: string) {
  const model = await loadModel(modelPath, { threads: 1, kvCacheMb: 16 });
  const lines = longSession(recordings, 2000);
  const big: string[] = [lines[0] as string, lines[1] as string];
  let bytes = 0;
  for (let i = 2; bytes < 20_000_000; i = i + 1 >= lines.length ? 2 : i + 1) {
    big.push(lines[i] as string);
    bytes += (lines[i] as string).length + 1;
  }
  const body = Buffer.from(JSON.stringify({ prompt: big.join('\n'), max_tokens: 16 }));
  const out: Record<string, unknown> = { bodyBytes: body.byteLength, events: big.length };
  for (const offload of [false, true]) {
    const preparer = new PromptPreparer(model.tokenizer, modelPath, CTX, { offload });
    await preparer.prepare(Buffer.from(body)); // warm: worker start, tokenizer build
    const copy = Buffer.from(body); // the request's own buffer (the worker takes it over)
    // The longest gap between ticks of a 1 ms interval is the longest stall of this loop.
    let last = performance.now();
    let maxStall = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      maxStall = Math.max(maxStall, now - last);
      last = now;
    }, 1);
    await new Promise((r) => setTimeout(r, 20));
    maxStall = 0;
    const t0 = performance.now();
    const p = await preparer.prepare(copy);
    const ms = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 20)); // the tick after a stall records it
    clearInterval(tick);
    out[offload ? 'worker' : 'inline'] = { ms, maxLoopStallMs: maxStall, promptTokens: p.tokens.length, dropped: p.eventsDropped };
    await preparer.close();
  }
  model.unload();
  return out;
}

export async function runSessionsBench(only: Set<string> | null): Promise<Record<string, unknown>> {
  const modelPath = await builtinModel(CTX);
  const want = (s: string) => !only || only.has(s);
  const out: Record<string, unknown> = { model: `built-in shape (qwen2 dim 128, 4 layers, q8_0), context ${CTX}, 1 engine thread per process` };
  if (want('stall')) out.stall = await benchStall(modelPath);
  if (!want('growing') && !want('concurrent') && !want('ttft')) return out;
  const procs: SvcProcess[] = [];
  const dir = (name: string) => {
    const d = join(tmpdir(), `svc-bench-sessions-${process.pid}-${name}`);
    mkdirSync(d, { recursive: true });
    return d;
  };
  const start = async (args: string[]) => {
    const p = await startSvc(['predict', ...args, '--model', modelPath, '--threads', '1']);
    procs.push(p);
    return p;
  };
  try {
    const standalone = await start(['--role', 'standalone', '--port', '0', '--data-dir', dir('s')]);
    if (want('growing')) out.growing = await benchGrowing(standalone.url);
    if (want('concurrent')) out.concurrent = await benchConcurrent(standalone.url);
    if (want('ttft')) {
      const prefiller = await start(['--role', 'prefiller', '--port', '0', '--data-dir', dir('p')]);
      const decoder = await start(['--role', 'decoder', '--port', '0', '--prefiller', prefiller.url, '--data-dir', dir('d')]);
      out.ttft = await benchTtft(standalone.url, decoder.url);
    }
  } finally {
    await Promise.all(procs.map((p) => p.stop('SIGKILL')));
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' } } });
  const result = await runSessionsBench(values.only ? new Set(values.only.split(',')) : null);
  console.log(JSON.stringify(result, (k, v) => (k === 'perRequest' ? `${(v as unknown[]).length} rows (in --out)` : v), 2));
  if (values.out) {
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, JSON.stringify(result, null, 2) + '\n');
  }
}
