// GET /health latency of a real `svc serve` (its own process, default --threads) while 16 streams
// decode, then while a 100,000-line batch input file is uploaded (POST /v1/files) and validated
// (POST /v1/batches until it leaves `validating`). A prober on its own thread sends one /health
// every --probe-every-ms over a keep-alive socket and timestamps each answer, so every phase gets
// its own p50 / p99 / max. Each round runs the server twice, batch validation in its worker
// (the default) and on the event loop (SVC_BATCH_VALIDATE_INLINE=1), alternating which goes first.
// --validation, --engine-nice and --threads take lists: each combination is a configuration of its
// own, all of them run once per round in rotating order (labels "worker n19 t1"; a list of one
// value adds nothing to the label; --threads left out keeps the server's default).
//   node dist/bench/http/health-under-load.js [--rounds 2] [--lines 100000] [--streams 16]
//     [--validation worker,inline] [--engine-nice 0,19] [--threads 2,1] [--loop-slice 0,100]
//     [--engine-policy other,batch,idle] [--baseline-root DIR] [--own-session] [--loop-trace] [--json out.json]
// --engine-policy sets INFER_COMPUTE_POLICY for the server (the engine threads' scheduling policy:
// SCHED_OTHER, SCHED_BATCH or SCHED_IDLE; native/kernels/compute_thread.cc).
// --baseline-root runs every configuration a second time with DIR's build (a checkout of another
// commit with its dist/ built), alternating with this one; DIR,DIR,... runs each (labelled by name).
// --loop-trace preloads loop-trace-preload.js into the server and reports, per phase, the main
// thread's turns that came over 3 ms late and how much of those gaps it spent on CPU (busy) and
// runnable without a core (waiting; a gap longer than both plus the 1 ms timer means the loop was
// blocked, e.g. on a lock); the prober also reports its own wait for a core on the
// slowest probes (a slow answer may be the client's wait, not the server's).
// --loop-slice sets SVC_LOOP_SLICE_US for the server (the event loop's scheduler slice in µs, 0 =
// the kernel's default; src/engine/loop-slice.ts).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { PROBE_STRIDE, probeHealth } from './health-prober.js';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { median } from '../../src/bench/stats.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { startServe } from '../common/svc-serve.js';
import { runStream } from './sse-load-client.js';

const KEY = 'sk-health-under-load-0000';

// ---- prober thread ----
if (!isMainThread) {
  const d = workerData as { port: number; everyMs: number };
  probeHealth(d.port, d.everyMs);
}

// ---- main thread ----
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const wall = (): number => performance.timeOrigin + performance.now();

function batchFile(lines: number): Buffer {
  const parts: string[] = [];
  for (let i = 0; i < lines; i++) {
    parts.push(JSON.stringify({ custom_id: `r-${i}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'builtin', max_tokens: 8, messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: `Summarise item ${i}: the harbour lights flicker while ships return slowly.` }] } }));
  }
  return Buffer.from(parts.join('\n') + '\n');
}

interface PhaseStats {
  n: number;
  /** Probes over 5 ms, and how many of them the prober thread itself waited half of for a core. */
  over5: number;
  over5ClientWaited: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  seconds: number;
}

function stats(samples: number[], from: number, to: number): PhaseStats {
  const ms: number[] = [];
  let over5 = 0;
  let over5ClientWaited = 0;
  for (let i = 0; i < samples.length; i += PROBE_STRIDE) {
    if (samples[i]! < from || samples[i]! >= to) continue;
    const lat = samples[i + 1]!;
    ms.push(lat);
    if (lat > 5) {
      over5++;
      if (samples[i + 2]! > lat / 2) over5ClientWaited++;
    }
  }
  ms.sort((a, b) => a - b);
  const pct = (p: number): number => (ms.length ? ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)]! : NaN);
  const r = (x: number): number => Math.round(x * 100) / 100;
  return { n: ms.length, over5, over5ClientWaited, p50Ms: r(pct(50)), p99Ms: r(pct(99)), maxMs: r(ms[ms.length - 1] ?? NaN), seconds: r((to - from) / 1000) };
}

/** --own-session: the server in a session (autogroup) of its own; see startServe. */
let OWN_SESSION = false;
/** --loop-trace: the file the server's loop tracer writes, per run. */
let LOOP_TRACE = false;

interface TraceStats {
  /** Late turns (gap over 3 ms past the 1 ms timer). */
  late: number;
  /** Longest gap and what the loop did in it: CPU ms, ms runnable without a core. */
  maxGapMs: number;
  maxGapCpuMs: number;
  maxGapWaitMs: number;
  /** Summed over the late turns: CPU and wait ms. */
  cpuMs: number;
  waitMs: number;
}

function traceStats(lines: number[][], from: number, to: number): TraceStats {
  const xs = lines.filter((l) => l[0]! >= from && l[0]! < to);
  const top = xs.reduce<number[] | undefined>((a, l) => (!a || l[1]! > a[1]! ? l : a), undefined) ?? [0, 0, 0, 0];
  const r = (x: number): number => Math.round(x * 100) / 100;
  return { late: xs.length, maxGapMs: r(top[1]!), maxGapCpuMs: r(top[2]!), maxGapWaitMs: r(top[3]!), cpuMs: r(xs.reduce((a, l) => a + l[2]!, 0)), waitMs: r(xs.reduce((a, l) => a + l[3]!, 0)) };
}

interface Config {
  label: string;
  inline: boolean;
  /** Extra `svc serve` flags (--engine-nice, --threads). */
  flags: string[];
  /** Extra environment for the server (SVC_LOOP_SLICE_US). */
  env: Record<string, string>;
  /** Another build's package root (--baseline-root), or this one. */
  root?: string;
}

function rate(at: readonly number[], from: number, to: number): number {
  return Math.round(at.filter((t) => t >= from && t < to).length / ((to - from) / 1000));
}

async function startServer(model: string, inline: boolean, flags: string[], env: Record<string, string>, root?: string): Promise<{ proc: ChildProcess; port: number; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-health-load-'));
  if (LOOP_TRACE) {
    const preload = fileURLToPath(new URL('./loop-trace-preload.js', import.meta.url));
    env = { ...env, SVC_LOOP_TRACE_FILE: join(dataDir, 'loop-trace.txt'), NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${preload}` };
  }
  const args = ['--no-predict', '--data-dir', dataDir, '--api-key', KEY, '--rate-limit-rps', '0', '--log-level', 'warn', '--model', model, ...flags];
  const { proc, port } = await startServe(args, { ...process.env, SVC_BATCH_VALIDATE_INLINE: inline ? '1' : '0', ...env }, { ownSession: OWN_SESSION, ...(root ? { root } : {}) });
  return { proc, port, dataDir };
}

/** The server's late loop turns per phase (--loop-trace). */
function loopTrace(file: string, marks: Record<string, number>): Record<string, TraceStats> {
  const lines = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => l.split(' ').map(Number)) : [];
  return {
    loopIdle: traceStats(lines, marks.idle!, marks.streams!),
    loopStreams: traceStats(lines, marks.streams! + 1000, marks.upload!),
    loopUpload: traceStats(lines, marks.upload!, marks.validate!),
    loopValidation: traceStats(lines, marks.validate!, marks.end!),
  };
}

function loopShare(phase: string, from: [number, number], to: [number, number], t0: number, t1: number): Record<string, number> {
  const s = (t1 - t0) / 1000;
  const r = (x: number): number => Math.round(x * 10) / 10;
  return { [`${phase}LoopCpuMsPerS`]: r((to[0] - from[0]) / s), [`${phase}LoopWaitMsPerS`]: r((to[1] - from[1]) / s), [`${phase}LoopCpuMs`]: r(to[0] - from[0]) };
}

async function oneRun(o: { model: string; config: Config; file: Buffer; streams: number; probeEveryMs: number }): Promise<Record<string, PhaseStats | TraceStats | number>> {
  const { proc, port, dataDir } = await startServer(o.model, o.config.inline, o.config.flags, o.config.env, o.config.root);
  const url = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${KEY}` };
  const prober = new Worker(new URL(import.meta.url), { workerData: { port, everyMs: o.probeEveryMs } });
  const modelId = ((await (await fetch(`${url}/v1/models`, { headers: auth })).json()) as { data: Array<{ id: string }> }).data[0]!.id;
  // The server's main thread (the event loop): CPU ms and ms runnable without a core, read at
  // each mark; per phase the loop's CPU share, which the machine's load hardly moves.
  const loopSched = (): [number, number] => {
    try {
      const [cpu, wait] = readFileSync(`/proc/${proc.pid}/task/${proc.pid}/schedstat`, 'utf8').split(' ');
      return [Number(cpu) / 1e6, Number(wait) / 1e6];
    } catch {
      return [NaN, NaN];
    }
  };
  const sched: Record<string, [number, number]> = {};
  try {
    const marks: Record<string, number> = { idle: wall() };
    await sleep(3000);
    // 16 streams that keep decoding: each starts a new one when it ends.
    let streaming = true;
    const eventAt: number[] = []; // when each SSE event (about one per token) arrived
    const onEvent = (): void => void eventAt.push(wall());
    const streams = Array.from({ length: o.streams }, async (_, i) => {
      while (streaming) {
        await runStream({ port, apiKey: KEY, mode: 'normal', body: { model: modelId, stream: true, max_tokens: 256, messages: [{ role: 'user', content: `Tell a long story number ${i}.` }] }, onEvent });
      }
    });
    marks.streams = wall();
    await sleep(1000);
    sched.streams = loopSched();
    await sleep(4000);
    marks.upload = wall();
    sched.upload = loopSched();
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([o.file]), 'big.jsonl');
    const up = await fetch(`${url}/v1/files`, { method: 'POST', headers: auth, body: form });
    if (up.status !== 200) throw new Error(`upload: ${up.status} ${await up.text()}`);
    const fileId = ((await up.json()) as { id: string }).id;
    marks.validate = wall();
    sched.validate = loopSched();
    const created = await fetch(`${url}/v1/batches`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ input_file_id: fileId, endpoint: '/v1/chat/completions', completion_window: '24h' }) });
    const batch = (await created.json()) as { id: string; status: string };
    let status = batch.status;
    while (status === 'validating') {
      await sleep(20);
      status = ((await (await fetch(`${url}/v1/batches/${batch.id}`, { headers: auth })).json()) as { status: string }).status;
    }
    marks.end = wall();
    sched.end = loopSched();
    // Past 50,000 requests (OpenAI's limit, the default) validation ends `failed` (too_many_tasks)
    // after parsing the first 50,000 lines and splitting the rest.
    if (status !== 'in_progress' && status !== 'failed') throw new Error(`batch ended validation as ${status}`);
    await fetch(`${url}/v1/batches/${batch.id}/cancel`, { method: 'POST', headers: auth });
    streaming = false;
    const samples = await new Promise<number[]>((r) => {
      prober.once('message', r);
      prober.postMessage('collect');
    });
    await Promise.race([Promise.all(streams), sleep(30_000)]);
    return {
      validatedAs: status === 'failed' ? 0 : 1,
      // Stream events per second (about the engine's tokens/s) in the streams phase alone and from
      // then to the end of validation.
      streamEventsPerS: rate(eventAt, marks.streams! + 1000, marks.upload!),
      loadedEventsPerS: rate(eventAt, marks.upload!, marks.end!),
      idle: stats(samples, marks.idle!, marks.streams!),
      streams: stats(samples, marks.streams! + 1000, marks.upload!),
      upload: stats(samples, marks.upload!, marks.validate!),
      validation: stats(samples, marks.validate!, marks.end!),
      // The loop's CPU share (ms per s) and its wait for a core (ms per s) in each loaded phase.
      ...loopShare('streams', sched.streams!, sched.upload!, marks.streams! + 1000, marks.upload!),
      ...loopShare('upload', sched.upload!, sched.validate!, marks.upload!, marks.validate!),
      ...loopShare('validation', sched.validate!, sched.end!, marks.validate!, marks.end!),
      ...(LOOP_TRACE ? loopTrace(join(dataDir, 'loop-trace.txt'), marks) : {}),
    };
  } finally {
    await prober.terminate();
    proc.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '2' },
      lines: { type: 'string', default: '100000' },
      streams: { type: 'string', default: '16' },
      'probe-every-ms': { type: 'string', default: '2' },
      validation: { type: 'string', default: 'worker,inline' },
      'own-session': { type: 'boolean', default: false },
      'loop-trace': { type: 'boolean', default: false },
      'engine-nice': { type: 'string' },
      threads: { type: 'string' },
      'loop-slice': { type: 'string' },
      'engine-policy': { type: 'string' },
      'baseline-root': { type: 'string' },
      model: { type: 'string' },
      json: { type: 'string' },
    },
  });
  OWN_SESSION = values['own-session'];
  LOOP_TRACE = values['loop-trace'];
  const list = (v: string | undefined): Array<string | undefined> => (v === undefined ? [undefined] : v.split(','));
  const configs: Config[] = [];
  for (const validation of list(values.validation)) {
    for (const nice of list(values['engine-nice'])) {
      for (const threads of list(values.threads)) {
        for (const slice of list(values['loop-slice'])) {
          for (const policy of list(values['engine-policy'])) {
            const label = [validation, ...(list(values['engine-nice']).length > 1 ? [`n${nice}`] : []), ...(list(values.threads).length > 1 ? [`t${threads}`] : []), ...(list(values['loop-slice']).length > 1 ? [`s${slice}`] : []), ...(list(values['engine-policy']).length > 1 ? [`p-${policy}`] : [])].join(' ');
            const flags = [...(nice !== undefined ? ['--engine-nice', nice] : []), ...(threads !== undefined ? ['--threads', threads] : [])];
            const env: Record<string, string> = {};
            if (slice !== undefined) env.SVC_LOOP_SLICE_US = slice;
            if (policy !== undefined) env.INFER_COMPUTE_POLICY = policy;
            configs.push({ label, inline: validation === 'inline', flags, env });
          }
        }
      }
    }
  }
  // --baseline-root DIR: the same configurations served by another build (labelled "base ...").
  // A list (DIR,DIR,...) runs each build; several are labelled by their directory's name.
  const roots = values['baseline-root'] ? values['baseline-root'].split(',').map((d) => resolve(d)) : [];
  const own = [...configs];
  for (const root of roots) {
    const tag = roots.length > 1 ? basename(root) : 'base';
    for (const c of own) configs.push({ ...c, label: `${tag} ${c.label}`, root });
  }
  const file = batchFile(Number(values.lines));
  const model = values.model ? resolve(values.model) : await ensureBuiltinModel(join(tmpdir(), 'svc-bench-models'));
  console.error(`batch file: ${values.lines} lines, ${(file.length / 2 ** 20).toFixed(1)} MiB`);
  const runs: Record<string, Array<Record<string, PhaseStats | TraceStats | number>>> = Object.fromEntries(configs.map((c) => [c.label, []]));
  for (let r = 0; r < Number(values.rounds); r++) {
    for (let i = 0; i < configs.length; i++) {
      const config = configs[(i + r) % configs.length]!;
      const res = await oneRun({ model, config, file, streams: Number(values.streams), probeEveryMs: Number(values['probe-every-ms']) });
      runs[config.label]!.push(res);
      console.error(`round ${r + 1} ${config.label} (load ${loadavg()[0]!.toFixed(1)}): ${JSON.stringify(res)}`);
    }
  }
  console.log('| configuration | phase | /health p50 ms | p99 ms | max ms | phase s | stream events/s |');
  console.log('|---|---|---|---|---|---|---|');
  for (const kind of configs.map((c) => c.label)) {
    for (const phase of ['idle', 'streams', 'upload', 'validation']) {
      const xs = runs[kind]!.map((x) => x[phase] as PhaseStats);
      console.log(`| ${kind} | ${phase} | ${median(xs.map((x) => x.p50Ms)).toFixed(2)} | ${median(xs.map((x) => x.p99Ms)).toFixed(2)} | ${median(xs.map((x) => x.maxMs)).toFixed(2)} | ${median(xs.map((x) => x.seconds)).toFixed(1)} | ${phase === 'streams' ? median(runs[kind]!.map((x) => x.streamEventsPerS as number)) : phase === 'upload' ? `${median(runs[kind]!.map((x) => x.loadedEventsPerS as number))} (upload + validation)` : ''} |`);
    }
  }
  console.log('\nServer event loop (main thread, /proc schedstat): CPU ms per second of the phase, ms per second runnable without a core, CPU ms in the phase (medians over rounds)');
  console.log('| configuration | phase | loop CPU ms/s | loop wait ms/s | loop CPU ms |');
  console.log('|---|---|---|---|---|');
  for (const kind of configs.map((c) => c.label)) {
    for (const phase of ['streams', 'upload', 'validation']) {
      const m = (k: string): string => String(median(runs[kind]!.map((x) => x[`${phase}${k}`] as number)));
      console.log(`| ${kind} | ${phase} | ${m('LoopCpuMsPerS')} | ${m('LoopWaitMsPerS')} | ${m('LoopCpuMs')} |`);
    }
  }
  if (LOOP_TRACE) {
    console.log('\nServer event loop, turns over 3 ms late (medians over rounds): the longest gap, and the loop\'s CPU and wait for a core in it');
    console.log('| configuration | phase | /health probes > 5 ms | of them the prober waited for a core | late turns | longest gap ms | its CPU ms | its wait ms | late turns: CPU ms | wait ms |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const kind of configs.map((c) => c.label)) {
      for (const phase of ['idle', 'streams', 'upload', 'validation']) {
        const ps = runs[kind]!.map((x) => x[phase] as PhaseStats);
        const ts = runs[kind]!.map((x) => x[`loop${phase[0]!.toUpperCase()}${phase.slice(1)}`] as TraceStats);
        const m = (f: (t: TraceStats) => number): string => String(median(ts.map(f)));
        console.log(`| ${kind} | ${phase} | ${median(ps.map((p) => p.over5))} | ${median(ps.map((p) => p.over5ClientWaited))} | ${m((t) => t.late)} | ${m((t) => t.maxGapMs)} | ${m((t) => t.maxGapCpuMs)} | ${m((t) => t.maxGapWaitMs)} | ${m((t) => t.cpuMs)} | ${m((t) => t.waitMs)} |`);
      }
    }
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(runs, null, 2));
  process.exit(0);
}

if (isMainThread) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
