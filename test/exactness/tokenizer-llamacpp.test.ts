// Tokenizer exactness: our TS tokenizer must give llama.cpp's ids, on models we generate, for the
// qwen2, llama3, gpt2 and default pre-tokenizers (real Qwen BPE vocabulary) and for a synthetic
// SentencePiece vocabulary. node-llama-cpp is installed on demand (tools/llamacpp/ensure.mjs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGgufHeader } from '../../src/gguf/gguf-reader.js';
import { loadLlamaCpp, type LlamaCppPeer, type PeerModel } from '../../src/peer/llamacpp.js';
import { createTokenizer, type Tokenizer } from '../../src/tokenizer/index.js';
import { getTestModel, type TestModelOptions } from '../helpers/models.js';
import { FIXED_CORPUS, randomCorpus } from './corpus.js';

// Tokenizer-only models: tiny shapes, full vocabulary.
const SHAPE: TestModelOptions = { dim: 32, layers: 1, heads: 1, kvHeads: 1, ffn: 32, dtype: 'f32', ctx: 512 };

const CASES: Array<{ name: string; opts: TestModelOptions; corpus: string[] }> = [
  { name: 'qwen2 pre (Qwen BPE)', opts: { ...SHAPE, name: 'tok-qwen2', pre: 'qwen2' }, corpus: [...FIXED_CORPUS, ...randomCorpus(1, 300)] },
  { name: 'llama3 pre (Qwen BPE, ignore_merges)', opts: { ...SHAPE, name: 'tok-llama3', pre: 'llama3' }, corpus: [...FIXED_CORPUS, ...randomCorpus(2, 200)] },
  { name: 'gpt2 pre', opts: { ...SHAPE, name: 'tok-gpt2', pre: 'gpt-2' }, corpus: [...FIXED_CORPUS, ...randomCorpus(3, 100)] },
  { name: 'default pre', opts: { ...SHAPE, name: 'tok-default', pre: 'default' }, corpus: [...FIXED_CORPUS, ...randomCorpus(4, 100)] },
  { name: 'SPM (llama model, synthetic 8k vocab)', opts: { ...SHAPE, name: 'tok-spm', vocab: 'spm', vocabLimit: 8000, arch: 'llama' }, corpus: [...FIXED_CORPUS, ...randomCorpus(5, 200)] },
];

let peer: LlamaCppPeer;

beforeAll(async () => {
  peer = await loadLlamaCpp();
}, 600_000);

afterAll(async () => {
  await peer?.dispose();
});

describe.each(CASES)('tokenizer vs llama.cpp: $name', ({ opts, corpus }) => {
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
});
