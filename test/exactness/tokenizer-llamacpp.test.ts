// Tokenizer exactness: our TS tokenizer must give llama.cpp's ids, on models we generate: the real
// vocabularies of the model families (full size: qwen3, llama3, gemma3, llama2, gpt-oss,
// deepseek-v3), the project's Qwen BPE vocabulary under the qwen2, llama3, tekken, gpt2 and
// default pre-tokenizers, and a synthetic SentencePiece vocabulary. node-llama-cpp is installed on
// demand (tools/llamacpp/ensure.mjs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGgufHeader } from '../../src/gguf/gguf-reader.js';
import { loadLlamaCpp, type LlamaCppPeer, type PeerModel } from '../../src/peer/llamacpp.js';
import { createTokenizer, type Tokenizer } from '../../src/tokenizer/index.js';
import { getTestModel, type TestModelOptions } from '../helpers/models.js';
import { FIXED_CORPUS, randomCorpus } from './corpus.js';

// Tokenizer-only models: tiny shapes, full vocabulary.
const SHAPE: TestModelOptions = { dim: 32, layers: 1, heads: 1, kvHeads: 1, ffn: 32, dtype: 'f32', ctx: 512 };

// The special tokens of the real families written as text (chat turns, tool and channel markers),
// beside the Qwen ones the corpus has.
const FAMILY_TEXTS = [
  '<bos><start_of_turn>user\nWho are you?<end_of_turn>\n<start_of_turn>model\nA model.<end_of_turn>\n<eos>',
  '<start_of_image><image_soft_token><end_of_image> <unused0><mask>[multimodal]',
  '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>',
  '<s>[INST] <<SYS>>\nsys\n<</SYS>>\n\nquestion [/INST] answer </s><s>[INST] again [/INST]',
  '<|start|>system<|message|>You are ChatGPT.<|end|><|start|>assistant<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final<|message|>Hi!<|return|>',
  '<|startoftext|>x<|endoftext|> <|constrain|>json<|call|>',
  '<｜begin▁of▁sentence｜>sys<｜User｜>hi<｜Assistant｜>hello<｜end▁of▁sentence｜><｜tool▁calls▁begin｜>',
  // case changes inside words (gpt-4o and tekken split them; non-ASCII letters count as both cases)
  'helloÉCOLE CamelCaseWord naïveTEXT ÀÉÎõü XMLHttpRequest getHTTPResponseCode',
  // letters, digits and marks assigned after Unicode 15.1 (llama.cpp's table): uncategorised there
  'Cyrillic \u1C89\u1C8Aab, Garay \u{10D50}\u{10D51}x\u{10D40}\u{10D41}9 1\u{10D40}23 4\u{10D41}\u{10D42}567, Tulu \u{11380}\u{113B8}, emoji \u{1FAE9}!',
  '  two  spaces\n\n\nthree newlines\t\ttabs   ▁▁ already-escaped ▁x',
];

const corpus = (seed: number, n: number): string[] => [...FIXED_CORPUS, ...FAMILY_TEXTS, ...randomCorpus(seed, n)];

const CASES: Array<{ name: string; opts: TestModelOptions; corpus: string[] }> = [
  { name: 'Qwen3 vocabulary (qwen2 pre)', opts: { ...SHAPE, name: 'tok-qwen3', vocab: 'qwen3' }, corpus: corpus(11, 200) },
  { name: 'Llama 3 vocabulary (llama-bpe pre)', opts: { ...SHAPE, name: 'tok-llama3-vocab', vocab: 'llama3' }, corpus: corpus(12, 200) },
  { name: 'gpt-oss vocabulary (gpt-4o pre)', opts: { ...SHAPE, name: 'tok-gptoss', vocab: 'gptoss' }, corpus: corpus(13, 200) },
  { name: 'DeepSeek-V3 vocabulary (deepseek-v3 pre)', opts: { ...SHAPE, name: 'tok-deepseek-v3', vocab: 'deepseek_v3' }, corpus: corpus(14, 200) },
  { name: 'Gemma 3 vocabulary (SPM, 262k, no space prefix)', opts: { ...SHAPE, name: 'tok-gemma3', vocab: 'gemma3', arch: 'llama' }, corpus: corpus(15, 200) },
  { name: 'Llama 2 vocabulary (SPM, 32k, space prefix)', opts: { ...SHAPE, name: 'tok-llama2', vocab: 'llama2', arch: 'llama' }, corpus: corpus(16, 200) },
  // Cut-down real vocabularies (--vocab-limit): a prefix plus the added (and byte) tokens.
  { name: 'Llama 3 vocabulary, first 3000 tokens', opts: { ...SHAPE, name: 'tok-llama3-3k', vocab: 'llama3', vocabLimit: 3000 }, corpus: corpus(18, 100) },
  { name: 'Gemma 3 vocabulary, first 3000 tokens', opts: { ...SHAPE, name: 'tok-gemma3-3k', vocab: 'gemma3', vocabLimit: 3000, arch: 'llama' }, corpus: corpus(19, 100) },
  { name: 'tekken pre (Qwen BPE, ignore_merges)', opts: { ...SHAPE, name: 'tok-tekken', pre: 'tekken' }, corpus: corpus(17, 200) },
  { name: 'qwen2 pre (Qwen BPE)', opts: { ...SHAPE, name: 'tok-qwen2', pre: 'qwen2' }, corpus: [...FIXED_CORPUS, ...randomCorpus(1, 300)] },
  { name: 'llama3 pre (Qwen BPE, ignore_merges)', opts: { ...SHAPE, name: 'tok-llama3', pre: 'llama3' }, corpus: [...FIXED_CORPUS, ...randomCorpus(2, 200)] },
  { name: 'gpt2 pre', opts: { ...SHAPE, name: 'tok-gpt2', pre: 'gpt-2' }, corpus: [...FIXED_CORPUS, ...randomCorpus(3, 100)] },
  { name: 'default pre', opts: { ...SHAPE, name: 'tok-default', pre: 'default' }, corpus: [...FIXED_CORPUS, ...randomCorpus(4, 100)] },
  { name: 'SPM (llama model, synthetic 8k vocab)', opts: { ...SHAPE, name: 'tok-spm', vocab: 'spm', vocabLimit: 8000, arch: 'llama' }, corpus: [...FIXED_CORPUS, ...randomCorpus(5, 200)] },
];

// TOK_CASES=tok-gemma3,tok-llama2 runs only those cases (by model name) while working on one.
const only = process.env['TOK_CASES']?.split(',');
const cases = only ? CASES.filter((c) => only.some((o) => c.opts.name === o)) : CASES;

let peer: LlamaCppPeer;

beforeAll(async () => {
  peer = await loadLlamaCpp();
}, 600_000);

afterAll(async () => {
  await peer?.dispose();
});

describe.each(cases)('tokenizer vs llama.cpp: $name', ({ opts, corpus }) => {
  let ref: PeerModel;
  let tok: Tokenizer;
  beforeAll(async () => {
    const path = await getTestModel(opts);
    tok = createTokenizer(readGgufHeader(path).metadata);
    ref = await peer.loadModel(path);
  }, 300_000);
  afterAll(async () => {
    await ref?.dispose();
  });

  for (const parseSpecial of [false, true]) {
    it(`same ids on ${corpus.length} texts (parseSpecial=${parseSpecial})`, () => {
      const mismatches: string[] = [];
      for (const text of corpus) {
        const want = ref.tokenize(text, parseSpecial);
        const got = Array.from(tok.encode(text, { addSpecial: false, parseSpecial }));
        if (want.join(',') !== got.join(',')) mismatches.push(`${JSON.stringify(text)}\n  llama.cpp ${want.join(',')}\n  ours      ${got.join(',')}`);
      }
      expect(mismatches.slice(0, 5).join('\n'), `${mismatches.length} of ${corpus.length} texts differ`).toBe('');
    });
  }

  it('decodes llama.cpp ids to the same text llama.cpp does (clean-up spaces included)', () => {
    const mismatches: string[] = [];
    for (const text of corpus) {
      const ids = ref.tokenize(text, false);
      const want = ref.detokenize(ids, false);
      const got = tok.decode(ids);
      if (want !== got) mismatches.push(`${JSON.stringify(text)}: llama.cpp ${JSON.stringify(want)} ours ${JSON.stringify(got)}`);
    }
    expect(mismatches.slice(0, 5).join('\n'), `${mismatches.length} differ`).toBe('');
  });

  for (const special of [false, true]) {
    it(`decodes ids with special tokens in them as llama.cpp does (special=${special})`, () => {
      const mismatches: string[] = [];
      for (const text of corpus) {
        const ids = ref.tokenize(text, true);
        const want = ref.detokenize(ids, special);
        const got = tok.decode(ids, { special });
        if (want !== got) mismatches.push(`${JSON.stringify(text)}: llama.cpp ${JSON.stringify(want)} ours ${JSON.stringify(got)}`);
      }
      expect(mismatches.slice(0, 5).join('\n'), `${mismatches.length} differ`).toBe('');
    });
  }
});
