// Token counting for the apply models with the served tokenizer: the built-in model's byte-level
// BPE (the Qwen vocabulary the model maker writes into builtin.gguf), built from the same metadata
// without reading the GGUF file, so usage matches what that model would count.
import { QWEN_PRE_TOKENIZER, qwenVocab } from '../assets/qwen-vocab.js';
import { createTokenizer, type Tokenizer } from '../tokenizer/index.js';

let cached: Tokenizer | null = null;

/** The built-in model's tokenizer (built once per thread, ~1 s). */
export function servedTokenizer(): Tokenizer {
  if (cached) return cached;
  const v = qwenVocab();  // the built-in preset writes the whole vocabulary
  cached = createTokenizer({
    'tokenizer.ggml.model': 'gpt2',
    'tokenizer.ggml.pre': QWEN_PRE_TOKENIZER,
    'tokenizer.ggml.tokens': v.tokens,
    'tokenizer.ggml.token_type': v.types,
    'tokenizer.ggml.merges': v.merges,
    'tokenizer.ggml.bos_token_id': v.bos,
    'tokenizer.ggml.eos_token_id': v.eos,
    'tokenizer.ggml.padding_token_id': v.pad,
    'tokenizer.ggml.add_bos_token': false,
  });
  return cached;
}

/** Tokens of the one user message as the ChatML prompt frames it (`<|im_start|>user … <|im_start|>assistant`). */
export function promptTokenCount(content: string): number {
  const tok = servedTokenizer();
  const framed = `<|im_start|>user\n${tok.literal(content)}<|im_end|>\n<|im_start|>assistant\n`;
  return tok.encode(framed, { addSpecial: false, parseSpecial: true }).length;
}

export interface Completion {
  content: string;
  tokens: number;
  truncated: boolean;
}

/** The completion's token count; past maxTokens the text is cut to its first maxTokens tokens. */
export function completionTokens(content: string, maxTokens: number | null): Completion {
  const tok = servedTokenizer();
  const ids = tok.encode(content, { addSpecial: false, parseSpecial: false });
  if (maxTokens === null || ids.length <= maxTokens) return { content, tokens: ids.length, truncated: false };
  return { content: tok.decode(ids.subarray(0, maxTokens)), tokens: maxTokens, truncated: true };
}
