// svc-v3-large with an apply LLM: draft acceptance and speed-up of speculative decoding over plain
// greedy decoding, on a generated model, same prompt, side by side (plain and speculative
// alternate rep by rep so both see the same machine load). Prompt and draft are built exactly as
// the apply route builds them (src/apply/llm.ts: the model's chat template, merge result + EOS).
// Drafts:
//   merge      the merge engine's result (svc-v3-large) for a generated file and 3-hunk update:
//              what the route uses. A random-weight model does not copy its input, so this is low.
//   self       the model's own greedy output for the prompt: the upper bound (a model that
//              reproduces the merge exactly).
//   self-5%    that output with ~5% of tokens corrupted (substituted / inserted / deleted, seeded)
//   self-10%   the same at ~10%
// Every speculative run's tokens are checked against the plain run's (the bench fails otherwise).
// A second table replays the engine's draft policy (addon draftReplay, no model) with real code
// as the output: the merged file in the model's tokens, i.e. an apply LLM that writes exactly the
// merge, with the draft exact or 5%/10% corrupted. It gives the steps such a model would take;
// a random-weight model cannot show this.
// Steps = forward passes that produced the output's tokens (plain: one per token). Decode ms =
// wall time after the first token (both runs share the same prefill). Medians over --reps.
//
//   node dist/bench/apply/speculative-bench.js [--preset builtin|tiny|small] [--model PATH]
//        [--lines 40] [--replay-lines 400] [--tokens 256] [--reps 5] [--threads 2] [--draft-per-step 16] [--out bench/results/apply-speculative.json]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { makeFile, makeUpdate } from './synthetic-edit.js';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { applyDraftTokens, applyPromptTokens } from '../../src/apply/llm.js';
import { runApplyTask } from '../../src/apply/run.js';
import { closeTextPool } from '../../src/engine/text-pool.js';
import { benchModel } from '../../src/bench/models.js';
import { native } from '../../src/native/binding.js';
import { median, seededRandom } from '../../src/bench/stats.js';
import type { PresetName } from '../../src/model-maker/make-model.js';
import { GREEDY_SAMPLING as GREEDY } from '../../src/engine/sampling.js';

const { values: args } = parseArgs({
  options: {
    preset: { type: 'string', default: 'builtin' },
    model: { type: 'string' },
    lines: { type: 'string', default: '40' },
    'replay-lines': { type: 'string', default: '400' },
    tokens: { type: 'string', default: '256' },
    reps: { type: 'string', default: '5' },
    threads: { type: 'string', default: '2' },
    'draft-per-step': { type: 'string', default: '16' },
    out: { type: 'string', default: 'bench/results/apply-speculative.json' },
  },
});

/** Each token corrupted with probability `rate`: substituted, preceded by an inserted token, or dropped. */
function corrupt(tokens: ArrayLike<number>, rate: number, vocab: number, seed: number): Uint32Array {
  const rand = seededRandom(seed);
  const out: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (rand() >= rate) {
      out.push(t);
      continue;
    }
    const other = 100 + Math.floor(rand() * (vocab - 200));
    const kind = Math.floor(rand() * 3);
    if (kind === 0) out.push(other);
    else if (kind === 1) out.push(other, t);
  }
  return Uint32Array.from(out);
}

interface RunStats {
  tokens: number[];
  ms: number;
  decodeMs: number;
  steps: number;
  drafted: number;
  accepted: number;
}

async function runOnce(model: EngineModel, prompt: Uint32Array, maxTokens: number, draft: Uint32Array | null, perStep: number): Promise<RunStats> {
  const tokens: number[] = [];
  const t0 = performance.now();
  let tFirst = 0;
  const r = await model.generate(
    { prompt, maxTokens, sampling: GREEDY, ...(draft ? { draft, maxDraftTokens: perStep } : {}) },
    (ev) => {
      if (tokens.length === 0) tFirst = performance.now();
      tokens.push(ev.token);
    },
  );
  const t1 = performance.now();
  const s = r.speculative;
  return { tokens, ms: t1 - t0, decodeMs: t1 - tFirst, steps: s ? s.steps : r.completionTokens, drafted: s?.drafted ?? 0, accepted: s?.accepted ?? 0 };
}

interface Row {
  draft: string;
  draftTokens: number;
  outputTokens: number;
  drafted: number;
  accepted: number;
  /** accepted / drafted */
  acceptance: number;
  /** accepted / output tokens: the share of the output that came from the draft */
  coverage: number;
  plainSteps: number;
  specSteps: number;
  stepSpeedup: number;
  plainMs: number;
  specMs: number;
  plainDecodeMs: number;
  specDecodeMs: number;
  decodeSpeedup: number;
  wallSpeedup: number;
}

const path = args.model ?? (await benchModel(args.preset as PresetName, 'q8_0'));
const threads = Number(args.threads);
const reps = Number(args.reps);
const perStep = Number(args['draft-per-step']);
const model = await loadModel(path, { threads, kvCacheMb: 256 });
const load0 = loadavg();
console.error(`model ${path}: ${model.nativeInfo.layers} layers, dim ${model.nativeInfo.embeddingLength}, vocab ${model.info.vocabSize}; threads ${threads}; load ${load0.map((x) => x.toFixed(2)).join(' ')}`);

const file = makeFile(Number(args.lines));
const content = `<instruction>I am timing each handler.</instruction>\n<code>${file}</code>\n<update>${makeUpdate(file)}</update>`;
const merged = runApplyTask({ content, mode: 'large', maxTokens: null });
if (!merged.ok) throw new Error(merged.message);
const prompt = await applyPromptTokens(model, content);
const mergeDraft = await applyDraftTokens(model, merged.content);
const maxTokens = Math.min(Number(args.tokens), mergeDraft.length);

// The model's own greedy output, for the self drafts (also warms the engine).
const own = await runOnce(model, prompt, maxTokens, null, perStep);
const drafts: Array<[string, Uint32Array]> = [
  ['merge', mergeDraft],
  ['self', Uint32Array.from(own.tokens)],
  ['self-5%', corrupt(own.tokens, 0.05, model.info.vocabSize, 5)],
  ['self-10%', corrupt(own.tokens, 0.1, model.info.vocabSize, 10)],
];

const rows: Row[] = [];
for (const [name, draft] of drafts) {
  const plain: RunStats[] = [];
  const spec: RunStats[] = [];
  for (let i = 0; i < reps; i++) {
    plain.push(await runOnce(model, prompt, maxTokens, null, perStep));
    const s = await runOnce(model, prompt, maxTokens, draft, perStep);
    if (s.tokens.join(',') !== own.tokens.join(',')) throw new Error(`${name}: speculative output differs from plain greedy output`);
    spec.push(s);
  }
  const p = plain[0]!;
  const s = spec[0]!;
  const row: Row = {
    draft: name,
    draftTokens: draft.length,
    outputTokens: own.tokens.length,
    drafted: s.drafted,
    accepted: s.accepted,
    acceptance: s.drafted > 0 ? s.accepted / s.drafted : 0,
    coverage: s.accepted / own.tokens.length,
    plainSteps: p.steps,
    specSteps: s.steps,
    stepSpeedup: p.steps / s.steps,
    plainMs: median(plain.map((r) => r.ms)),
    specMs: median(spec.map((r) => r.ms)),
    plainDecodeMs: median(plain.map((r) => r.decodeMs)),
    specDecodeMs: median(spec.map((r) => r.decodeMs)),
    decodeSpeedup: 0,
    wallSpeedup: 0,
  };
  row.decodeSpeedup = row.plainDecodeMs / row.specDecodeMs;
  row.wallSpeedup = row.plainMs / row.specMs;
  rows.push(row);
  console.error(`${name}: acceptance ${(row.acceptance * 100).toFixed(1)}%, steps ${row.plainSteps} -> ${row.specSteps}, decode ${row.plainDecodeMs.toFixed(0)} -> ${row.specDecodeMs.toFixed(0)} ms`);
}

const load1 = loadavg();
const f = (x: number, d = 1) => x.toFixed(d);
console.log(`\nSpeculative apply decoding: ${path.split('/').pop()} (${model.nativeInfo.layers} layers, dim ${model.nativeInfo.embeddingLength}, vocab ${model.info.vocabSize}), ${threads} threads, prompt ${prompt.length} tokens, output ${own.tokens.length} tokens, ${perStep} draft tokens/step, median of ${reps}; load ${f(load0[0]!, 2)} -> ${f(load1[0]!, 2)}`);
console.log('| draft | draft tokens | proposed | accepted | acceptance | output from draft | steps plain → spec | step speed-up | decode ms plain → spec | decode speed-up | wall ms plain → spec | wall speed-up |');
console.log('|---|---:|---:|---:|---:|---:|---|---:|---|---:|---|---:|');
for (const r of rows) {
  console.log(
    `| ${r.draft} | ${r.draftTokens} | ${r.drafted} | ${r.accepted} | ${f(r.acceptance * 100)}% | ${f(r.coverage * 100)}% | ${r.plainSteps} → ${r.specSteps} | ${f(r.stepSpeedup, 2)}x | ${f(r.plainDecodeMs, 0)} → ${f(r.specDecodeMs, 0)} | ${f(r.decodeSpeedup, 2)}x | ${f(r.plainMs, 0)} → ${f(r.specMs, 0)} | ${f(r.wallSpeedup, 2)}x |`,
  );
}
// Policy replay on code: output = the merged file (+ EOS), as an apply LLM that copies would write it.
const bigFile = makeFile(Number(args['replay-lines']));
const bigMerge = runApplyTask({ content: `<code>${bigFile}</code>\n<update>${makeUpdate(bigFile)}</update>`, mode: 'large', maxTokens: null });
if (!bigMerge.ok) throw new Error(bigMerge.message);
const codeOut = await applyDraftTokens(model, bigMerge.content);
const replayRows = [
  ['exact', codeOut],
  ['5% corrupted', corrupt(codeOut, 0.05, model.info.vocabSize, 105)],
  ['10% corrupted', corrupt(codeOut, 0.1, model.info.vocabSize, 110)],
  ['20% corrupted', corrupt(codeOut, 0.2, model.info.vocabSize, 120)],
].map(([name, draft]) => {
  const r = native().draftReplay(codeOut, draft as Uint32Array, perStep);
  return { draft: name as string, outputTokens: codeOut.length, ...r, acceptance: r.proposed > 0 ? r.accepted / r.proposed : 0, coverage: r.accepted / codeOut.length, stepSpeedup: codeOut.length / r.steps };
});
console.log(`\nDraft policy replayed on code (no model): output = the merged ${args['replay-lines']}-line file, ${codeOut.length} tokens, ${perStep} draft tokens/step`);
console.log('| draft | proposed | accepted | acceptance | output from draft | steps plain → spec | step speed-up |');
console.log('|---|---:|---:|---:|---:|---|---:|');
for (const r of replayRows) {
  console.log(`| ${r.draft} | ${r.proposed} | ${r.accepted} | ${f(r.acceptance * 100)}% | ${f(r.coverage * 100)}% | ${r.outputTokens} → ${r.steps} | ${f(r.stepSpeedup, 2)}x |`);
}

const out = resolve(PACKAGE_ROOT, args.out);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ model: path, threads, reps, perStep, promptTokens: prompt.length, load: [load0, load1], rows, replayOnCode: replayRows }, null, 2) + '\n');
model.unload();
await closeTextPool();
