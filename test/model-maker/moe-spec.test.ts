// The model maker's mixture-of-experts layouts: qwen3moe and Mixtral (llama with experts) as
// llama.cpp's converter writes them (f32 router, stacked expert tensors, expert metadata keys).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readGgufHeader } from '../../src/gguf/gguf-reader.js';
import { GgmlType } from '../../src/gguf/types.js';
import { makeModel, planTensors, resolveSpec } from '../../src/model-maker/index.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-moe-maker-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MINI = { dim: 64, layers: 2, heads: 2, kvHeads: 1, ffn: 128, vocabLimit: 1000 };

describe('model maker: mixture of experts', () => {
  it('plans an f32 router and stacked experts instead of the dense FFN', () => {
    const spec = resolveSpec('tiny', { ...MINI, arch: 'qwen3moe', experts: 8, expertsUsed: 2, expertFfn: 96, dtype: 'q8_0' });
    const plans = Object.fromEntries(planTensors(spec, 1000).map((p) => [p.name, p]));
    expect(plans['blk.1.ffn_gate_inp.weight']).toMatchObject({ dims: [64, 8], type: GgmlType.F32 });
    expect(plans['blk.1.ffn_gate_exps.weight']).toMatchObject({ dims: [64, 96, 8], type: GgmlType.Q8_0 });
    expect(plans['blk.1.ffn_up_exps.weight']).toMatchObject({ dims: [64, 96, 8], type: GgmlType.Q8_0 });
    expect(plans['blk.1.ffn_down_exps.weight']).toMatchObject({ dims: [96, 64, 8], type: GgmlType.Q8_0 });
    expect(plans['blk.1.attn_q_norm.weight']).toBeDefined();
    for (const name of ['ffn_gate', 'ffn_up', 'ffn_down']) expect(plans[`blk.1.${name}.weight`]).toBeUndefined();
  });

  it('writes the expert metadata keys (expert_feed_forward_length for qwen3moe only)', async () => {
    const q = await makeModel(resolveSpec('tiny', { ...MINI, arch: 'qwen3moe', experts: 4, expertsUsed: 2, expertFfn: 64, dtype: 'f32' }), join(dir, 'q.gguf'));
    const qm = readGgufHeader(q.path).metadata;
    expect([qm['qwen3moe.expert_count'], qm['qwen3moe.expert_used_count'], qm['qwen3moe.expert_feed_forward_length']]).toEqual([4, 2, 64]);
    const m = await makeModel(resolveSpec('tiny', { ...MINI, arch: 'llama', experts: 4, expertsUsed: 2, dtype: 'f32' }), join(dir, 'm.gguf'));
    const h = readGgufHeader(m.path);
    expect([h.metadata['llama.expert_count'], h.metadata['llama.expert_used_count']]).toEqual([4, 2]);
    expect(h.metadata['llama.expert_feed_forward_length']).toBeUndefined();
    expect(h.tensors.find((t) => t.name === 'blk.0.ffn_up_exps.weight')?.dims).toEqual([64, 128, 4]);
  });

  it('rejects expert options that do not fit the family', () => {
    expect(() => resolveSpec('tiny', { arch: 'qwen3moe' })).toThrow(/qwen3moe needs experts/);
    expect(() => resolveSpec('tiny', { arch: 'qwen2', experts: 4, expertsUsed: 2 })).toThrow(/qwen2 has no experts/);
    expect(() => resolveSpec('tiny', { arch: 'qwen3moe', experts: 4, expertsUsed: 5 })).toThrow(/expertsUsed must be/);
    expect(() => resolveSpec('tiny', { arch: 'llama', experts: 4, expertsUsed: 2, expertFfn: 256 })).toThrow(/set ffn, not expertFfn/);
    expect(() => resolveSpec('tiny', { arch: 'qwen3moe', experts: 4, expertsUsed: 2, expertFfn: 100 })).toThrow(/multiple of 32/);
  });
});
