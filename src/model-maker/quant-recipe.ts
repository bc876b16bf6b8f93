// Which tensor type each weight of a generated model gets, per model dtype: llama.cpp's recipe
// (llama-quant.cpp, llama_tensor_get_type, without an importance matrix) for the file types the
// maker writes, and the general.file_type each dtype declares.
import { GgmlType, LlamaFileType } from '../gguf/types.js';

export const DTYPES = [
  'f32', 'f16', 'bf16', 'q8_0', 'q4_0', 'q5_0', 'q4_k_m', 'q5_k_m', 'q6_k',
  'q4_1', 'q5_1', 'q2_k', 'q3_k_s', 'q3_k_m', 'q3_k_l', 'iq4_nl', 'iq4_xs', 'mxfp4_moe',
] as const;
export type ModelDtype = (typeof DTYPES)[number];

export const FILE_TYPE: Record<ModelDtype, LlamaFileType> = {
  f32: LlamaFileType.ALL_F32,
  f16: LlamaFileType.MOSTLY_F16,
  bf16: LlamaFileType.MOSTLY_BF16,
  q8_0: LlamaFileType.MOSTLY_Q8_0,
  q4_0: LlamaFileType.MOSTLY_Q4_0,
  q5_0: LlamaFileType.MOSTLY_Q5_0,
  q4_k_m: LlamaFileType.MOSTLY_Q4_K_M,
  q5_k_m: LlamaFileType.MOSTLY_Q5_K_M,
  q6_k: LlamaFileType.MOSTLY_Q6_K,
  q4_1: LlamaFileType.MOSTLY_Q4_1,
  q5_1: LlamaFileType.MOSTLY_Q5_1,
  q2_k: LlamaFileType.MOSTLY_Q2_K,
  q3_k_s: LlamaFileType.MOSTLY_Q3_K_S,
  q3_k_m: LlamaFileType.MOSTLY_Q3_K_M,
  q3_k_l: LlamaFileType.MOSTLY_Q3_K_L,
  iq4_nl: LlamaFileType.MOSTLY_IQ4_NL,
  iq4_xs: LlamaFileType.MOSTLY_IQ4_XS,
  mxfp4_moe: LlamaFileType.MOSTLY_MXFP4_MOE,
};

/** C integer division (llama.cpp's layer thresholds are ints: 2 layers have n/8 == 0). */
const idiv = (a: number, b: number) => Math.trunc(a / b);

/** llama.cpp's use_more_bits: first and last eighth of the layers, and every third in between. */
export function useMoreBits(i: number, n: number): boolean {
  return i < idiv(n, 8) || i >= idiv(7 * n, 8) || (i - idiv(n, 8)) % 3 === 2;
}

/** llama-quant.cpp's fallbacks for rows whose length is not a multiple of the type's block
 *  (256 for the K-quants and IQ4_XS); F16 when even the fallback's block does not divide it. */
export function kFallback(t: GgmlType, ne0: number): GgmlType {
  const fits = (u: GgmlType) => ne0 % (u === GgmlType.F16 ? 1 : blockElems(u)) === 0;
  if (fits(t)) return t;
  let f: GgmlType;
  switch (t) {
    case GgmlType.Q2_K:
    case GgmlType.Q3_K:
    case GgmlType.IQ4_XS: f = GgmlType.IQ4_NL; break;
    case GgmlType.Q4_K: f = GgmlType.Q5_0; break;
    case GgmlType.Q5_K: f = GgmlType.Q5_1; break;
    case GgmlType.Q6_K: f = GgmlType.Q8_0; break;
    default: f = GgmlType.F16;
  }
  return fits(f) ? f : GgmlType.F16;
}

function blockElems(t: GgmlType): number {
  switch (t) {
    case GgmlType.Q2_K: case GgmlType.Q3_K: case GgmlType.Q4_K: case GgmlType.Q5_K: case GgmlType.Q6_K: case GgmlType.IQ4_XS:
      return 256;
    case GgmlType.F32: case GgmlType.F16: case GgmlType.BF16:
      return 1;
    default:
      return 32;
  }
}

/** The dtype's default type (llama.cpp's default_type for the file type). */
function baseType(dtype: ModelDtype): GgmlType {
  switch (dtype) {
    case 'f32': return GgmlType.F32;
    case 'f16': return GgmlType.F16;
    case 'bf16': return GgmlType.BF16;
    case 'q8_0': return GgmlType.Q8_0;
    case 'q4_0': return GgmlType.Q4_0;
    case 'q5_0': return GgmlType.Q5_0;
    case 'q4_1': return GgmlType.Q4_1;
    case 'q5_1': return GgmlType.Q5_1;
    case 'q2_k': return GgmlType.Q2_K;
    case 'q3_k_s': case 'q3_k_m': case 'q3_k_l': return GgmlType.Q3_K;
    case 'q4_k_m': return GgmlType.Q4_K;
    case 'q5_k_m': return GgmlType.Q5_K;
    case 'q6_k': return GgmlType.Q6_K;
    case 'iq4_nl': return GgmlType.IQ4_NL;
    case 'iq4_xs': return GgmlType.IQ4_XS;
    case 'mxfp4_moe': return GgmlType.Q8_0;
  }
}

/**
 * Tensor type for a 2-D weight, following llama.cpp's recipe for the file type. `layer` is the
 * block index (llama.cpp's i_attention_wv / i_ffn_down counters for a dense model), `nGqa` is
 * n_head / n_head_kv (some recipes give attn_v more bits when K/V are shared by 4+ heads).
 * f32/f16/bf16/q8_0/q4_0/q5_0 files keep every weight at their type (the maker's existing files,
 * as llama-quantize --pure writes them).
 */
export function weightType(dtype: ModelDtype, name: string, ne0: number, layer: number, nLayers: number, tied: boolean, nGqa = 1): GgmlType {
  const base = baseType(dtype);
  switch (dtype) {
    case 'f32': case 'f16': case 'bf16': case 'q8_0': case 'q4_0': case 'q5_0':
      return base;
    case 'q6_k':
      return kFallback(base, ne0);
    case 'mxfp4_moe':
      // llama-quant's MXFP4_MOE: stacked experts MXFP4, every other weight (the LM head too) Q8_0.
      return name.endsWith('_exps.weight') ? GgmlType.MXFP4 : base;
    default:
      break;
  }
  const isOutput = name === 'output.weight' || (tied && name === 'token_embd.weight');
  if (isOutput) return ne0 % 256 === 0 ? GgmlType.Q6_K : GgmlType.Q8_0;
  let t = base;
  if (name.endsWith('.attn_v.weight')) {
    if (dtype === 'q2_k') t = nGqa >= 4 ? GgmlType.Q4_K : GgmlType.Q3_K;
    else if (dtype === 'q3_k_m') t = layer < 2 ? GgmlType.Q5_K : GgmlType.Q4_K;
    else if (dtype === 'q3_k_l') t = GgmlType.Q5_K;
    else if ((dtype === 'iq4_nl' || dtype === 'iq4_xs') && nGqa >= 4) t = GgmlType.Q5_K;
    else if ((dtype === 'q4_k_m' || dtype === 'q5_k_m') && useMoreBits(layer, nLayers)) t = GgmlType.Q6_K;
  } else if (name.endsWith('.ffn_down.weight')) {
    if (dtype === 'q2_k') t = GgmlType.Q3_K;
    else if (dtype === 'q3_k_m') t = layer < idiv(nLayers, 16) ? GgmlType.Q5_K : GgmlType.Q4_K;
    else if (dtype === 'q3_k_l') t = GgmlType.Q5_K;
    else if (dtype === 'q4_k_m' && useMoreBits(layer, nLayers)) t = GgmlType.Q6_K;
    else if ((dtype === 'iq4_nl' || dtype === 'iq4_xs') && layer < idiv(nLayers, 8)) t = GgmlType.Q5_K;
    else if (dtype === 'q5_k_m' && useMoreBits(layer, nLayers)) t = GgmlType.Q6_K;
  } else if (name.endsWith('.attn_output.weight')) {
    if (dtype === 'q2_k') t = GgmlType.Q3_K;
    else if (dtype === 'q3_k_m') t = GgmlType.Q4_K;
    else if (dtype === 'q3_k_l') t = GgmlType.Q5_K;
  } else if (name.endsWith('.attn_qkv.weight')) {  // fused Q/K/V (phi3)
    if (dtype === 'q3_k_m' || dtype === 'q3_k_l') t = GgmlType.Q4_K;
    else if (dtype === 'q4_k_m') t = GgmlType.Q5_K;
    else if (dtype === 'q5_k_m') t = GgmlType.Q6_K;
  }
  return kFallback(t, ne0);
}
