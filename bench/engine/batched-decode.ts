// Batched decode against the prefill rate: aggregate decode tokens/s of N concurrent greedy
// streams in steady state (every stream decoding), beside the same engine's prefill rate, on the
// same cores and in the same run. Optionally several addon builds (before / after a change),
// each in its own child process, alternating rep by rep so that they share the machine's load.
//
//   node dist/bench/engine/batched-decode.js --model PATH [--threads 2] [--streams 1,4,16,64]
//        [--tokens 64] [--reps 3] [--addons before.node,after.node] [--json out.json]
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

function randomTokens(n: number, seed: number, vocab: number): Uint32Array {
  const out = new Uint32Array(n);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out[i] = 200 + (x % Math.min(vocab - 300, 100000));
  }
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};

interface OneRun {
  prefillTokS: number;
  /** streams -> steady-state aggregate decode tokens/s */
  decodeTokS: Record<string, number>;
}

async function prefillRate(m: EngineModel, seed: number): Promise<number> {
  const p = randomTokens(512, seed, m.info.vocabSize);
  const t0 = performance.now();
  let t1 = 0;
  await m.generate({ prompt: p, maxTokens: 1, sampling: GREEDY, stopTokens: [] }, () => {
    t1 = performance.now();
  });
  return (512 * 1000) / (t1 - t0);
}

async function steadyDecode(m: EngineModel, streams: number, tokens: number, seed: number): Promise<number> {
  const times: number[][] = Array.from({ length: streams }, () => []);
  await Promise.all(
    times.map((ts, i) =>
      m.generate({ prompt: randomTokens(16, seed * 1000 + i, m.info.vocabSize), maxTokens: tokens, sampling: GREEDY, stopTokens: [] }, () => {
        ts.push(performance.now());
      }),
    ),
  );
  const from = Math.max(...times.map((ts) => ts[0]!));
  const to = Math.min(...times.map((ts) => ts.at(-1)!));
  let n = 0;
  for (const ts of times) for (const t of ts) if (t > from && t <= to) n++;
  return to > from ? (n * 1000) / (to - from) : NaN;
}

async function runOnce(model: string, threads: number, streams: number[], tokens: number, seed: number): Promise<OneRun> {
  const { loadModel } = await import('../../src/engine/index.js');
  const m = await loadModel(model, { threads, kvCacheMb: 1024, maxBatchTokens: 512, maxSequences: Math.max(64, ...streams) });
  try {
    await m.generate({ prompt: randomTokens(32, 1, m.info.vocabSize), maxTokens: 4, sampling: GREEDY, stopTokens: [] }, () => {}); // page in
    const out: OneRun = { prefillTokS: await prefillRate(m, seed), decodeTokS: {} };
    for (const c of streams) out.decodeTokS[c] = await steadyDecode(m, c, tokens, seed + c);
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

const addons = values.addons ? values.addons.split(',') : [''];
const reps = Number(values.reps);
const runs: Record<string, OneRun[]> = Object.fromEntries(addons.map((a) => [a || 'current', []]));
const load0 = loadavg()[0]!;
for (let r = 0; r < reps; r++) {
  for (const addon of addons) {
    const res = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--child', '--model', values.model, '--threads', String(threads), '--streams', values.streams!, '--tokens', String(tokens), '--seed', String(7 + r)],
      { env: { ...process.env, ...(addon ? { SVC_ADDON_PATH: addon } : {}) }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (res.status !== 0) throw new Error(`child for ${addon || 'current'} failed (${res.status})`);
    const one = JSON.parse(res.stdout.trim().split('\n').at(-1)!) as OneRun;
    runs[addon || 'current']!.push(one);
    const row = streams.map((c) => `${c}: ${one.decodeTokS[c]!.toFixed(1)}`).join(', ');
    console.error(`rep ${r + 1}/${reps} ${addon || 'current'}: prefill ${one.prefillTokS.toFixed(1)} tok/s; decode ${row}`);
  }
}
const load1 = loadavg()[0]!;
console.log(`model ${values.model}, ${threads} threads, ${tokens} tokens per stream, ${reps} reps; load average ${load0.toFixed(2)} -> ${load1.toFixed(2)} (shared machine: numbers are noisy)`);
const summary: Record<string, unknown> = {};
for (const [label, rs] of Object.entries(runs)) {
  const prefill = median(rs.map((x) => x.prefillTokS));
  const dec = Object.fromEntries(streams.map((c) => [c, median(rs.map((x) => x.decodeTokS[c]!))]));
  summary[label] = { prefillTokS: prefill, decodeTokS: dec, runs: rs };
  console.log(`\n${label}: prefill 512 ${prefill.toFixed(1)} tok/s`);
  console.log('| streams | aggregate decode tok/s | x one stream | / prefill rate |');
  console.log('|---:|---:|---:|---:|');
  for (const c of streams)
    console.log(`| ${c} | ${dec[c]!.toFixed(1)} | ${(dec[c]! / dec[streams[0]!]!).toFixed(2)} | ${(dec[c]! / prefill).toFixed(2)} |`);
}
if (values.json) writeFileSync(values.json, JSON.stringify({ model: values.model, threads, tokens, reps, load: [load0, load1], summary }, null, 2));
