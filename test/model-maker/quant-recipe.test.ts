// The per-tensor type recipe of the quantized dtypes (llama.cpp's llama_tensor_get_type without an
// importance matrix), on the presets' real shapes: 896-wide rows (Qwen2.5-0.5B) take llama.cpp's
// fallbacks, 1536-wide rows (Qwen2.5-1.5B) the K-quants themselves.
import { describe, expect, it } from 'vitest';
import { GgmlType, LlamaFileType } from '../../src/gguf/types.js';
import { planTensors, resolveSpec } from '../../src/model-maker/index.js';
import { FILE_TYPE, kFallback, useMoreBits, type ModelDtype } from '../../src/model-maker/quant-recipe.js';

function types(preset: 'small' | 'medium', dtype: ModelDtype, over = {}): Record<string, GgmlType> {
  return Object.fromEntries(planTensors(resolveSpec(preset, { dtype, ...over }), 151936).map((p) => [p.name, p.type]));
}

describe('quantization recipe', () => {
  it('use_more_bits and the layer thresholds use integer division, as llama.cpp', () => {
    expect([0, 1].map((i) => useMoreBits(i, 2))).toEqual([false, true]); // 2/8 == 0, 14/8 == 1
    const more24 = Array.from({ length: 24 }, (_, i) => i).filter((i) => useMoreBits(i, 24));
    expect(more24).toEqual([0, 1, 2, 5, 8, 11, 14, 17, 20, 21, 22, 23]);
  });

  it('falls back like llama-quant.cpp for rows that are not a multiple of 256', () => {
    expect(kFallback(GgmlType.Q2_K, 896)).toBe(GgmlType.IQ4_NL);
    expect(kFallback(GgmlType.Q3_K, 896)).toBe(GgmlType.IQ4_NL);
    expect(kFallback(GgmlType.IQ4_XS, 896)).toBe(GgmlType.IQ4_NL);
    expect(kFallback(GgmlType.Q4_K, 896)).toBe(GgmlType.Q5_0);
    expect(kFallback(GgmlType.Q5_K, 896)).toBe(GgmlType.Q5_1);
    expect(kFallback(GgmlType.Q6_K, 896)).toBe(GgmlType.Q8_0);
    expect(kFallback(GgmlType.Q3_K, 1536)).toBe(GgmlType.Q3_K);
    expect(kFallback(GgmlType.Q3_K, 48)).toBe(GgmlType.F16); // not even a multiple of 32
  });

  it('Q3_K_M: attn_v Q5_K (first 2 layers) / Q4_K, ffn_down Q5_K (first n/16) / Q4_K, attn_output Q4_K', () => {
    const m = types('medium', 'q3_k_m'); // 28 layers: 28/16 == 1
    expect(m['token_embd.weight']).toBe(GgmlType.Q6_K);
    expect(m['blk.0.attn_v.weight']).toBe(GgmlType.Q5_K);
    expect(m['blk.1.attn_v.weight']).toBe(GgmlType.Q5_K);
    expect(m['blk.2.attn_v.weight']).toBe(GgmlType.Q4_K);
    expect(m['blk.0.ffn_down.weight']).toBe(GgmlType.Q5_K);
    expect(m['blk.1.ffn_down.weight']).toBe(GgmlType.Q4_K);
    expect(m['blk.7.attn_output.weight']).toBe(GgmlType.Q4_K);
    expect(m['blk.7.attn_q.weight']).toBe(GgmlType.Q3_K);
    expect(m['blk.7.ffn_up.weight']).toBe(GgmlType.Q3_K);
    const s = types('small', 'q3_k_m');
    expect(s['token_embd.weight']).toBe(GgmlType.Q8_0); // tied output, 896 wide
    expect(s['blk.7.attn_q.weight']).toBe(GgmlType.IQ4_NL);
    expect(s['blk.0.attn_v.weight']).toBe(GgmlType.Q5_1);
    expect(s['blk.3.attn_v.weight']).toBe(GgmlType.Q5_0);
    expect(s['blk.0.ffn_down.weight']).toBe(GgmlType.Q5_K); // 4864 wide
  });

  it('Q3_K_S / Q3_K_L and Q2_K', () => {
    const sm = types('medium', 'q3_k_s');
    for (const n of ['blk.3.attn_v.weight', 'blk.3.ffn_down.weight', 'blk.3.attn_output.weight', 'blk.3.ffn_gate.weight']) expect(sm[n], n).toBe(GgmlType.Q3_K);
    const l = types('medium', 'q3_k_l');
    for (const n of ['blk.3.attn_v.weight', 'blk.3.ffn_down.weight', 'blk.3.attn_output.weight']) expect(l[n], n).toBe(GgmlType.Q5_K);
    expect(l['blk.3.attn_k.weight']).toBe(GgmlType.Q3_K);
    const q2 = types('medium', 'q2_k'); // n_head / n_head_kv = 6: attn_v gets Q4_K
    expect(q2['blk.3.attn_v.weight']).toBe(GgmlType.Q4_K);
    expect(q2['blk.3.ffn_down.weight']).toBe(GgmlType.Q3_K);
    expect(q2['blk.3.attn_output.weight']).toBe(GgmlType.Q3_K);
    expect(q2['blk.3.ffn_gate.weight']).toBe(GgmlType.Q2_K);
    expect(types('medium', 'q2_k', { kvHeads: 4 })['blk.3.attn_v.weight']).toBe(GgmlType.Q3_K); // n_gqa 3
  });

  it('IQ4_NL / IQ4_XS: attn_v Q5_K when n_gqa >= 4, ffn_down Q5_K in the first n/8 layers', () => {
    for (const [dtype, base] of [['iq4_xs', GgmlType.IQ4_XS], ['iq4_nl', GgmlType.IQ4_NL]] as const) {
      const m = types('medium', dtype);
      expect(m['blk.9.attn_v.weight']).toBe(GgmlType.Q5_K);
      expect(m['blk.2.ffn_down.weight']).toBe(GgmlType.Q5_K); // 28/8 == 3
      expect(m['blk.3.ffn_down.weight']).toBe(base);
      expect(m['blk.9.attn_q.weight']).toBe(base);
      expect(m['token_embd.weight']).toBe(GgmlType.Q6_K);
      expect(types('medium', dtype, { kvHeads: 4 })['blk.9.attn_v.weight']).toBe(base);
    }
    expect(types('small', 'iq4_xs')['blk.9.attn_q.weight']).toBe(GgmlType.IQ4_NL);
  });

  it('Q4_1 / Q5_1: every weight at the type, the output Q6_K', () => {
    for (const [dtype, base] of [['q4_1', GgmlType.Q4_1], ['q5_1', GgmlType.Q5_1]] as const) {
      const m = types('medium', dtype);
      expect(m['token_embd.weight']).toBe(GgmlType.Q6_K);
      for (const n of ['blk.0.attn_v.weight', 'blk.0.ffn_down.weight', 'blk.5.attn_output.weight', 'blk.5.ffn_up.weight']) expect(m[n], n).toBe(base);
      const untied = types('medium', dtype, { tied: false });
      expect(untied['token_embd.weight']).toBe(base);
      expect(untied['output.weight']).toBe(GgmlType.Q6_K);
    }
  });

  it('declares llama.cpp file types', () => {
    expect(FILE_TYPE.q4_1).toBe(3);
    expect(FILE_TYPE.q5_1).toBe(9);
    expect(FILE_TYPE.q2_k).toBe(10);
    expect([FILE_TYPE.q3_k_s, FILE_TYPE.q3_k_m, FILE_TYPE.q3_k_l]).toEqual([11, 12, 13]);
    expect(FILE_TYPE.iq4_nl).toBe(LlamaFileType.MOSTLY_IQ4_NL);
    expect(FILE_TYPE.iq4_xs).toBe(30);
  });
});
