// Forward exactness against llama.cpp, per tensor type, under teacher forcing. llama.cpp greedily
// generates 256 tokens (one token per evaluation, as a server decodes), then evaluates that whole
// sequence in one batch (teacher forcing, the way our engine's evaluate() runs it). Our engine
// evaluates the same sequence and must
//   - pick llama.cpp's top-1 at every step whose llama.cpp top-2 margin exceeds the near-tie margin,
//   - stay within a per-type bound of llama.cpp's raw logits on its top candidates.
// Random weights give nearly flat logits and quantized activations amplify rounding, so llama.cpp's
// own two paths (one-by-one vs batched) already differ; that self-difference is printed next to
// ours for scale. Steps under the near-tie margin are counted, not asserted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../src/engine/index.js';
import type { ModelDtype, ModelSpec } from '../../src/model-maker/index.js';
import { loadLlamaCpp, type LlamaCppPeer, type PeerTop } from '../../src/peer/llamacpp.js';
import { getTestModel } from '../helpers/models.js';

const STEPS = 256;
const TOP = 5;

interface Case {
  dtype: ModelDtype;
  arch: ModelSpec['arch'];
  tied: boolean;
  /** Bound on |our logit - llama.cpp's| over llama.cpp's top candidates at every position. */
  maxLogitDiff: number;
  /** The family's own shape options (head size, sliding window, RoPE factors). */
  extra?: Partial<ModelSpec>;
  /** Mixture of experts: where two experts' router probabilities nearly tie, a rounding difference
   *  upstream picks the other expert (llama.cpp's own batched and one-by-one paths do too), and that
   *  position's logits jump. At most `positions` positions may exceed maxLogitDiff, none `maxDiff`;
   *  their top-1 is counted with the near-ties. */
  routingFlips?: { positions: number; maxDiff: number };
}

// Family shapes: a head size that is not dim / heads (qwen3, gemma), sliding windows shorter than
// the teacher-forced sequence (so windowed layers really drop positions), RoPE frequency factors.
const QWEN3: Partial<ModelSpec> = { headDim: 128 };
const GEMMA2: Partial<ModelSpec> = { headDim: 128, slidingWindow: 48 };
const GEMMA3: Partial<ModelSpec> = { headDim: 128, slidingWindow: 40, layers: 7, ropeScale: 8 };
const PHI3: Partial<ModelSpec> = { ropeFactors: true };
const LLAMA31: Partial<ModelSpec> = { ropeFactors: true };
// Mixture of experts: enough experts and tokens that every expert is used and the batched
// (teacher-forced) pass groups several tokens per expert.
const QWEN3MOE: Partial<ModelSpec> = { headDim: 128, experts: 16, expertsUsed: 4, expertFfn: 256 };
// Mixtral: llama files with experts, each as wide as feed_forward_length.
const MIXTRAL: Partial<ModelSpec> = { experts: 8, expertsUsed: 2 };
// Measured: qwen3moe q8_0 1 position above 5e-2 (0.060), q4_k_m none (0.076); Mixtral q4_k_m 2
// positions above 8e-2, max 0.34, one of them changing the top-1 (llama.cpp's own batched-vs-one-by-one
// on these files: 0.088, 0.16, 0.62).
const MOE_FLIPS = { positions: 5, maxDiff: 0.5 };
// gpt-oss: the o200k vocabulary, 64-wide heads, 16 biased experts (4 used, top-k-then-softmax,
// swiglu_oai), attention sinks, 128-token windows on every other layer (the teacher-forced sequence
// is longer), and YaRN as released (factor 32 over 4096: some dimensions extrapolate, some ramp,
// the rest interpolate).
const GPTOSS: Partial<ModelSpec> = {
  vocab: 'gptoss', headDim: 64, heads: 8, kvHeads: 2, ffn: 256, experts: 16, expertsUsed: 4, expertFfn: 256,
  slidingWindow: 128, ropeTheta: 150000, ropeYarn: { factor: 32, origCtx: 4096 },
};
// YaRN on families that are not gpt-oss (Qwen3 and Llama releases with rope_scaling yarn), with an
// original context shorter than the sequence.
const QWEN3_YARN: Partial<ModelSpec> = { headDim: 128, ropeYarn: { factor: 4, origCtx: 128 } };
const LLAMA_YARN: Partial<ModelSpec> = { ropeYarn: { factor: 8, origCtx: 256 } };
// Measured: gpt-oss f32 2.2e-5, MXFP4 experts (the rest q8_0) 2.6e-2 with no position above the
// bound; qwen3 YaRN f32 1.0e-4, llama YaRN q8_0 4.3e-2 (llama.cpp's own batched-vs-one-by-one:
// 0.25, 0.24, 0.0099, 0.057). With attention sinks, YaRN, the windows, the routing or swiglu_oai
// left out, the f32 gpt-oss case disagrees on 60-200 of its 253 steps (max |Δlogit| 0.46-2.1).


const CASES: Case[] = [
  { dtype: 'f32', arch: 'qwen2', tied: true, maxLogitDiff: 1e-3 },
  { dtype: 'f32', arch: 'llama', tied: false, maxLogitDiff: 1e-3 },
  { dtype: 'f16', arch: 'qwen2', tied: true, maxLogitDiff: 5e-3 },
  { dtype: 'bf16', arch: 'qwen2', tied: false, maxLogitDiff: 2e-2 },
  { dtype: 'q8_0', arch: 'qwen2', tied: true, maxLogitDiff: 5e-2 },
  { dtype: 'q8_0', arch: 'llama', tied: false, maxLogitDiff: 5e-2 },
  { dtype: 'q4_0', arch: 'qwen2', tied: true, maxLogitDiff: 8e-2 },
  { dtype: 'q5_0', arch: 'qwen2', tied: false, maxLogitDiff: 8e-2 },
  { dtype: 'q4_k_m', arch: 'qwen2', tied: true, maxLogitDiff: 8e-2 },
  { dtype: 'q4_k_m', arch: 'llama', tied: false, maxLogitDiff: 8e-2 },
  { dtype: 'q5_k_m', arch: 'qwen2', tied: false, maxLogitDiff: 8e-2 },
  { dtype: 'q6_k', arch: 'qwen2', tied: true, maxLogitDiff: 8e-2 },
  { dtype: 'f32', arch: 'qwen3', tied: true, maxLogitDiff: 1e-3, extra: QWEN3 },
  { dtype: 'q8_0', arch: 'qwen3', tied: true, maxLogitDiff: 5e-2, extra: QWEN3 },
  { dtype: 'q4_k_m', arch: 'qwen3', tied: false, maxLogitDiff: 8e-2, extra: QWEN3 },
  { dtype: 'f32', arch: 'gemma2', tied: true, maxLogitDiff: 1e-3, extra: GEMMA2 },
  { dtype: 'q8_0', arch: 'gemma2', tied: true, maxLogitDiff: 5e-2, extra: GEMMA2 },
  { dtype: 'q4_k_m', arch: 'gemma2', tied: true, maxLogitDiff: 8e-2, extra: GEMMA2 },
  { dtype: 'f32', arch: 'gemma3', tied: true, maxLogitDiff: 1e-3, extra: GEMMA3 },
  { dtype: 'q8_0', arch: 'gemma3', tied: true, maxLogitDiff: 5e-2, extra: GEMMA3 },
  { dtype: 'q4_k_m', arch: 'gemma3', tied: true, maxLogitDiff: 8e-2, extra: GEMMA3 },
  { dtype: 'f32', arch: 'phi3', tied: false, maxLogitDiff: 1e-3, extra: PHI3 },
  { dtype: 'q8_0', arch: 'phi3', tied: false, maxLogitDiff: 5e-2, extra: PHI3 },
  { dtype: 'q4_k_m', arch: 'phi3', tied: false, maxLogitDiff: 8e-2, extra: PHI3 },
  { dtype: 'f32', arch: 'llama', tied: false, maxLogitDiff: 1e-3, extra: LLAMA31 },
  { dtype: 'q4_k_m', arch: 'llama', tied: false, maxLogitDiff: 8e-2, extra: LLAMA31 },
  { dtype: 'q4_1', arch: 'qwen2', tied: true, maxLogitDiff: 7e-2 },
  { dtype: 'q5_1', arch: 'qwen2', tied: false, maxLogitDiff: 7e-2 },
  // 4.98e-2 measured where this bound was set; 6.3e-2 on an AVX-512 VM (top-1 still agreed above
  // the near-tie margin): the other 2-5-bit types' 8e-2, inside llama.cpp's own batched-vs-one-by-one
  // spread (4.8e-2 to 8.6e-2).
  { dtype: 'q2_k', arch: 'qwen2', tied: true, maxLogitDiff: 8e-2 },
  { dtype: 'q3_k_m', arch: 'qwen2', tied: true, maxLogitDiff: 6.5e-2 },
  { dtype: 'q3_k_m', arch: 'llama', tied: false, maxLogitDiff: 6e-2 },
  { dtype: 'q3_k_s', arch: 'qwen2', tied: false, maxLogitDiff: 7.5e-2 },
  { dtype: 'q3_k_l', arch: 'qwen2', tied: true, maxLogitDiff: 4.5e-2 },
  { dtype: 'iq4_nl', arch: 'qwen2', tied: true, maxLogitDiff: 8e-2 },
  { dtype: 'iq4_xs', arch: 'qwen2', tied: false, maxLogitDiff: 2.5e-2 },
  { dtype: 'iq4_xs', arch: 'llama', tied: true, maxLogitDiff: 4.5e-2 },
  { dtype: 'f32', arch: 'qwen3moe', tied: true, maxLogitDiff: 1e-3, extra: QWEN3MOE },
  { dtype: 'q8_0', arch: 'qwen3moe', tied: true, maxLogitDiff: 5e-2, extra: QWEN3MOE, routingFlips: MOE_FLIPS },
  { dtype: 'q4_k_m', arch: 'qwen3moe', tied: false, maxLogitDiff: 8e-2, extra: QWEN3MOE, routingFlips: MOE_FLIPS },
  { dtype: 'f32', arch: 'llama', tied: false, maxLogitDiff: 1e-3, extra: MIXTRAL },
  { dtype: 'q4_k_m', arch: 'llama', tied: false, maxLogitDiff: 8e-2, extra: MIXTRAL, routingFlips: MOE_FLIPS },
  { dtype: 'f32', arch: 'gpt-oss', tied: false, maxLogitDiff: 1e-3, extra: GPTOSS },
  { dtype: 'mxfp4_moe', arch: 'gpt-oss', tied: false, maxLogitDiff: 4e-2, extra: GPTOSS, routingFlips: MOE_FLIPS },
  { dtype: 'f32', arch: 'qwen3', tied: true, maxLogitDiff: 1e-3, extra: QWEN3_YARN },
  { dtype: 'q8_0', arch: 'llama', tied: false, maxLogitDiff: 5e-2, extra: LLAMA_YARN },
];
// Bounds are about 1.3-1.5x what was measured (the quantized ones are at or below llama.cpp's own
// batched-vs-one-by-one difference on the same file); both engines run 1 thread, deterministically.

/** Small, but every 2-D weight row is a multiple of 256 so the K-quants are really used. */
const SHAPE: Partial<ModelSpec> = { dim: 256, layers: 2, heads: 4, kvHeads: 2, ffn: 512, ctx: 1024, vocabLimit: 8000, scale: 0.05 };
const PROMPT = '<|im_start|>user\nWrite a haiku about GGUF files.<|im_end|>\n<|im_start|>assistant\n';

let peer: LlamaCppPeer;
const summary: string[] = [];

beforeAll(async () => {
  peer = await loadLlamaCpp();
}, 600_000);

afterAll(async () => {
  await peer?.dispose();
  if (summary.length) console.log(`forward exactness vs llama.cpp (${STEPS} teacher-forced steps, ${peer?.info.version ?? '?'}):\n${summary.join('\n')}`);
});

function maxCommonDiff(a: PeerTop[], b: PeerTop[]): number {
  let d = 0;
  for (const x of a) {
    const y = b.find((t) => t.id === x.id);
    if (y) d = Math.max(d, Math.abs(x.logit - y.logit));
  }
  return d;
}

describe.each(CASES)('forward vs llama.cpp: $dtype $arch $extra', (c) => {
  it(`agrees with llama.cpp's top-1 above the near-tie margin and stays within ${c.maxLogitDiff} of its logits`, async () => {
    const path = await getTestModel({ ...SHAPE, ...c.extra, name: 'fwd', dtype: c.dtype, arch: c.arch, tied: c.tied });
    const ref = await peer.loadModel(path);
    let prompt: number[];
    let greedy;
    let forced: PeerTop[][];
    try {
      prompt = ref.tokenize(PROMPT, true);
      greedy = await ref.greedy(prompt, STEPS, { topK: TOP });
      forced = await ref.teacherForce([...prompt, ...greedy.ids.slice(0, -1)], TOP);
    } finally {
      await ref.dispose();
    }
    const seq = [...prompt, ...greedy.ids.slice(0, -1)];

    const model = await loadModel(path, { threads: 1, kvCacheTokens: 1024, prefixCache: false });
    let res;
    try {
      expect(Array.from(model.tokenizer.encode(PROMPT, { addSpecial: false, parseSpecial: true }))).toEqual(prompt);
      res = await model.evaluate(seq, { allLogits: true });
    } finally {
      model.unload();
    }
    const vocab = res.logits.length / res.logitPositions.length;
    // A flip needs the top-2 gap to close: each side moves at most maxLogitDiff.
    const tieMargin = 2 * c.maxLogitDiff;
    let checked = 0;
    let ties = 0;
    let tieFlips = 0;
    let greedyAgree = 0;
    let maxDiff = 0;
    let overBound = 0;
    let selfDiff = 0;
    const failures: string[] = [];
    for (let i = 0; i < STEPS; i++) {
      const pos = prompt.length - 1 + i;
      const row = res.logits.subarray(pos * vocab, (pos + 1) * vocab);
      let arg = 0;
      for (let v = 1; v < vocab; v++) if (row[v]! > row[arg]!) arg = v;
      const top = forced[pos]!;
      let posDiff = 0;
      for (const t of top) posDiff = Math.max(posDiff, Math.abs(row[t.id]! - t.logit));
      maxDiff = Math.max(maxDiff, posDiff);
      if (posDiff > c.maxLogitDiff) overBound++;
      selfDiff = Math.max(selfDiff, maxCommonDiff(greedy.steps[i]!, top));
      if (arg === greedy.ids[i]) greedyAgree++;
      const margin = top[0]!.logit - top[1]!.logit;
      // A routing flip moves the logits by more than any rounding does: its top-1 is not compared
      // (the flips themselves are counted and bounded below).
      const routingFlip = c.routingFlips !== undefined && posDiff > c.maxLogitDiff;
      if (margin <= tieMargin || routingFlip) {
        ties++;
        if (arg !== top[0]!.id) tieFlips++;
        continue;
      }
      checked++;
      if (arg !== top[0]!.id) failures.push(`step ${i}: llama.cpp ${top[0]!.id} (${top[0]!.logit.toFixed(5)}, margin ${margin.toFixed(5)}), ours ${arg} (${row[arg]!.toFixed(5)})`);
    }
    summary.push(
      `  ${c.dtype.padEnd(7)} ${c.arch.padEnd(6)}${c.extra ? ' ' + JSON.stringify(c.extra) : ''} ${c.tied ? 'tied  ' : 'untied'}  top-1 ${checked - failures.length}/${checked} above margin ${tieMargin} ` +
        `(near-ties ${ties}, flipped ${tieFlips}; same as llama.cpp greedy ${greedyAgree}/${STEPS})  ` +
        `max |Δlogit| ours-llama.cpp ${maxDiff.toExponential(2)}${overBound ? ` (${overBound} positions above ${c.maxLogitDiff})` : ''}, llama.cpp batched-vs-one-by-one ${selfDiff.toExponential(2)}`,
    );
    expect(failures.slice(0, 5).join('\n'), `${failures.length} of ${checked} steps disagree`).toBe('');
    expect(checked, 'too few steps above the near-tie margin for the comparison to mean anything').toBeGreaterThanOrEqual(Math.floor(STEPS / 3));
    if (c.routingFlips) {
      expect(overBound, `positions above ${c.maxLogitDiff}`).toBeLessThanOrEqual(c.routingFlips.positions);
      expect(maxDiff).toBeLessThanOrEqual(c.routingFlips.maxDiff);
    } else {
      expect(maxDiff).toBeLessThanOrEqual(c.maxLogitDiff);
    }
  }, 600_000);
});
