// Batched decode against the prefill rate: aggregate decode tokens/s of N concurrent greedy
// streams in steady state (every stream decoding), beside the same engine's prefill rate, on the
// same cores and in the same run. Optionally several addon builds (before / after a change),
// each in its own child process, alternating rep by rep so that they share the machine's load.
//
//   node dist/bench/engine/batched-decode.js --model PATH [--threads 2] [--streams 1,4,16,64]
//        [--tokens 64] [--reps 3] [--addons before.node,after.node] [--profile] [--json out.json]
//
// --profile: the children run with INFER_STEP_PROFILE=1 and INFER_FORWARD_PROFILE=all, and the
// per-step breakdown (plan / forward / sample / emit / between steps) and the forward pass's
// stages per token are printed per pass size, averaged over every pass of that size.
//
// Steady state: the window from the moment the last stream got its first token to the moment
// the first stream got its last one; tokens any stream received inside it, over its length.
// The prompts are short (16 tokens) so the window holds almost all of each stream's tokens.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { EngineModel } from '../../src/engine/index.js';
import { GREEDY_SAMPLING as GREEDY } from '../../src/engine/sampling.js';
import { middleSample, randomTokens } from '../common/engine-inputs.js';

interface OneRun {
  prefillTokS: number;
  /** streams -> steady-state aggregate decode tokens/s */
  decodeTokS: Record<string, number>;
  /** CPU time of the whole process (engine threads, event loop) per token: less sensitive to
   *  other processes on a shared machine than wall time. Decode: over the whole run of the N
   *  streams (their 16-token prompts included), per generated token. */
  prefillCpuMsPerTok: number;
  decodeCpuMsPerTok: Record<string, number>;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function prefillRate(m: EngineModel, seed: number): Promise<[number, number]> {
  const p = randomTokens(512, seed, m.info.vocabSize);
  const c0 = cpuMs();
  const t0 = performance.now();
  let t1 = 0;
  await m.generate({ prompt: p, maxTokens: 1, sampling: GREEDY, stopTokens: [] }, () => {
    t1 = performance.now();
  });
  return [(512 * 1000) / (t1 - t0), (cpuMs() - c0) / 512];
}

async function steadyDecode(m: EngineModel, streams: number, tokens: number, seed: number): Promise<[number, number]> {
  const times: number[][] = Array.from({ length: streams }, () => []);
  const c0 = cpuMs();
  await Promise.all(
    times.map((ts, i) =>
      m.generate({ prompt: randomTokens(16, seed * 1000 + i, m.info.vocabSize), maxTokens: tokens, sampling: GREEDY, stopTokens: [] }, () => {
        ts.push(performance.now());
      }),
    ),
  );
  const cpuPerTok = (cpuMs() - c0) / times.reduce((a, ts) => a + ts.length, 0);
  const from = Math.max(...times.map((ts) => ts[0]!));
  const to = Math.min(...times.map((ts) => ts.at(-1)!));
  let n = 0;
  for (const ts of times) for (const t of ts) if (t > from && t <= to) n++;
  return [to > from ? (n * 1000) / (to - from) : NaN, cpuPerTok];
}

async function runOnce(model: string, threads: number, streams: number[], tokens: number, seed: number): Promise<OneRun> {
  const { loadModel } = await import('../../src/engine/index.js');
  const m = await loadModel(model, { threads, kvCacheMb: 1024, maxBatchTokens: 512, maxSequences: Math.max(64, ...streams) });
  try {
    await m.generate({ prompt: randomTokens(32, 1, m.info.vocabSize), maxTokens: 4, sampling: GREEDY, stopTokens: [] }, () => {}); // page in
    const [prefillTokS, prefillCpuMsPerTok] = await prefillRate(m, seed);
    const out: OneRun = { prefillTokS, prefillCpuMsPerTok, decodeTokS: {}, decodeCpuMsPerTok: {} };
    for (const c of streams) [out.decodeTokS[c], out.decodeCpuMsPerTok[c]] = await steadyDecode(m, c, tokens, seed + c);
    return out;
  } finally {
    m.unload();
  }
}

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    threads: { type: 'string', default: '2' },
    streams: { type: 'string', default: '1,4,16,64' },
    tokens: { type: 'string', default: '64' },
    reps: { type: 'string', default: '3' },
    addons: { type: 'string' },
    json: { type: 'string' },
    child: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    seed: { type: 'string', default: '7' },
  },
});
if (!values.model) throw new Error('--model PATH is required');
const threads = Number(values.threads);
const streams = values.streams!.split(',').filter(Boolean).map(Number);
const tokens = Number(values.tokens);

if (values.child) {
  // One measurement in this process (the addon is SVC_ADDON_PATH's): JSON on stdout.
  const r = await runOnce(values.model, threads, streams, tokens, Number(values.seed));
  process.stdout.write(JSON.stringify(r) + '\n');
  process.exit(0);
}

/** Per pass size: summed step phases (ms) and forward stages (ms), and the number of passes. */
type Sums = Map<number, { n: number; step: Map<string, number>; stages: Map<string, number> }>;

function addProfile(stderr: string, into: Sums): void {
  const slot = (rows: number) => {
    let e = into.get(rows);
    if (!e) into.set(rows, (e = { n: 0, step: new Map(), stages: new Map() }));
    return e;
  };
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (const line of stderr.split('\n')) {
    const st = /^step rows (\d+) decode (\d+) seqs \d+: total ([\d.]+) ms; (.*)$/.exec(line);
    if (st) {
      const e = slot(Number(st[1]));
      e.n++;
      add(e.step, 'total', Number(st[3]));
      for (const [, k, v] of st[4]!.matchAll(/([a-z ]+) ([\d.]+)/g)) add(e.step, k!.trim(), Number(v));
      continue;
    }
    const fw = /^forward (\d+) tokens: ([\d.]+) ms \([^)]*\); (.*)$/.exec(line);
    if (fw) {
      const e = slot(Number(fw[1]));
      add(e.stages, 'total', Number(fw[2]));
      add(e.stages, 'passes', 1);
      for (const [, k, v] of fw[3]!.matchAll(/([a-z+]+) ([\d.]+) ms/g)) add(e.stages, k!, Number(v));
    }
  }
}

function printProfile(label: string, sums: Sums): void {
  console.log(`\n${label}: where a step's time goes (ms per step, averaged over the steps of each size)`);
  console.log('| rows | steps | total | plan | forward | sample | emit | between steps |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
  const rows = [...sums.entries()].filter(([, e]) => e.n > 0).sort((a, b) => b[1].n - a[1].n).slice(0, 6).sort((a, b) => a[0] - b[0]);
  for (const [r, e] of rows) {
    const f = (k: string) => ((e.step.get(k) ?? 0) / e.n).toFixed(2);
    console.log(`| ${r} | ${e.n} | ${f('total')} | ${f('plan')} | ${f('forward')} | ${f('sample')} | ${f('emit')} | ${f('between steps')} |`);
  }
  const stageNames = ['qkv', 'bias+rope+kv', 'attention', 'wo', 'gate+up', 'swiglu', 'down', 'head'];
  console.log(`\n${label}: forward stages, ms per token of the pass`);
  console.log(`| rows | passes | total | ${stageNames.join(' | ')} |`);
  console.log(`|${'---:|'.repeat(stageNames.length + 3)}`);
  const passes = [...sums.entries()].filter(([, e]) => (e.stages.get('passes') ?? 0) > 0).sort((a, b) => a[0] - b[0]);
  for (const [r, e] of passes) {
    const np = e.stages.get('passes')!;
    const f = (k: string) => ((e.stages.get(k) ?? 0) / np / r).toFixed(2);
    console.log(`| ${r} | ${np} | ${f('total')} | ${stageNames.map(f).join(' | ')} |`);
  }
}

const addons = values.addons ? values.addons.split(',') : [''];
const profiles = new Map<string, Sums>(addons.map((a) => [a || 'current', new Map()]));
const reps = Number(values.reps);
const runs: Record<string, OneRun[]> = Object.fromEntries(addons.map((a) => [a || 'current', []]));
const load0 = loadavg()[0]!;
for (let r = 0; r < reps; r++) {
  for (const addon of addons) {
    const res = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--child', '--model', values.model, '--threads', String(threads), '--streams', values.streams!, '--tokens', String(tokens), '--seed', String(7 + r)],
      {
        env: { ...process.env, ...(addon ? { SVC_ADDON_PATH: addon } : {}), ...(values.profile ? { INFER_STEP_PROFILE: '1', INFER_FORWARD_PROFILE: 'all' } : {}) },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', values.profile ? 'pipe' : 'inherit'],
        maxBuffer: 1 << 30,
      },
    );
    if (res.status !== 0) throw new Error(`child for ${addon || 'current'} failed (${res.status}): ${res.stderr?.slice(-2000) ?? ''}`);
    if (values.profile) addProfile(res.stderr, profiles.get(addon || 'current')!);
    const one = JSON.parse(res.stdout.trim().split('\n').at(-1)!) as OneRun;
    runs[addon || 'current']!.push(one);
    const row = streams.map((c) => `${c}: ${one.decodeTokS[c]!.toFixed(1)} (${one.decodeCpuMsPerTok[c]!.toFixed(1)} CPU-ms/tok)`).join(', ');
    console.error(`rep ${r + 1}/${reps} ${addon || 'current'}: prefill ${one.prefillTokS.toFixed(1)} tok/s (${one.prefillCpuMsPerTok.toFixed(2)} CPU-ms/tok); decode ${row}`);
  }
}
const load1 = loadavg()[0]!;
console.log(`model ${values.model}, ${threads} threads, ${tokens} tokens per stream, ${reps} reps; load average ${load0.toFixed(2)} -> ${load1.toFixed(2)} (shared machine: numbers are noisy)`);
const summary: Record<string, unknown> = {};
for (const [label, rs] of Object.entries(runs)) {
  const prefill = middleSample(rs.map((x) => x.prefillTokS));
  const prefillCpu = middleSample(rs.map((x) => x.prefillCpuMsPerTok));
  const dec = Object.fromEntries(streams.map((c) => [c, middleSample(rs.map((x) => x.decodeTokS[c]!))]));
  const decCpu = Object.fromEntries(streams.map((c) => [c, middleSample(rs.map((x) => x.decodeCpuMsPerTok[c]!))]));
  summary[label] = { prefillTokS: prefill, prefillCpuMsPerTok: prefillCpu, decodeTokS: dec, decodeCpuMsPerTok: decCpu, runs: rs };
  console.log(`\n${label}: prefill 512 ${prefill.toFixed(1)} tok/s, ${prefillCpu.toFixed(2)} CPU-ms/token`);
  console.log(`| streams | aggregate decode tok/s | x first row | / prefill rate | CPU-ms per generated token |`);
  console.log('|---:|---:|---:|---:|---:|');
  for (const c of streams)
    console.log(`| ${c} | ${dec[c]!.toFixed(1)} | ${(dec[c]! / dec[streams[0]!]!).toFixed(2)} | ${(dec[c]! / prefill).toFixed(2)} | ${decCpu[c]!.toFixed(2)} |`);
}
if (values.profile) for (const [label, sums] of profiles) printProfile(label, sums);
if (values.json) writeFileSync(values.json, JSON.stringify({ model: values.model, threads, tokens, reps, load: [load0, load1], summary }, null, 2));
