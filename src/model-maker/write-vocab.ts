// The tokenizer part of a generated model: which vocabulary a spec names, checked and written as
// GGUF metadata. 'qwen' (Qwen BPE + Qwen2.5 template, the built-in model's) and 'spm' (synthetic
// SentencePiece) are this project's own; the others are real families (hf-vocab.ts).
import type { GgufWriter } from '../gguf/gguf-writer.js';
import { GgufValueType } from '../gguf/types.js';
import { resolvePreTokenizer } from '../tokenizer/pre-tokenizers.js';
import { QWEN25_CHAT_TEMPLATE } from '../assets/qwen25-chat-template.js';
import { GPT_OSS_CHAT_TEMPLATE } from './harmony-template.js';
import { HF_VOCABS, hfBaseVocabSize, hfVocab, isHfVocab, writeHfVocab, type HfVocabName } from './hf-vocab.js';
import { qwenVocab } from '../assets/qwen-vocab.js';
import { syntheticSpmVocab } from './spm-vocab.js';

export const VOCABS = ['qwen', 'spm', ...HF_VOCABS] as const;
export type VocabName = 'qwen' | 'spm' | HfVocabName;

export interface VocabSpec {
  vocab: VocabName;
  vocabLimit?: number;
  /** tokenizer.ggml.pre for the 'qwen' vocabulary (real families carry their own). */
  pre: string;
}

export function validateVocab(s: VocabSpec): void {
  if (!(VOCABS as readonly string[]).includes(s.vocab)) throw new Error(`vocab must be one of ${VOCABS.join(', ')}, got ${s.vocab}`);
  // A BPE vocabulary's pre-tokenizer must be one the tokenizer knows, or no server could load the file.
  if (s.vocab === 'qwen') resolvePreTokenizer(s.pre);
  if (s.vocabLimit === undefined) return;
  const [min, max] = s.vocab === 'qwen' ? [256, 151643] : s.vocab === 'spm' ? [400, 151643] : [1, hfBaseVocabSize(s.vocab)];
  if (!Number.isInteger(s.vocabLimit) || s.vocabLimit < min || s.vocabLimit > max) {
    throw new Error(`vocab limit must be an integer in [${min}, ${max}], got ${s.vocabLimit}`);
  }
}

/** Writes the tokenizer metadata of s; returns the vocabulary size (rows of token_embd). */
export function writeVocab(w: GgufWriter, s: VocabSpec): number {
  if (isHfVocab(s.vocab)) {
    const v = hfVocab(s.vocab, s.vocabLimit);
    // The gptoss package ships no template; gpt-oss GGUFs carry the model's own (harmony).
    if (s.vocab === 'gptoss' && v.chatTemplate === null) v.chatTemplate = GPT_OSS_CHAT_TEMPLATE;
    return writeHfVocab(w, v);
  }
  if (s.vocab === 'qwen') {
    const v = qwenVocab(s.vocabLimit);
    w.string('tokenizer.ggml.model', 'gpt2');
    w.string('tokenizer.ggml.pre', s.pre);
    w.array('tokenizer.ggml.tokens', GgufValueType.STRING, v.tokens);
    w.array('tokenizer.ggml.token_type', GgufValueType.INT32, v.types);
    w.array('tokenizer.ggml.merges', GgufValueType.STRING, v.merges);
    w.u32('tokenizer.ggml.bos_token_id', v.bos);
    w.u32('tokenizer.ggml.eos_token_id', v.eos);
    w.u32('tokenizer.ggml.padding_token_id', v.pad);
    // Explicit ids, so llama.cpp does not guess them from token texts (its guess depends on hash order).
    const special: Array<[string, string]> = [
      ['tokenizer.ggml.eot_token_id', '<|im_end|>'],
      ['tokenizer.ggml.fim_pre_token_id', '<|fim_prefix|>'],
      ['tokenizer.ggml.fim_suf_token_id', '<|fim_suffix|>'],
      ['tokenizer.ggml.fim_mid_token_id', '<|fim_middle|>'],
      ['tokenizer.ggml.fim_pad_token_id', '<|fim_pad|>'],
      ['tokenizer.ggml.fim_rep_token_id', '<|repo_name|>'],
      ['tokenizer.ggml.fim_sep_token_id', '<|file_sep|>'],
    ];
    for (const [key, text] of special) {
      const id = v.added.get(text);
      if (id !== undefined) w.u32(key, id);
    }
    w.bool('tokenizer.ggml.add_bos_token', false);
    w.string('tokenizer.chat_template', QWEN25_CHAT_TEMPLATE);
    return v.tokens.length;
  }
  const v = syntheticSpmVocab(s.vocabLimit ?? 8000);
  w.string('tokenizer.ggml.model', 'llama');
  w.array('tokenizer.ggml.tokens', GgufValueType.STRING, v.tokens);
  w.array('tokenizer.ggml.scores', GgufValueType.FLOAT32, v.scores);
  w.array('tokenizer.ggml.token_type', GgufValueType.INT32, v.types);
  w.u32('tokenizer.ggml.bos_token_id', v.bos);
  w.u32('tokenizer.ggml.eos_token_id', v.eos);
  w.u32('tokenizer.ggml.unknown_token_id', v.unk);
  w.bool('tokenizer.ggml.add_bos_token', true);
  w.bool('tokenizer.ggml.add_eos_token', false);
  return v.tokens.length;
}
