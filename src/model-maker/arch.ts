// What each architecture the model maker writes adds to the llama layout: its tensors (fused or
// not, biases, extra norms), its metadata keys, and the fixed-value tensors (norm weights, RoPE
// factors). Keys and tensor names are llama.cpp's (gguf-py's constants); the engine's
// native/model/model_loader.cc reads the same names.
import type { GgufWriter } from '../gguf/gguf-writer.js';
import type { ModelSpec } from './make-model.js';
import { Rng } from './prng.js';

export const ARCHS = ['llama', 'qwen2', 'qwen3', 'gemma2', 'gemma3', 'phi3', 'qwen3moe', 'gpt-oss'] as const;
export type ModelArch = (typeof ARCHS)[number];

/** How a fixed (non-random-matrix) tensor is filled. */
export type TensorInit = 'normal' | 'ones' | 'norm-jitter' | 'llama3-rope-freqs' | 'rope-factors' | 'sinks';

interface ArchTraits {
  qkvBias: boolean;
  qkNorm: boolean;
  /** post_attention_norm and post_ffw_norm (gemma). */
  postNorms: boolean;
  /** One attn_qkv and one ffn_up holding gate and up (phi3). */
  fusedQkv: boolean;
  fusedGateUp: boolean;
  /** Norm weights: exactly 1 (llama, qwen2: the files the benchmarks were measured on), or 1 plus
   *  noise so that a norm weight applied in the wrong place changes the output. */
  norms: 'ones' | 'norm-jitter';
  /** Default sliding window (0: the family has none). */
  slidingWindow: number;
  /** The pre-FFN norm's tensor: ffn_norm, or post_attention_norm (gpt-oss names it so). */
  ffnNorm: 'ffn_norm' | 'post_attention_norm';
  /** gpt-oss: attn_output.bias, attn_sinks, and biases on the router and every expert. */
  oaiBiasesSinks: boolean;
}

const TRAITS: Record<ModelArch, ArchTraits> = {
  llama: { qkvBias: false, qkNorm: false, postNorms: false, fusedQkv: false, fusedGateUp: false, norms: 'ones', slidingWindow: 0, ffnNorm: 'ffn_norm', oaiBiasesSinks: false },
  qwen2: { qkvBias: true, qkNorm: false, postNorms: false, fusedQkv: false, fusedGateUp: false, norms: 'ones', slidingWindow: 0, ffnNorm: 'ffn_norm', oaiBiasesSinks: false },
  qwen3: { qkvBias: false, qkNorm: true, postNorms: false, fusedQkv: false, fusedGateUp: false, norms: 'norm-jitter', slidingWindow: 0, ffnNorm: 'ffn_norm', oaiBiasesSinks: false },
  gemma2: { qkvBias: false, qkNorm: false, postNorms: true, fusedQkv: false, fusedGateUp: false, norms: 'norm-jitter', slidingWindow: 4096, ffnNorm: 'ffn_norm', oaiBiasesSinks: false },
  gemma3: { qkvBias: false, qkNorm: true, postNorms: true, fusedQkv: false, fusedGateUp: false, norms: 'norm-jitter', slidingWindow: 512, ffnNorm: 'ffn_norm', oaiBiasesSinks: false },
  phi3: { qkvBias: false, qkNorm: false, postNorms: false, fusedQkv: true, fusedGateUp: true, norms: 'norm-jitter', slidingWindow: 0, ffnNorm: 'ffn_norm', oaiBiasesSinks: false },
  qwen3moe: { qkvBias: false, qkNorm: true, postNorms: false, fusedQkv: false, fusedGateUp: false, norms: 'norm-jitter', slidingWindow: 0, ffnNorm: 'ffn_norm', oaiBiasesSinks: false },
  'gpt-oss': { qkvBias: true, qkNorm: false, postNorms: false, fusedQkv: false, fusedGateUp: false, norms: 'norm-jitter', slidingWindow: 128, ffnNorm: 'post_attention_norm', oaiBiasesSinks: true },
};

/** Families whose FFN may be a mixture of experts: qwen3moe always is; llama with experts is
 *  Mixtral (each expert as wide as feed_forward_length). */
const MOE: Partial<Record<ModelArch, 'required' | 'optional'>> = { qwen3moe: 'required', 'gpt-oss': 'required', llama: 'optional' };

/** Families a YaRN RoPE scaling is written for (llama.cpp computes it the same way for all). */
const YARN_ARCHS: readonly ModelArch[] = ['llama', 'qwen2', 'qwen3', 'qwen3moe', 'gpt-oss'];

/** True when the spec describes a mixture-of-experts FFN. */
export function isMoe(s: ModelSpec): boolean {
  return (s.experts ?? 0) > 0;
}

/** Width of each expert's FFN: expertFfn (expert_feed_forward_length of qwen3moe and gpt-oss) or
 *  ffn (Mixtral). */
export function expertFfn(s: ModelSpec): number {
  return s.expertFfn ?? s.ffn;
}

function validateMoeSpec(s: ModelSpec): void {
  const moe = MOE[s.arch];
  if (moe === 'required' && !isMoe(s)) throw new Error(`${s.arch} needs experts and expertsUsed`);
  if (s.experts === undefined && s.expertsUsed === undefined && s.expertFfn === undefined) return;
  if (!moe) throw new Error(`${s.arch} has no experts`);
  const e = s.experts, k = s.expertsUsed;
  if (e === undefined || !Number.isInteger(e) || e < 1 || e > 512) throw new Error(`experts must be an integer in [1, 512], got ${e}`);
  if (k === undefined || !Number.isInteger(k) || k < 1 || k > e) throw new Error(`expertsUsed must be an integer in [1, experts], got ${k}`);
  if (s.expertFfn !== undefined) {
    if (s.arch === 'llama') throw new Error('llama experts are feed_forward_length wide (set ffn, not expertFfn)');
    if (!Number.isInteger(s.expertFfn) || s.expertFfn < 32 || s.expertFfn % 32 !== 0) throw new Error(`expertFfn must be a positive multiple of 32, got ${s.expertFfn}`);
  }
}

export function archTraits(arch: ModelArch): ArchTraits {
  return TRAITS[arch];
}

export function headDim(s: ModelSpec): number {
  return s.headDim ?? s.dim / s.heads;
}

export function validateArchSpec(s: ModelSpec): void {
  const t = TRAITS[s.arch];
  if (s.headDim !== undefined && (!Number.isInteger(s.headDim) || s.headDim < 2 || s.headDim > 1024))
    throw new Error(`head dim must be an integer in [2, 1024], got ${s.headDim}`);
  if (s.slidingWindow !== undefined) {
    if (t.slidingWindow === 0) throw new Error(`${s.arch} has no sliding window`);
    if (!Number.isInteger(s.slidingWindow) || s.slidingWindow < 1) throw new Error(`sliding window must be a positive integer, got ${s.slidingWindow}`);
  }
  if (s.ropeScale !== undefined && !(s.ropeScale >= 1)) throw new Error(`rope scale must be >= 1, got ${s.ropeScale}`);
  if (s.ropeYarn !== undefined) {
    const y = s.ropeYarn;
    if (!YARN_ARCHS.includes(s.arch)) throw new Error(`YaRN RoPE is written for ${YARN_ARCHS.join(', ')} only`);
    if (s.ropeScale !== undefined) throw new Error('rope scale (linear) and YaRN exclude each other');
    if (!(y.factor >= 1)) throw new Error(`YaRN factor must be >= 1, got ${y.factor}`);
    if (!Number.isInteger(y.origCtx) || y.origCtx < 1) throw new Error(`YaRN original context must be a positive integer, got ${y.origCtx}`);
  }
  if (s.ropeFactors && s.arch !== 'llama' && s.arch !== 'phi3') throw new Error('rope factors are written for llama and phi3 only');
  if (t.fusedQkv && s.headDim !== undefined && s.headDim * s.heads !== s.dim) throw new Error('phi3 needs head dim = dim / heads');
  if (s.arch === 'gpt-oss' && s.tied) throw new Error('gpt-oss has its own output.weight (llama.cpp requires it): set tied false');
  validateMoeSpec(s);
}

/** The architecture's own metadata keys (the common ones are written by makeModel). */
export function writeArchMetadata(w: GgufWriter, s: ModelSpec): void {
  const a = s.arch;
  const t = TRAITS[a];
  const hd = headDim(s);
  if (s.headDim !== undefined || t.qkNorm || t.oaiBiasesSinks) {
    w.u32(`${a}.attention.key_length`, hd);
    w.u32(`${a}.attention.value_length`, hd);
  }
  if (t.slidingWindow > 0) w.u32(`${a}.attention.sliding_window`, s.slidingWindow ?? t.slidingWindow);
  if (a === 'gemma2') {
    w.f32(`${a}.attn_logit_softcapping`, 50);
    w.f32(`${a}.final_logit_softcapping`, 30);
  }
  if (s.ropeScale !== undefined) {
    w.string(`${a}.rope.scaling.type`, 'linear');
    w.f32(`${a}.rope.scaling.factor`, s.ropeScale);
  }
  if (s.ropeYarn !== undefined) {
    // As the converter writes a config's rope_scaling of type yarn (gpt-oss: factor 32 over 4096).
    w.string(`${a}.rope.scaling.type`, 'yarn');
    w.f32(`${a}.rope.scaling.factor`, s.ropeYarn.factor);
    w.u32(`${a}.rope.scaling.original_context_length`, s.ropeYarn.origCtx);
  }
  if (isMoe(s)) {
    // As llama.cpp's converter writes them; llama.cpp's graphs for both families renormalise the
    // selected weights whatever the file says, so no expert_weights_norm is written.
    w.u32(`${a}.expert_count`, s.experts!);
    w.u32(`${a}.expert_used_count`, s.expertsUsed!);
    if (a === 'qwen3moe' || a === 'gpt-oss') w.u32(`${a}.expert_feed_forward_length`, expertFfn(s));
  }
  if (s.ropeFactors && a === 'phi3') {
    // LongRoPE: the engine (and llama.cpp) use the short factors while the context stays within
    // the original one, which here is the whole context.
    w.string(`${a}.rope.scaling.type`, 'longrope');
    w.u32(`${a}.rope.scaling.original_context_length`, s.ctx);
  }
}

/** Values of a tensor that is not a random weight matrix. */
export function fixedTensor(init: Exclude<TensorInit, 'normal'>, name: string, n: number, s: ModelSpec): Float32Array {
  const out = new Float32Array(n);
  switch (init) {
    case 'ones':
      return out.fill(1);
    case 'norm-jitter': {
      const rng = new Rng(`${s.seed}:${name}`);
      rng.fillNormal(out, 0.1);
      for (let i = 0; i < n; i++) out[i] = 1 + out[i]!;
      return out;
    }
    case 'sinks': {
      // Attention sink logits around 2 (released gpt-oss layers have sinks of a few units): against
      // the near-zero scores of random weights a sink takes a share of the probability that
      // matters, more so at the start of a sequence and in the 128-token windows.
      const rng = new Rng(`${s.seed}:${name}`);
      rng.fillNormal(out, 1);
      for (let i = 0; i < n; i++) out[i] = 2 + out[i]!;
      return out;
    }
    case 'llama3-rope-freqs':
      return llama3RopeFreqs(n, s.ropeTheta);
    case 'rope-factors': {
      // LongRoPE factors grow from 1 at the fastest dimension to a few at the slowest.
      for (let i = 0; i < n; i++) out[i] = 1 + (3 * i) / Math.max(1, n - 1);
      return out;
    }
  }
}

/** Llama 3.1's rope_freqs as its converter computes them (factor 8, low/high frequency factors 1
 *  and 4, original context 8192): divisors 1 for short wavelengths, 8 for long ones, smooth between. */
function llama3RopeFreqs(n: number, base: number): Float32Array {
  const factor = 8;
  const lowFreqFactor = 1;
  const highFreqFactor = 4;
  const oldCtx = 8192;
  const lowWavelen = oldCtx / lowFreqFactor;
  const highWavelen = oldCtx / highFreqFactor;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const freq = 1 / base ** ((2 * i) / (2 * n));
    const wavelen = (2 * Math.PI) / freq;
    if (wavelen < highWavelen) out[i] = 1;
    else if (wavelen > lowWavelen) out[i] = factor;
    else {
      const smooth = (oldCtx / wavelen - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
      out[i] = 1 / ((1 - smooth) / factor + smooth);
    }
  }
  return out;
}
