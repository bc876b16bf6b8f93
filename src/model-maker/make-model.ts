// Deterministic GGUF generator: llama / qwen2 architectures with random weights (normal x scale,
// norms = 1), the real Qwen BPE vocabulary (or a synthetic SPM one), and a real chat template.
// Same spec and seed -> byte-identical file.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { GgufWriter } from '../gguf/gguf-writer.js';
import { quantize } from '../gguf/quantize.js';
import { GgmlType, LlamaFileType, rowBytes } from '../gguf/types.js';
import { Rng } from './prng.js';
import { validateVocab, writeVocab, type VocabName } from './write-vocab.js';

export const MODEL_MAKER_VERSION = 3;

export const DTYPES = ['f32', 'f16', 'bf16', 'q8_0', 'q4_0', 'q5_0', 'q4_k_m', 'q5_k_m', 'q6_k'] as const;
export type ModelDtype = (typeof DTYPES)[number];

export interface ModelSpec {
  arch: 'llama' | 'qwen2';
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
  pre: 'qwen2',
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
  if (s.arch !== 'llama' && s.arch !== 'qwen2') throw new Error(`arch must be llama or qwen2, got ${s.arch}`);
  if (!DTYPES.includes(s.dtype)) throw new Error(`dtype must be one of ${DTYPES.join(', ')}, got ${s.dtype}`);
  if (s.dim % s.heads !== 0) throw new Error(`dim ${s.dim} is not a multiple of heads ${s.heads}`);
  if (s.heads % s.kvHeads !== 0) throw new Error(`heads ${s.heads} is not a multiple of kv heads ${s.kvHeads}`);
  if ((s.dim / s.heads) % 2 !== 0) throw new Error('head dim must be even (RoPE)');
  if (s.dim % 32 !== 0 || s.ffn % 32 !== 0) throw new Error('dim and ffn must be multiples of 32 (block size)');
  if (!(s.scale > 0 && s.scale < 100)) throw new Error(`scale out of range: ${s.scale}`);
  if (!(s.eps > 0 && s.eps < 1)) throw new Error(`eps out of range: ${s.eps}`);
  if (!(s.ropeTheta > 0)) throw new Error(`rope theta out of range: ${s.ropeTheta}`);
  if (!Number.isInteger(s.seed) || s.seed < 0) throw new Error(`seed must be a non-negative integer, got ${s.seed}`);
  if (s.kquantSearch !== undefined && s.kquantSearch !== 'ref' && s.kquantSearch !== 'fast') throw new Error(`kquant search must be ref or fast, got ${s.kquantSearch}`);
  validateVocab(s);
}

const FILE_TYPE: Record<ModelDtype, LlamaFileType> = {
  f32: LlamaFileType.ALL_F32,
  f16: LlamaFileType.MOSTLY_F16,
  bf16: LlamaFileType.MOSTLY_BF16,
  q8_0: LlamaFileType.MOSTLY_Q8_0,
  q4_0: LlamaFileType.MOSTLY_Q4_0,
  q5_0: LlamaFileType.MOSTLY_Q5_0,
  q4_k_m: LlamaFileType.MOSTLY_Q4_K_M,
  q5_k_m: LlamaFileType.MOSTLY_Q5_K_M,
  q6_k: LlamaFileType.MOSTLY_Q6_K,
};

/** llama.cpp's use_more_bits: first and last eighth of the layers, and every third in between. */
function useMoreBits(i: number, n: number): boolean {
  return i < n / 8 || i >= (7 * n) / 8 || (i - Math.trunc(n / 8)) % 3 === 2;
}

/** Fallbacks of llama-quant.cpp for rows that are not a multiple of 256 (Q5_1 is not supported
 *  here, so Q5_K falls back to Q5_0). */
function kFallback(t: GgmlType, ne0: number): GgmlType {
  if (ne0 % 256 === 0) return t;
  if (t === GgmlType.Q4_K || t === GgmlType.Q5_K) return GgmlType.Q5_0;
  if (t === GgmlType.Q6_K) return GgmlType.Q8_0;
  return t;
}

/** Tensor type for a 2-D weight, following llama.cpp's recipe for the file type. */
export function weightType(dtype: ModelDtype, name: string, ne0: number, layer: number, nLayers: number, tied: boolean): GgmlType {
  switch (dtype) {
    case 'f32': return GgmlType.F32;
    case 'f16': return GgmlType.F16;
    case 'bf16': return GgmlType.BF16;
    case 'q8_0': return GgmlType.Q8_0;
    case 'q4_0': return GgmlType.Q4_0;
    case 'q5_0': return GgmlType.Q5_0;
    case 'q6_k': return kFallback(GgmlType.Q6_K, ne0);
    case 'q4_k_m':
    case 'q5_k_m': {
      const base = dtype === 'q4_k_m' ? GgmlType.Q4_K : GgmlType.Q5_K;
      const isOutput = name === 'output.weight' || (tied && name === 'token_embd.weight');
      if (isOutput) return ne0 % 256 === 0 ? GgmlType.Q6_K : GgmlType.Q8_0;
      if ((name.endsWith('.attn_v.weight') || name.endsWith('.ffn_down.weight')) && useMoreBits(layer, nLayers)) return kFallback(GgmlType.Q6_K, ne0);
      return kFallback(base, ne0);
    }
  }
}

interface TensorPlan {
  name: string;
  dims: number[];
  type: GgmlType;
  init: 'normal' | 'ones';
}

export function planTensors(s: ModelSpec, vocabSize: number): TensorPlan[] {
  const hd = s.dim / s.heads;
  const qDim = s.heads * hd;
  const kvDim = s.kvHeads * hd;
  const plans: TensorPlan[] = [];
  const w = (name: string, ne0: number, ne1: number, layer = 0) =>
    plans.push({ name, dims: [ne0, ne1], type: weightType(s.dtype, name, ne0, layer, s.layers, s.tied), init: 'normal' });
  const v = (name: string, n: number, init: 'normal' | 'ones') => plans.push({ name, dims: [n], type: GgmlType.F32, init });
  w('token_embd.weight', s.dim, vocabSize);
  for (let i = 0; i < s.layers; i++) {
    const p = `blk.${i}.`;
    v(`${p}attn_norm.weight`, s.dim, 'ones');
    w(`${p}attn_q.weight`, s.dim, qDim, i);
    w(`${p}attn_k.weight`, s.dim, kvDim, i);
    w(`${p}attn_v.weight`, s.dim, kvDim, i);
    if (s.arch === 'qwen2') {
      v(`${p}attn_q.bias`, qDim, 'normal');
      v(`${p}attn_k.bias`, kvDim, 'normal');
      v(`${p}attn_v.bias`, kvDim, 'normal');
    }
    w(`${p}attn_output.weight`, qDim, s.dim, i);
    v(`${p}ffn_norm.weight`, s.dim, 'ones');
    w(`${p}ffn_gate.weight`, s.dim, s.ffn, i);
    w(`${p}ffn_up.weight`, s.dim, s.ffn, i);
    w(`${p}ffn_down.weight`, s.ffn, s.dim, i);
  }
  v('output_norm.weight', s.dim, 'ones');
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
  const hd = spec.dim / spec.heads;
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
        if (p.init === 'ones') {
          const out = new Float32Array(ne0 * rows).fill(1);
          emit(new Uint8Array(out.buffer));
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
