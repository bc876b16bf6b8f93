// Pre-tokenizer regexes of llama.cpp (src/llama-vocab.cpp, llm_tokenizer_bpe; the version node-llama-cpp
// 3.22.1 ships), as JS regexes.
// llama.cpp matches `\s` against Unicode White_Space (its own table, which includes U+0085 and
// excludes U+FEFF), so `\s`/`\S` are spelled out with that set instead of JS's own.

const WS = '\\t\\n\\v\\f\\r \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
const S = `[${WS}]`;
const NS = `[^${WS}]`;

function re(src: string): RegExp {
  return new RegExp(src.replaceAll('\\s', S).replaceAll('\\S', NS).replaceAll(`[^${S}`, `[^${WS}`), 'gu');
}

// `[^\s\p{L}\p{N}]` becomes `[^[WS]...` after the \s substitution; re() folds it back into one class.
const CONTRACTIONS = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";
const GPT2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)";

export const PRE_TOKENIZER_REGEXES: Record<string, RegExp[]> = {
  default: [re('[\\p{P}$+<=>^~|]+'), re(GPT2), re('\\p{N}+'), re('[0-9][0-9][0-9]')],
  gpt2: [re(GPT2)],
  llama3: [re(`${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`)],
  qwen2: [re(`${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`)],
  qwen35: [re(`${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?[\\p{L}\\p{M}]+|\\p{N}| ?[^\\s\\p{L}\\p{M}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`)],
};

/** tokenizer.ggml.pre names llama.cpp maps onto each regex set (the ones this project supports). */
const ALIASES: Record<string, string> = {
  '': 'default',
  default: 'default',
  gpt2: 'gpt2',
  'gpt-2': 'gpt2',
  llama3: 'llama3',
  'llama-v3': 'llama3',
  'llama-bpe': 'llama3',
  qwen2: 'qwen2',
  'deepseek-r1-qwen': 'qwen2',
  qwen35: 'qwen35',
};

export function resolvePreTokenizer(name: string | undefined): string {
  const k = ALIASES[name ?? ''];
  if (!k) throw new Error(`tokenizer: unsupported tokenizer.ggml.pre '${name}' (supported: ${Object.keys(ALIASES).filter(Boolean).join(', ')})`);
  return k;
}

/** Splits text the way unicode_regex_split does: each regex refines the pieces of the previous one,
 *  and text between matches is kept as its own piece. */
export function preTokenize(text: string, regexes: readonly RegExp[]): string[] {
  let pieces = [text];
  for (const rx of regexes) {
    const next: string[] = [];
    for (const p of pieces) {
      let last = 0;
      rx.lastIndex = 0;
      for (let m = rx.exec(p); m !== null; m = rx.exec(p)) {
        if (m[0].length === 0) {
          rx.lastIndex++;
          continue;
        }
        if (m.index > last) next.push(p.slice(last, m.index));
        next.push(m[0]);
        last = m.index + m[0].length;
      }
      if (last < p.length) next.push(p.slice(last));
    }
    pieces = next;
  }
  return pieces;
}
