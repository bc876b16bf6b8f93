// The model generator: byte-identical output for the same spec, llama.cpp's Q4_K_M recipe with
// fallbacks for rows that are not a multiple of 256, vocab limits, ensureBuiltinModel reuse.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readGgufHeader } from '../../src/gguf/gguf-reader.js';
import { GgmlType } from '../../src/gguf/types.js';
import { builtinModelPath, ensureBuiltinModel, makeModel, planTensors, PRESETS, resolveSpec } from '../../src/model-maker/index.js';
import { createTokenizer } from '../../src/tokenizer/index.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-maker-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
const MINI = { dim: 64, layers: 2, heads: 2, kvHeads: 1, ffn: 128, vocabLimit: 1000 };

describe('model maker', () => {
  it('writes byte-identical files for the same spec and different ones for another seed', async () => {
    const spec = resolveSpec('tiny', { ...MINI, dtype: 'q4_k_m' });
    await makeModel(spec, join(dir, 'a.gguf'));
    await makeModel(spec, join(dir, 'b.gguf'));
    await makeModel({ ...spec, seed: 2 }, join(dir, 'c.gguf'));
    expect(sha(join(dir, 'a.gguf'))).toBe(sha(join(dir, 'b.gguf')));
    expect(sha(join(dir, 'a.gguf'))).not.toBe(sha(join(dir, 'c.gguf')));
  });

  it('writes the metadata llama.cpp needs and a working vocabulary under --vocab-limit', async () => {
    const path = join(dir, 'q.gguf');
    await makeModel(resolveSpec('builtin', { ...MINI, dtype: 'f16' }), path);
    const h = readGgufHeader(path);
    const md = h.metadata;
    expect(md).toMatchObject({
      'general.architecture': 'qwen2', 'general.file_type': 1, 'qwen2.embedding_length': 64, 'qwen2.block_count': 2,
      'qwen2.attention.head_count': 2, 'qwen2.attention.head_count_kv': 1, 'qwen2.feed_forward_length': 128, 'qwen2.context_length': 32768,
      'tokenizer.ggml.model': 'gpt2', 'tokenizer.ggml.pre': 'qwen2', 'tokenizer.ggml.add_bos_token': false,
    });
    const tokens = md['tokenizer.ggml.tokens'] as string[];
    expect(tokens.length).toBe(1000 + 26);
    const tok = createTokenizer(md);
    expect(tok.tokenText(tok.eos!)).toBe('<|im_end|>');
    const text = 'Hello, world! <|im_start|>user\nhé 你好 😀';
    expect(tok.decode(tok.encode(text, { parseSpecial: true }), { special: true })).toBe(text);
    // qwen2 has q/k/v biases; tied embeddings mean no output.weight.
    const names = h.tensors.map((t) => t.name);
    expect(names).toContain('blk.1.attn_q.bias');
    expect(names).not.toContain('output.weight');
    expect(h.tensors.find((t) => t.name === 'token_embd.weight')!.dims).toEqual([64, 1026]);
    expect(h.tensors.find((t) => t.name === 'blk.0.ffn_down.weight')!.dims).toEqual([128, 64]);
  });

  it('follows the Q4_K_M recipe with Q5_0/Q8_0 fallbacks for 896-wide rows (Qwen2.5-0.5B shapes)', () => {
    const spec = resolveSpec('small', { dtype: 'q4_k_m' });
    const t = Object.fromEntries(planTensors(spec, 151936).map((p) => [p.name, p.type]));
    expect(t['token_embd.weight']).toBe(GgmlType.Q8_0); // tied output: Q6_K, 896 % 256 != 0 -> Q8_0
    expect(t['blk.5.attn_q.weight']).toBe(GgmlType.Q5_0); // Q4_K -> Q5_0
    expect(t['blk.0.attn_v.weight']).toBe(GgmlType.Q8_0); // use_more_bits: Q6_K -> Q8_0
    expect(t['blk.0.ffn_down.weight']).toBe(GgmlType.Q6_K); // 4864-wide rows: real K-quant
    expect(t['blk.4.ffn_down.weight']).toBe(GgmlType.Q4_K);
    expect(t['blk.5.ffn_down.weight']).toBe(GgmlType.Q6_K); // (5 - 3) % 3 == 2
    expect(t['blk.0.attn_norm.weight']).toBe(GgmlType.F32);
    const medium = Object.fromEntries(planTensors(resolveSpec('medium', { dtype: 'q4_k_m' }), 151936).map((p) => [p.name, p.type]));
    expect(medium['token_embd.weight']).toBe(GgmlType.Q6_K);
    expect(medium['blk.10.attn_q.weight']).toBe(GgmlType.Q4_K);
  });

  it('rejects impossible shapes with a clear message', () => {
    expect(() => resolveSpec('tiny', { dim: 80 })).toThrow(/multiples of 32/);
    expect(() => resolveSpec('tiny', { heads: 3 })).toThrow(/heads/);
    expect(() => resolveSpec('tiny', { dtype: 'q3_k' as never })).toThrow(/dtype must be one of/);
    expect(() => resolveSpec('tiny', { vocabLimit: 10 })).toThrow(/vocab limit must be an integer in \[256/);
    // A pre-tokenizer no tokenizer knows would write a file no server loads.
    expect(() => resolveSpec('tiny', { pre: 'bogus' })).toThrow(/unsupported tokenizer.ggml.pre 'bogus'/);
    expect(resolveSpec('tiny', { pre: 'llama3' }).pre).toBe('llama3');
  });

  it('ensureBuiltinModel makes the built-in model once and then reuses it', async () => {
    const dataDir = join(dir, 'data');
    const [p1, p2] = await Promise.all([ensureBuiltinModel(dataDir), ensureBuiltinModel(dataDir)]);
    expect(p1).toBe(builtinModelPath(dataDir));
    expect(p2).toBe(p1);
    const mtime = statSync(p1).mtimeMs;
    expect(await ensureBuiltinModel(dataDir)).toBe(p1);
    expect(statSync(p1).mtimeMs).toBe(mtime);
    const md = readGgufHeader(p1).metadata;
    expect(md['general.name']).toBe(PRESETS.builtin.name);
    expect(md['tokenizer.chat_template']).toContain('<tool_call>');
    expect((md['tokenizer.ggml.tokens'] as string[]).length).toBe(151936);
  }, 120_000);
});
