// Engine benchmark: prefill and decode tokens/s, aggregate decode at several concurrencies, and
// time to first token for a 2048-token prompt cold vs with 1900 tokens cached; optionally
// llama.cpp (node-llama-cpp) side by side on the same GGUF and thread count.
//
//   node dist/bench/engine/engine-bench.js --model /path/small-q8_0.gguf [--threads 2] [--reps 3]
//        [--concurrency 1,4,16,64] [--agg-tokens 32] [--ttft-reps N] [--peer] [--json out.json]
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { GREEDY_SAMPLING as GREEDY } from '../../src/engine/sampling.js';
import { middleSample, randomTokens } from '../common/engine-inputs.js';

interface Timing {
  ttftMs: number;
  decodeTokS: number;
  tokens: number;
  cachedTokens: number;
}

async function timedGenerate(m: EngineModel, prompt: Uint32Array, maxTokens: number): Promise<Timing> {
  const t0 = performance.now();
  let tFirst = 0;
  let n = 0;
  const r = await m.generate({ prompt, maxTokens, sampling: GREEDY, stopTokens: [] }, () => {
    if (n++ === 0) tFirst = performance.now();
  });
  const tEnd = performance.now();
  return {
    ttftMs: tFirst - t0,
    decodeTokS: n > 1 ? ((n - 1) * 1000) / (tEnd - tFirst) : NaN,
    tokens: n,
    cachedTokens: r.cachedTokens,
  };
}

async function aggregate(m: EngineModel, conc: number, maxTokens: number, seed: number): Promise<number> {
  const prompts = Array.from({ length: conc }, (_, i) => randomTokens(32, seed * 1000 + i, m.info.vocabSize));
  const t0 = performance.now();
  const res = await Promise.all(prompts.map((p) => m.generate({ prompt: p, maxTokens, sampling: GREEDY, stopTokens: [] }, () => {})));
  const total = res.reduce((a, r) => a + r.completionTokens, 0);
  return (total * 1000) / (performance.now() - t0);
}

/* llama.cpp through node-llama-cpp, installed in its own folder (tools/llamacpp); typed structurally. */
interface Peer {
  prefill(tokens: Uint32Array): Promise<number>;
  decode(prompt: Uint32Array, n: number): Promise<number>;
  dispose(): Promise<void>;
}

async function openPeer(path: string, threads: number): Promise<Peer> {
  const mod = (await import(pathToFileURL(join(PACKAGE_ROOT, 'tools/llamacpp/node_modules/node-llama-cpp/dist/index.js')).href)) as {
    getLlama(o: object): Promise<any>;
  };
  const llama = await mod.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath: path });
  const ctx = await model.createContext({ contextSize: 4096, threads, batchSize: 512 });
  const seq = ctx.getSequence();
  // controlledEvaluate with generateNext.token: llama.cpp's own greedy pick, no JS-side sampling.
  const next = { generateNext: { token: true } };
  const run = async (input: Array<number | [number, unknown]>): Promise<number> => {
    const res = (await seq.controlledEvaluate(input)) as Array<{ next?: { token?: number } } | undefined>;
    return res[input.length - 1]?.next?.token ?? 0;
  };
  return {
    async prefill(tokens) {
      await seq.clearHistory();
      const t0 = performance.now();
      await run([...Array.from(tokens.subarray(0, -1)), [tokens[tokens.length - 1]!, next]]);
      return (tokens.length * 1000) / (performance.now() - t0);
    },
    async decode(prompt, n) {
      await seq.clearHistory();
      let tok = await run([...Array.from(prompt.subarray(0, -1)), [prompt[prompt.length - 1]!, next]]);
      const t0 = performance.now();
      for (let i = 1; i < n; i++) tok = await run([[tok, next]]);
      return ((n - 1) * 1000) / (performance.now() - t0);
    },
    async dispose() {
      await ctx.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      model: { type: 'string' },
      threads: { type: 'string', default: '2' },
      reps: { type: 'string', default: '3' },
      concurrency: { type: 'string', default: '1,4,16,64' },
      'agg-tokens': { type: 'string', default: '32' },
      'ttft-reps': { type: 'string' },
      peer: { type: 'boolean', default: false },
      json: { type: 'string' },
    },
  });
  if (!values.model) throw new Error('--model PATH is required (e.g. svc model make --preset small)');
  const threads = Number(values.threads);
  const reps = Number(values.reps);
  const m = await loadModel(values.model, { threads, kvCacheMb: 1024, maxBatchTokens: 512, maxSequences: 64 });
  const V = m.info.vocabSize;
  const out: Record<string, unknown> = { model: values.model, threads, reps };
  // The 1-minute load average around the side-by-side reps: on a shared machine llama.cpp's
  // spinning workers lose far more than the engine under load, so a ratio needs its load beside it.
  const load1 = () => loadavg()[0]!;
  out.loadStart = load1();

  await timedGenerate(m, randomTokens(32, 1, V), 4); // warm-up (page in the weights)
  // Engine and llama.cpp alternate rep by rep, so both see the same machine load.
  const peer = values.peer ? await openPeer(values.model, threads) : null;
  if (peer) await peer.decode(randomTokens(32, 1, V), 4);
  const prefill: number[] = [];
  const decode: number[] = [];
  const peerPrefill: number[] = [];
  const peerDecode: number[] = [];
  for (let r = 0; r < reps; r++) {
    const p512 = randomTokens(512, 100 + r, V);
    prefill.push((512 * 1000) / (await timedGenerate(m, p512, 1)).ttftMs);
    if (peer) peerPrefill.push(await peer.prefill(p512));
    const p21 = randomTokens(21, 200 + r, V);
    decode.push((await timedGenerate(m, p21, 128)).decodeTokS);
    if (peer) peerDecode.push(await peer.decode(p21, 128));
    console.error(
      `rep ${r + 1}/${reps}: engine prefill ${prefill.at(-1)!.toFixed(1)} decode ${decode.at(-1)!.toFixed(1)} tok/s` +
        (peer ? `; llama.cpp prefill ${peerPrefill.at(-1)!.toFixed(1)} decode ${peerDecode.at(-1)!.toFixed(1)} tok/s` : ''),
    );
  }
  await peer?.dispose();
  out.loadEnd = load1();
  console.log(`load average (1 min) before / after the reps: ${(out.loadStart as number).toFixed(2)} / ${(out.loadEnd as number).toFixed(2)}`);
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
  out.prefillTokS = middleSample(prefill);
  out.decodeTokS = middleSample(decode);
  console.log(`engine:    prefill 512 ${middleSample(prefill).toFixed(1)} tok/s (runs ${fmt(prefill)})`);
  console.log(`engine:    decode 128  ${middleSample(decode).toFixed(1)} tok/s (runs ${fmt(decode)})`);
  if (peer) {
    out.llamacpp = { prefillTokS: middleSample(peerPrefill), decodeTokS: middleSample(peerDecode) };
    console.log(`llama.cpp: prefill 512 ${middleSample(peerPrefill).toFixed(1)} tok/s (runs ${fmt(peerPrefill)})`);
    console.log(`llama.cpp: decode 128  ${middleSample(peerDecode).toFixed(1)} tok/s (runs ${fmt(peerDecode)})`);
    console.log(`ratio engine/llama.cpp: prefill ${(middleSample(prefill) / middleSample(peerPrefill)).toFixed(2)}x, decode ${(middleSample(decode) / middleSample(peerDecode)).toFixed(2)}x`);
  }

  const agg: Record<string, number> = {};
  for (const c of values.concurrency!.split(',').filter(Boolean).map(Number)) {
    agg[c] = await aggregate(m, c, Number(values['agg-tokens']), c);
    console.log(`engine: aggregate decode, ${c} concurrent x ${values['agg-tokens']} tokens: ${agg[c]!.toFixed(1)} tok/s`);
  }
  out.aggregateTokS = agg;

  const cold: number[] = [];
  const warm: number[] = [];
  const ttftReps = values['ttft-reps'] === undefined ? reps : Number(values['ttft-reps']);
  for (let r = 0; r < ttftReps; r++) {
    const base = randomTokens(2048, 500 + r, V);
    const c = await timedGenerate(m, base, 1);
    const again = Uint32Array.from([...base.subarray(0, 1900), ...randomTokens(148, 600 + r, V)]);
    const w = await timedGenerate(m, again, 1);
    cold.push(c.ttftMs);
    warm.push(w.ttftMs);
    out.cachedTokensWarm = w.cachedTokens;
  }
  out.ttftColdMs = middleSample(cold);
  out.ttftCachedMs = middleSample(warm);
  if (ttftReps > 0) console.log(
    `engine: TTFT 2048-token prompt cold ${middleSample(cold).toFixed(0)} ms, with 1900 shared (${String(out.cachedTokensWarm)} cached) ${middleSample(warm).toFixed(0)} ms (ratio ${(middleSample(warm) / middleSample(cold)).toFixed(3)})`,
  );
  m.unload();

  if (values.json) writeFileSync(values.json, JSON.stringify(out, null, 2));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
