// Deterministic GGUF generator: llama (and Mixtral), qwen2, qwen3, qwen3moe, gemma2, gemma3, phi3 and gpt-oss architectures with
// random weights (normal x scale, norms = 1; see ./arch.ts for what each family writes), a real
// vocabulary with its chat template (./write-vocab.ts) or a synthetic SPM one.
// Same spec and seed -> byte-identical file.
import { QWEN_PRE_TOKENIZER } from '../assets/qwen-vocab.js';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { GgufWriter } from '../gguf/gguf-writer.js';
import { quantize } from '../gguf/quantize.js';
import { GgmlType, rowBytes } from '../gguf/types.js';
import { DTYPES, FILE_TYPE, weightType, type ModelDtype } from './quant-recipe.js';
import { Rng } from './prng.js';
import { validateVocab, writeVocab, type VocabName } from './write-vocab.js';
import { ARCHS, archTraits, expertFfn, fixedTensor, headDim, isMoe, validateArchSpec, writeArchMetadata, type ModelArch, type TensorInit } from './arch.js';

export const MODEL_MAKER_VERSION = 6;

export { DTYPES, weightType } from './quant-recipe.js';
export type { ModelDtype } from './quant-recipe.js';

export interface ModelSpec {
  arch: ModelArch;
  /** Attention head size (attention.key_length); default dim / heads. */
  headDim?: number;
  /** Sliding-window size of the families that have one (gemma2, gemma3); default the family's. */
  slidingWindow?: number;
  /** Linear RoPE scaling factor (rope.scaling.factor, type linear); default none. */
  ropeScale?: number;
  /** YaRN RoPE scaling (rope.scaling.type yarn): factor and original_context_length. */
  ropeYarn?: { factor: number; origCtx: number };
  /** Per-dimension RoPE frequency factors: llama → rope_freqs (Llama 3.1 formula), phi3 →
   *  LongRoPE long/short factors. */
  ropeFactors?: boolean;
  /** Mixture of experts (qwen3moe, gpt-oss; llama = Mixtral): number of experts, experts used per
   *  token, and each expert's FFN width (qwen3moe, gpt-oss; default ffn). */
  experts?: number;
  expertsUsed?: number;
  expertFfn?: number;
  dim: number;
  layers: number;
  heads: number;
  kvHeads: number;
  ffn: number;
  ctx: number;
  ropeTheta: number;
  eps: number;
  /** No output.weight: the LM head reuses token_embd. */
  tied: boolean;
  dtype: ModelDtype;
  seed: number;
  /** Standard deviation of the random weights (norm weights are 1). */
  scale: number;
  /** 'qwen' = the Qwen byte-level BPE vocabulary with the Qwen2.5 template; 'spm' = a synthetic
   *  SentencePiece vocabulary; the others are real families' vocabularies (hf-vocab.ts). */
  vocab: VocabName;
  /** spm: vocabulary size; others: keep the first N tokens (plus the added tokens). */
  vocabLimit?: number;
  /** tokenizer.ggml.pre for the 'qwen' vocabulary (qwen2 by default; real families carry their own). */
  pre: string;
  /** K-quant scale search (see QuantizeOptions): 'ref' (default) or 'fast'. */
  kquantSearch?: 'ref' | 'fast';
  name: string;
}

const BASE: Omit<ModelSpec, 'dim' | 'layers' | 'heads' | 'kvHeads' | 'ffn' | 'name'> = {
  arch: 'qwen2',
  ctx: 4096,
  ropeTheta: 1_000_000,
  eps: 1e-6,
  tied: true,
  dtype: 'q8_0',
  seed: 1,
  scale: 0.02,
  vocab: 'qwen',
  pre: QWEN_PRE_TOKENIZER,
};

export const PRESETS = {
  /** The model `svc serve` makes on first start: small enough for fast CPU tests, with a 32k
   *  context so real browser recordings (full DOM snapshots run to thousands of tokens) fit. */
  builtin: { ...BASE, name: 'svc-builtin', dim: 128, layers: 4, heads: 4, kvHeads: 2, ffn: 512, ctx: 32768 },
  tiny: { ...BASE, name: 'svc-tiny', dim: 256, layers: 4, heads: 4, kvHeads: 4, ffn: 768, tied: false },
  /** Qwen2.5-0.5B shapes. */
  small: { ...BASE, name: 'svc-small', dim: 896, layers: 24, heads: 14, kvHeads: 2, ffn: 4864, ctx: 32768 },
  /** Qwen2.5-1.5B shapes. */
  medium: { ...BASE, name: 'svc-medium', dim: 1536, layers: 28, heads: 12, kvHeads: 2, ffn: 8960, ctx: 32768 },
  /** Qwen3-0.6B / 1.7B shapes (head size 128 beside dim / heads = 64 / 128, per-head Q/K norms). */
  'qwen3-0.6b': { ...BASE, arch: 'qwen3', vocab: 'qwen3', name: 'svc-qwen3-0.6b', dim: 1024, layers: 28, heads: 16, kvHeads: 8, headDim: 128, ffn: 3072, ctx: 40960 },
  'qwen3-1.7b': { ...BASE, arch: 'qwen3', vocab: 'qwen3', name: 'svc-qwen3-1.7b', dim: 2048, layers: 28, heads: 16, kvHeads: 8, headDim: 128, ffn: 6144, ctx: 40960 },
  /** Gemma-3-1B shapes with its 262k vocabulary: 4 heads of 256 over one KV head, 512-token
   *  windows on 5 of every 6 layers. */
  'gemma3-1b': { ...BASE, arch: 'gemma3', vocab: 'gemma3', name: 'svc-gemma3-1b', dim: 1152, layers: 26, heads: 4, kvHeads: 1, headDim: 256, ffn: 6912, ctx: 32768, slidingWindow: 512 },
  /** Phi-3-mini-4k shapes (fused QKV and gate/up) with the Llama 2 SentencePiece vocabulary
   *  Phi-3 builds on. Not named "phi3": llama.cpp recognises Phi-3 vocabularies by general.name
   *  and then requires Phi-3's added tokens (<|end|> ...), which the Llama 2 package lacks. */
  'phi3-mini': { ...BASE, arch: 'phi3', name: 'svc-mini-3.8b', dim: 3072, layers: 32, heads: 32, kvHeads: 32, ffn: 8192, ctx: 4096, ropeTheta: 10000, eps: 1e-5, tied: false, vocab: 'llama2' },
  /** Qwen3-30B-A3B shapes cut to 4 of its 48 layers (128 experts, 8 used, expert FFN 768, head
   *  dim 128), for MoE decode/prefill benchmarks. The vocabulary is cut too (16k of 151k), so the
   *  LM head's share of a token's weight bytes stays near the full model's (~10%, not ~65%). */
  moe: {
    ...BASE, name: 'svc-moe', arch: 'qwen3moe', dim: 2048, layers: 4, heads: 32, kvHeads: 4, headDim: 128, ffn: 6144,
    experts: 128, expertsUsed: 8, expertFfn: 768, ctx: 40960, tied: false, dtype: 'q4_k_m', vocabLimit: 16000,
  },
  /** gpt-oss shapes for tests: 4 layers alternating 128-token windows and full attention, 16
   *  experts (4 used) with biases, attention sinks, YaRN (factor 32 over 4096, as released), the
   *  o200k vocabulary with the harmony template, MXFP4 experts (the rest q8_0). */
  'gpt-oss-tiny': {
    ...BASE, name: 'svc-gpt-oss-tiny', arch: 'gpt-oss', vocab: 'gptoss', pre: 'gpt-4o', dim: 256, layers: 4, heads: 8, kvHeads: 2,
    headDim: 64, ffn: 256, experts: 16, expertsUsed: 4, expertFfn: 256, ctx: 8192, ropeTheta: 150000, eps: 1e-5, tied: false,
    dtype: 'mxfp4_moe', ropeYarn: { factor: 32, origCtx: 4096 }, slidingWindow: 128,
  },
  /** gpt-oss-20b shapes cut to 4 of its 24 layers, for benchmarks: dim 2880, 64 query / 8 KV heads
   *  of 64, 32 experts (4 used) of width 2880 in MXFP4, the rest q8_0. The vocabulary is cut too
   *  (32k of 201k), so the LM head's share of a token's weight bytes stays near the full model's
   *  (~15%). */
  'gpt-oss-20b-cut': {
    ...BASE, name: 'svc-gpt-oss-20b-cut', arch: 'gpt-oss', vocab: 'gptoss', pre: 'gpt-4o', dim: 2880, layers: 4, heads: 64, kvHeads: 8,
    headDim: 64, ffn: 2880, experts: 32, expertsUsed: 4, expertFfn: 2880, ctx: 131072, ropeTheta: 150000, eps: 1e-5, tied: false,
    dtype: 'mxfp4_moe', ropeYarn: { factor: 32, origCtx: 4096 }, slidingWindow: 128, vocabLimit: 32000,
  },
} satisfies Record<string, ModelSpec>;

export type PresetName = keyof typeof PRESETS;

export function resolveSpec(preset: PresetName, overrides: Partial<ModelSpec> = {}): ModelSpec {
  const base = PRESETS[preset];
  if (!base) throw new Error(`unknown preset ${preset} (have: ${Object.keys(PRESETS).join(', ')})`);
  const spec: ModelSpec = { ...base, ...stripUndefined(overrides) };
  validateSpec(spec);
  return spec;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function validateSpec(s: ModelSpec): void {
  const posInt = (k: keyof ModelSpec, max: number) => {
    const v = s[k] as number;
    if (!Number.isInteger(v) || v < 1 || v > max) throw new Error(`${k} must be an integer in [1, ${max}], got ${v}`);
  };
  posInt('dim', 16384);
  posInt('layers', 256);
  posInt('heads', 256);
  posInt('kvHeads', 256);
  posInt('ffn', 65536);
  posInt('ctx', 1 << 20);
  if (!ARCHS.includes(s.arch)) throw new Error(`arch must be one of ${ARCHS.join(', ')}, got ${s.arch}`);
  validateArchSpec(s);
  if (!DTYPES.includes(s.dtype)) throw new Error(`dtype must be one of ${DTYPES.join(', ')}, got ${s.dtype}`);
  if (s.headDim === undefined && s.dim % s.heads !== 0) throw new Error(`dim ${s.dim} is not a multiple of heads ${s.heads}`);
  if (s.heads % s.kvHeads !== 0) throw new Error(`heads ${s.heads} is not a multiple of kv heads ${s.kvHeads}`);
  if (headDim(s) % 2 !== 0) throw new Error('head dim must be even (RoPE)');
  if (s.dim % 32 !== 0 || s.ffn % 32 !== 0) throw new Error('dim and ffn must be multiples of 32 (block size)');
  if (!(s.scale > 0 && s.scale < 100)) throw new Error(`scale out of range: ${s.scale}`);
  if (!(s.eps > 0 && s.eps < 1)) throw new Error(`eps out of range: ${s.eps}`);
  if (!(s.ropeTheta > 0)) throw new Error(`rope theta out of range: ${s.ropeTheta}`);
  if (!Number.isInteger(s.seed) || s.seed < 0) throw new Error(`seed must be a non-negative integer, got ${s.seed}`);
  if (s.kquantSearch !== undefined && s.kquantSearch !== 'ref' && s.kquantSearch !== 'fast') throw new Error(`kquant search must be ref or fast, got ${s.kquantSearch}`);
  validateVocab(s);
}

interface TensorPlan {
  name: string;
  dims: number[];
  type: GgmlType;
  init: TensorInit;
}

export function planTensors(s: ModelSpec, vocabSize: number): TensorPlan[] {
  const hd = headDim(s);
  const qDim = s.heads * hd;
  const kvDim = s.kvHeads * hd;
  const t = archTraits(s.arch);
  const plans: TensorPlan[] = [];
  const w = (name: string, ne0: number, ne1: number, layer = 0) =>
    plans.push({ name, dims: [ne0, ne1], type: weightType(s.dtype, name, ne0, layer, s.layers, s.tied, s.heads / s.kvHeads), init: 'normal' });
  // Stacked experts: [ne0, ne1, experts], each expert's rows quantized as a 2-D weight's.
  const w3 = (name: string, ne0: number, ne1: number, layer: number) =>
    plans.push({ name, dims: [ne0, ne1, s.experts!], type: weightType(s.dtype, name, ne0, layer, s.layers, s.tied, s.heads / s.kvHeads), init: 'normal' });
  const v = (name: string, n: number, init: TensorPlan['init']) => plans.push({ name, dims: [n], type: GgmlType.F32, init });
  w('token_embd.weight', s.dim, vocabSize);
  if (s.ropeFactors && s.arch === 'llama') v('rope_freqs.weight', hd / 2, 'llama3-rope-freqs');
  if (s.ropeFactors && s.arch === 'phi3') {
    v('rope_factors_long.weight', hd / 2, 'rope-factors');
    v('rope_factors_short.weight', hd / 2, 'rope-factors');
  }
  for (let i = 0; i < s.layers; i++) {
    const p = `blk.${i}.`;
    v(`${p}attn_norm.weight`, s.dim, t.norms);
    if (t.fusedQkv) {
      w(`${p}attn_qkv.weight`, s.dim, qDim + 2 * kvDim, i);
    } else {
      w(`${p}attn_q.weight`, s.dim, qDim, i);
      w(`${p}attn_k.weight`, s.dim, kvDim, i);
      w(`${p}attn_v.weight`, s.dim, kvDim, i);
    }
    if (t.qkvBias) {
      v(`${p}attn_q.bias`, qDim, 'normal');
      v(`${p}attn_k.bias`, kvDim, 'normal');
      v(`${p}attn_v.bias`, kvDim, 'normal');
    }
    if (t.oaiBiasesSinks) v(`${p}attn_sinks.weight`, s.heads, 'sinks');
    if (t.qkNorm) {
      v(`${p}attn_q_norm.weight`, hd, t.norms);
      v(`${p}attn_k_norm.weight`, hd, t.norms);
    }
    w(`${p}attn_output.weight`, qDim, s.dim, i);
    if (t.oaiBiasesSinks) v(`${p}attn_output.bias`, s.dim, 'normal');
    if (t.postNorms) v(`${p}post_attention_norm.weight`, s.dim, t.norms);
    v(`${p}${t.ffnNorm}.weight`, s.dim, t.norms);
    if (isMoe(s)) {
      // The router stays f32 in every file type (llama.cpp's converter and quantizer keep it so).
      plans.push({ name: `${p}ffn_gate_inp.weight`, dims: [s.dim, s.experts!], type: GgmlType.F32, init: 'normal' });
      const ef = expertFfn(s);
      w3(`${p}ffn_gate_exps.weight`, s.dim, ef, i);
      w3(`${p}ffn_up_exps.weight`, s.dim, ef, i);
      w3(`${p}ffn_down_exps.weight`, ef, s.dim, i);
      if (t.oaiBiasesSinks) {  // f32 in every file type (llama.cpp quantizes only *.weight)
        v(`${p}ffn_gate_inp.bias`, s.experts!, 'normal');
        plans.push({ name: `${p}ffn_gate_exps.bias`, dims: [ef, s.experts!], type: GgmlType.F32, init: 'normal' });
        plans.push({ name: `${p}ffn_up_exps.bias`, dims: [ef, s.experts!], type: GgmlType.F32, init: 'normal' });
        plans.push({ name: `${p}ffn_down_exps.bias`, dims: [s.dim, s.experts!], type: GgmlType.F32, init: 'normal' });
      }
    } else if (t.fusedGateUp) {
      w(`${p}ffn_up.weight`, s.dim, 2 * s.ffn, i);
    } else {
      w(`${p}ffn_gate.weight`, s.dim, s.ffn, i);
      w(`${p}ffn_up.weight`, s.dim, s.ffn, i);
    }
    if (!isMoe(s)) w(`${p}ffn_down.weight`, s.ffn, s.dim, i);
    if (t.postNorms) v(`${p}post_ffw_norm.weight`, s.dim, t.norms);
  }
  v('output_norm.weight', s.dim, t.norms);
  if (!s.tied) w('output.weight', s.dim, vocabSize);
  return plans;
}

/** Elements generated and quantized per chunk (a multiple of 256 rows' worth is not needed:
 *  chunks are whole rows). */
const CHUNK_ELEMS = 1 << 20;

export interface MakeResult {
  path: string;
  bytes: number;
  ms: number;
  params: number;
  tensorTypes: Record<string, number>;
}

/** Writes the model described by spec to outPath (atomically). */
export async function makeModel(spec: ModelSpec, outPath: string): Promise<MakeResult> {
  validateSpec(spec);
  const t0 = performance.now();
  const w = new GgufWriter();
  const a = spec.arch;
  w.string('general.architecture', a);
  w.string('general.name', spec.name);
  w.u32('general.file_type', FILE_TYPE[spec.dtype]);
  w.u32('general.quantization_version', 2);
  const vocabSize = writeVocab(w, spec);
  const hd = headDim(spec);
  w.u32(`${a}.context_length`, spec.ctx);
  w.u32(`${a}.embedding_length`, spec.dim);
  w.u32(`${a}.block_count`, spec.layers);
  w.u32(`${a}.feed_forward_length`, spec.ffn);
  w.u32(`${a}.attention.head_count`, spec.heads);
  w.u32(`${a}.attention.head_count_kv`, spec.kvHeads);
  w.u32(`${a}.rope.dimension_count`, hd);
  w.f32(`${a}.rope.freq_base`, spec.ropeTheta);
  w.f32(`${a}.attention.layer_norm_rms_epsilon`, spec.eps);
  w.u32(`${a}.vocab_size`, vocabSize);
  writeArchMetadata(w, spec);
  w.u32('svc.model_maker.version', MODEL_MAKER_VERSION);
  w.string('svc.model_maker.spec', JSON.stringify(spec));

  const plans = planTensors(spec, vocabSize);
  const tensorTypes: Record<string, number> = {};
  let params = 0;
  for (const p of plans) {
    const ne0 = p.dims[0]!;
    const rows = p.dims.slice(1).reduce((x, y) => x * y, 1);
    params += ne0 * rows;
    tensorTypes[p.name] = p.type;
    w.addTensor({
      name: p.name,
      dims: p.dims,
      type: p.type,
      produce(emit) {
        if (p.init !== 'normal') {
          emit(new Uint8Array(fixedTensor(p.init, p.name, ne0 * rows, spec).buffer));
          return;
        }
        const rng = new Rng(`${spec.seed}:${p.name}`);
        const rowsPerChunk = Math.max(1, Math.floor(CHUNK_ELEMS / ne0));
        const rb = rowBytes(p.type, ne0);
        const src = new Float32Array(rowsPerChunk * ne0);
        const dst = new Uint8Array(rowsPerChunk * rb);
        for (let r = 0; r < rows; r += rowsPerChunk) {
          const nr = Math.min(rowsPerChunk, rows - r);
          const s = nr === rowsPerChunk ? src : src.subarray(0, nr * ne0);
          rng.fillNormal(s, spec.scale);
          const n = quantize(p.type, s, dst, 0, { kSearch: spec.kquantSearch ?? 'ref' });
          emit(dst.subarray(0, n));
        }
      },
    });
  }
  mkdirSync(dirname(outPath), { recursive: true });
  const bytes = await w.write(outPath);
  return { path: outPath, bytes, ms: performance.now() - t0, params, tensorTypes };
}
