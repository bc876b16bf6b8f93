// Inter-token gaps of a decoding sequence while the same engine exports a long prompt's KV
// (src/predict/kv-export.ts), fixed 32-token chunks vs chunks paced by the engine's step time,
// side by side: each round runs both variants (and one-call export with --one-call) on one
// engine, one thread. Per variant: the stream's normal gap p50 (its last 150 gaps before the
// export starts), its gap p50/p99/max during the export, the export's time and the chunk sizes.
//   node dist/bench/predict/export-gap-bench.js [--tokens 4000] [--rounds 3] [--one-call] [--out F]
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { eosBan, GREEDY_SAMPLING } from '../../src/engine/sampling.js';
import { summarize } from '../../src/bench/stats.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { enginePacing, exportKvInChunks } from '../../src/predict/kv-export.js';
import { builtinModel } from './bench-model.js';
import { longSession } from './sessions.js';

const CTX = 4096;
const NORMAL_GAPS = 150;

const recordings = readdirSync(join(PACKAGE_ROOT, 'test/fixtures/rrweb'))
  .filter((f) => f.endsWith('.ndjson'))
  .map((f) => readFileSync(join(PACKAGE_ROOT, 'test/fixtures/rrweb', f), 'utf8').trim().split('\n'));

type Variant = 'fixed32' | 'adaptive' | 'oneCall';

interface Run {
  normalGaps: number[];
  exportGaps: number[];
  exportMs: number;
  chunkTokens: number[];
  chunkMs: number[];
  stepMs: number;
}

/** One decoding stream; once it has NORMAL_GAPS + 20 tokens, the export of `tokens` runs beside it. */
async function run(model: EngineModel, stream: Uint32Array, tokens: Uint32Array, variant: Variant): Promise<Run> {
  const stamps: number[] = [];
  const ac = new AbortController();
  let warm!: () => void;
  const warmed = new Promise<void>((r) => (warm = r));
  const gen = model.generate({ prompt: stream, maxTokens: CTX - stream.length - 1, signal: ac.signal, sampling: { ...GREEDY_SAMPLING, logitBias: eosBan(model.info) } }, () => {
    stamps.push(performance.now());
    if (stamps.length === NORMAL_GAPS + 20) warm();
  });
  let ended = false;
  void gen.finally(() => (ended = true));
  await warmed;
  const kv = model.kv!;
  const bs = kv.layout().blockTokens;
  // Tokens computed per engine job (and, paced, the job's compute ms).
  const chunkTokens: number[] = [];
  const chunkMs: number[] = [];
  const onBlocks = async (blocks: unknown[]) => void chunkTokens.push(blocks.length * bs);
  const t0 = performance.now();
  const before = stamps.length;
  if (variant === 'oneCall') chunkTokens.push((await kv.exportKv(tokens, 0)).length * bs);
  else if (variant === 'fixed32') await exportKvInChunks(kv, tokens, 0, { prefixCache: true, chunkTokens: 32 }, onBlocks);
  else await exportKvInChunks(kv, tokens, 0, { prefixCache: true, pacing: enginePacing(model), onChunkCost: (c) => void (chunkTokens.push(c.tokens), chunkMs.push(c.ms)) }, async () => {});
  const exportMs = performance.now() - t0;
  const after = stamps.length;
  while (stamps.length <= after && !ended) await new Promise((r) => setTimeout(r, 5));
  ac.abort();
  await gen;
  // gaps(a, b): the gaps ending at tokens a..b-1. During the export: every token that arrived while
  // it ran, and the first one after it (which waited for its last chunk).
  const gaps = (from: number, to: number) => stamps.slice(from, to).map((t, i) => t - (stamps[from - 1 + i] as number));
  return { normalGaps: gaps(before - NORMAL_GAPS, before), exportGaps: gaps(before, after + 1), exportMs, chunkTokens, chunkMs, stepMs: model.stats().recentStepMs ?? 0 };
}

export async function runExportGapBench(exportTokens = 4000, rounds = 3, oneCall = false): Promise<Record<string, unknown>> {
  const model = await loadModel(await builtinModel(CTX), { threads: 1, kvCacheMb: 256 });
  const session = await model.tokenize(longSession(recordings, 1200).slice(2).join('\n'), { addSpecial: false });
  if (session.length < exportTokens + 200) throw new Error(`session has ${session.length} tokens`);
  const variants: Variant[] = oneCall ? ['fixed32', 'adaptive', 'oneCall'] : ['fixed32', 'adaptive'];
  const runs: Record<string, Run[]> = Object.fromEntries(variants.map((v) => [v, []]));
  let shift = 0;
  for (let r = 0; r < rounds; r++) {
    for (const v of r % 2 === 0 ? variants : [...variants].reverse()) {
      // A prompt the engine has not computed (shifted each run), and a stream prompt it has not either.
      shift += 3;
      const tokens = session.slice(shift, shift + exportTokens);
      const stream = session.slice(session.length - 32 - shift, session.length - shift);
      runs[v]!.push(await run(model, stream, tokens, v));
    }
  }
  model.unload();
  const out: Record<string, unknown> = { model: `built-in shape (qwen2 dim 128, 4 layers, q8_0), context ${CTX}, 1 engine thread`, exportTokens, rounds };
  for (const v of variants) {
    const rs = runs[v]!;
    const normal = summarize(rs.flatMap((x) => x.normalGaps));
    const during = summarize(rs.flatMap((x) => x.exportGaps));
    out[v] = {
      normalGapP50Ms: normal.p50,
      // The noise floor: the same stream's p99/max gap with no export running (a shared machine).
      normalGapP99Ms: normal.p99,
      normalGapMaxMs: normal.max,
      exportGapMs: { p50: during.p50, p99: during.p99, max: during.max, count: during.count },
      maxOverNormalP50: during.max / normal.p50,
      p99OverNormalP50: during.p99 / normal.p50,
      exportMs: rs.map((x) => Math.round(x.exportMs)),
      chunks: rs.map((x) => x.chunkTokens.length),
      chunkTokens: summarize(rs.flatMap((x) => x.chunkTokens)),
      ...(v === 'adaptive' ? { chunkComputeMs: summarize(rs.flatMap((x) => x.chunkMs)), engineStepMsAfter: rs.map((x) => x.stepMs) } : {}),
      maxOverNormalP50PerRound: rs.map((x) => Number((Math.max(...x.exportGaps) / summarize(x.normalGaps).p50).toFixed(2))),
    };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, tokens: { type: 'string' }, rounds: { type: 'string' }, 'one-call': { type: 'boolean' } } });
  const result = await runExportGapBench(Number(values.tokens ?? 4000), Number(values.rounds ?? 3), values['one-call'] ?? false);
  console.log(JSON.stringify(result, null, 2));
  if (values.out) {
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, JSON.stringify(result, null, 2) + '\n');
  }
}
