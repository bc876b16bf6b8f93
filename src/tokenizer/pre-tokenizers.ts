// Pre-tokenizers of llama.cpp (src/llama-vocab.cpp, llm_tokenizer_bpe, and src/unicode.cpp,
// unicode_regex_split; the version node-llama-cpp 3.22.1 ships), as JS regexes.
//
// llama.cpp runs a pre-tokenizer's regexes in one of three ways, and so do we:
//   - 'unicode': regexes it has a hand-written matcher for (gpt2, llama3, qwen2, qwen35) behave as
//     the Unicode regex they implement; we run that regex. Its `\s` is llama.cpp's White_Space
//     table (which includes U+0085 and excludes U+FEFF), spelled out instead of JS's own.
//   - 'collapsed': any other regex that uses \p{..} runs through std::regex on a "collapsed" text
//     with one byte per code point: ASCII as is, other White_Space as \v, other code points as one
//     byte per category (letter, number, punctuation, mark, symbol, anything else); each \p{..} in
//     the regex becomes a class of that byte plus the category's ASCII members. So a non-ASCII
//     letter matches both [^a-z] and [^A-Z], and \s means ASCII whitespace (or the \v stand-in).
//     We build the same collapsed view and run the same rewritten regex on it (std::regex's
//     ECMAScript grammar is JS's).
//   - 'wide': a regex without \p{..} runs on the code points, non-ASCII White_Space turned into \v.

const WS = '\\t\\n\\v\\f\\r \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
const S = `[${WS}]`;
const NS = `[^${WS}]`;
const WS_RE = new RegExp(S, 'u');

export interface SplitStep {
  re: RegExp;
  view: 'unicode' | 'collapsed' | 'wide';
}

function unicode(src: string): SplitStep {
  // `[^\s\p{L}\p{N}]` becomes `[^[WS]...` after the \s substitution; fold it back into one class.
  return { re: new RegExp(src.replaceAll('\\s', S).replaceAll('\\S', NS).replaceAll(`[^${S}`, `[^${WS}`), 'gu'), view: 'unicode' };
}

/** The collapsed byte of each category (unicode.cpp k_ucat_cpt) and the ASCII members its \p{..}
 *  class keeps (k_ucat_map), as regex class text. */
const CATEGORY: Record<string, { byte: number; ascii: string }> = {
  N: { byte: 0xd1, ascii: '0-9' },
  L: { byte: 0xd2, ascii: 'A-Za-z' },
  P: { byte: 0xd3, ascii: '!-#%-*,-/:-;?-@\\[-\\]_\\{\\}' },
  M: { byte: 0xd4, ascii: '' },
  S: { byte: 0xd5, ascii: '\\$\\+<->^`\\|\\~' },
};
/** \p{Lu}, \p{Ll}, \p{Lt}, \p{Lm}, \p{Lo} all collapse to the letter class. */
const PROPERTY: Record<string, string> = { N: 'N', L: 'L', P: 'P', M: 'M', S: 'S', Lu: 'L', Ll: 'L', Lt: 'L', Lm: 'L', Lo: 'L' };
const OTHER_BYTE = 0xd0;

/** Rewrites a regex the way unicode_regex_split does before running it on collapsed text. */
function collapsedRegex(src: string): RegExp {
  let out = '';
  let inside = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '[' && (i === 0 || src[i - 1] !== '\\')) {
      out += c;
      inside = true;
      continue;
    }
    if (inside && c === ']' && src[i - 1] !== '\\') {
      out += c;
      inside = false;
      continue;
    }
    const m = /^\\p\{(\w+)\}/.exec(src.slice(i));
    const prop = m ? PROPERTY[m[1]!] : undefined;
    if (m && prop) {
      const cat = CATEGORY[prop]!;
      const cls = String.fromCharCode(cat.byte) + cat.ascii;
      out += inside ? cls : `[${cls}]`;
      i += m[0].length - 1;
      continue;
    }
    out += c;
  }
  return new RegExp(out, 'g');
}

function step(src: string): SplitStep {
  if (/\\p\{/.test(src)) return { re: collapsedRegex(src), view: 'collapsed' };
  return { re: new RegExp(src.replaceAll('\\s', '[\\t\\n\\v\\f\\r ]').replaceAll('\\S', '[^\\t\\n\\v\\f\\r ]'), 'gu'), view: 'wide' };
}

const CATEGORY_TESTS: Array<[RegExp, number]> = [
  [/\p{N}/u, 0xd1],
  [/\p{L}/u, 0xd2],
  [/\p{P}/u, 0xd3],
  [/\p{M}/u, 0xd4],
  [/\p{S}/u, 0xd5],
];
const bmpCollapsed = new Uint8Array(0x10000);
const astralCollapsed = new Map<number, number>();

/** unicode_regex_split's collapsed byte for a code point. */
function collapsedByte(cp: number): number {
  if (cp < 0x80) return cp;
  const known = cp < 0x10000 ? bmpCollapsed[cp]! : astralCollapsed.get(cp);
  if (known) return known;
  const ch = String.fromCodePoint(cp);
  let b = OTHER_BYTE;
  if (WS_RE.test(ch)) b = 0x0b;
  else {
    for (const [re, byte] of CATEGORY_TESTS) {
      if (re.test(ch)) {
        b = byte;
        break;
      }
    }
  }
  if (cp < 0x10000) bmpCollapsed[cp] = b;
  else astralCollapsed.set(cp, b);
  return b;
}

// llama.cpp's category table (unicode-data.cpp) is generated from Unicode 15.1: code points that
// later versions assigned (the ones below, up to Unicode 17, which newer Node versions know) are
// "undefined" there: not letters, numbers, etc. Text is split as llama.cpp sees it by standing in an
// unassigned code point of the same UTF-16 length for each of them (U+0378, U+E0080).
const NEWER_THAN_LLAMA_CPP = new RegExp(
  '[' +
  '\\u{88f}\\u{897}\\u{c5c}\\u{cdc}\\u{1acf}-\\u{1add}\\u{1ae0}-\\u{1aeb}\\u{1b4e}-\\u{1b4f}' +
  '\\u{1b7f}\\u{1c89}-\\u{1c8a}\\u{20c1}\\u{2427}-\\u{2429}\\u{2b96}\\u{31e4}-\\u{31e5}' +
  '\\u{a7cb}-\\u{a7cf}\\u{a7d2}\\u{a7d4}\\u{a7da}-\\u{a7dc}\\u{a7f1}\\u{fbc3}-\\u{fbd2}' +
  '\\u{fd90}-\\u{fd91}\\u{fdc8}-\\u{fdce}\\u{105c0}-\\u{105f3}\\u{10940}-\\u{10959}' +
  '\\u{10d40}-\\u{10d65}\\u{10d69}-\\u{10d85}\\u{10d8e}-\\u{10d8f}\\u{10ec2}-\\u{10ec7}' +
  '\\u{10ed0}-\\u{10ed8}\\u{10efa}-\\u{10efc}\\u{11380}-\\u{11389}\\u{1138b}\\u{1138e}' +
  '\\u{11390}-\\u{113b5}\\u{113b7}-\\u{113c0}\\u{113c2}\\u{113c5}\\u{113c7}-\\u{113ca}' +
  '\\u{113cc}-\\u{113d5}\\u{113d7}-\\u{113d8}\\u{113e1}-\\u{113e2}\\u{116d0}-\\u{116e3}' +
  '\\u{11b60}-\\u{11b67}\\u{11bc0}-\\u{11be1}\\u{11bf0}-\\u{11bf9}\\u{11db0}-\\u{11ddb}' +
  '\\u{11de0}-\\u{11de9}\\u{11f5a}\\u{13460}-\\u{143fa}\\u{16100}-\\u{16139}' +
  '\\u{16d40}-\\u{16d79}\\u{16ea0}-\\u{16eb8}\\u{16ebb}-\\u{16ed3}\\u{16ff2}-\\u{16ff6}' +
  '\\u{187f8}-\\u{187ff}\\u{18cff}\\u{18d09}-\\u{18d1e}\\u{18d80}-\\u{18df2}' +
  '\\u{1cc00}-\\u{1ccfc}\\u{1cd00}-\\u{1ceb3}\\u{1ceba}-\\u{1ced0}\\u{1cee0}-\\u{1cef0}' +
  '\\u{1e5d0}-\\u{1e5fa}\\u{1e5ff}\\u{1e6c0}-\\u{1e6de}\\u{1e6e0}-\\u{1e6f5}' +
  '\\u{1e6fe}-\\u{1e6ff}\\u{1f6d8}\\u{1f777}-\\u{1f77a}\\u{1f8b2}-\\u{1f8bb}' +
  '\\u{1f8c0}-\\u{1f8c1}\\u{1f8d0}-\\u{1f8d8}\\u{1fa54}-\\u{1fa57}\\u{1fa89}-\\u{1fa8a}' +
  '\\u{1fa8e}-\\u{1fa8f}\\u{1fabe}\\u{1fac6}\\u{1fac8}\\u{1facd}\\u{1fadc}\\u{1fadf}' +
  '\\u{1fae9}-\\u{1faea}\\u{1faef}\\u{1fbcb}-\\u{1fbef}\\u{1fbfa}\\u{2b73a}-\\u{2b73f}' +
  '\\u{2cea2}-\\u{2cead}\\u{323b0}-\\u{33479}' +
  ']',
  'gu',
);

/** text with the code points llama.cpp does not know replaced (same UTF-16 layout). */
function asLlamaCppSees(text: string): string {
  NEWER_THAN_LLAMA_CPP.lastIndex = 0;
  if (!NEWER_THAN_LLAMA_CPP.test(text)) return text;
  return text.replace(NEWER_THAN_LLAMA_CPP, (c) => (c.length === 1 ? '\u0378' : '\u{E0080}'));
}

// The regexes as llama.cpp's llm_tokenizer_bpe lists them (its adapted forms, not the
// tokenizer.json originals: e.g. gpt-4o's and tekken's letter-case classes become lookaheads).
const CONTRACTIONS = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";
const GPT2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)";
const UPPER = '((?=[\\p{L}])([^a-z]))';
const LOWER = '((?=[\\p{L}])([^A-Z]))';

export interface PreTokenizer {
  steps: SplitStep[];
  /** A whole pre-token word that is a token is taken as is (llama.cpp ignore_merges). */
  ignoreMerges: boolean;
  /** Default of tokenizer.ggml.add_bos_token. */
  addBos: boolean;
  /** Detokenize clean-up (clean_up_tokenization_spaces). */
  cleanSpaces: boolean;
}

const pt = (steps: SplitStep[], o: Partial<Omit<PreTokenizer, 'steps'>> = {}): PreTokenizer => ({ steps, ignoreMerges: false, addBos: false, cleanSpaces: true, ...o });

export const PRE_TOKENIZERS: Record<string, PreTokenizer> = {
  default: pt([unicode('[\\p{P}$+<=>^~|]+'), unicode(GPT2), unicode('\\p{N}+'), unicode('[0-9][0-9][0-9]')]),
  gpt2: pt([unicode(GPT2)]),
  llama3: pt([unicode(`${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`)], { ignoreMerges: true, addBos: true }),
  qwen2: pt([unicode(`${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`)], { cleanSpaces: false }),
  qwen35: pt([unicode(`${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?[\\p{L}\\p{M}]+|\\p{N}| ?[^\\s\\p{L}\\p{M}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`)], { cleanSpaces: false }),
  'gpt-4o': pt(
    [step(`[^\\r\\n\\p{L}\\p{N}]?${UPPER}*${LOWER}+${CONTRACTIONS}?|[^\\r\\n\\p{L}\\p{N}]?${UPPER}+${LOWER}*${CONTRACTIONS}?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`)],
    { cleanSpaces: false },
  ),
  tekken: pt(
    [step(`[^\\r\\n\\p{L}\\p{N}]?${UPPER}*${LOWER}+|[^\\r\\n\\p{L}\\p{N}]?${UPPER}+${LOWER}*|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`)],
    { cleanSpaces: false, ignoreMerges: true, addBos: true },
  ),
  'deepseek-v3': pt(
    [
      step('\\p{N}{1,3}'),
      step('[一-龥぀-ゟ゠-ヿ]+'),
      step("[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"),
    ],
    { cleanSpaces: false },
  ),
};

/** tokenizer.ggml.pre names llama.cpp maps onto each pre-tokenizer (the ones this project supports). */
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
  'gpt-4o': 'gpt-4o',
  llama4: 'gpt-4o',
  tekken: 'tekken',
  'deepseek-v3': 'deepseek-v3',
};

export function resolvePreTokenizer(name: string | undefined): string {
  const k = ALIASES[name ?? ''];
  if (!k) throw new Error(`tokenizer: unsupported tokenizer.ggml.pre '${name}' (supported: ${Object.keys(ALIASES).filter(Boolean).join(', ')})`);
  return k;
}

/** Pieces of text between and at the matches of re (zero-length matches are skipped). */
function splitAt(text: string, re: RegExp, out: string[]): void {
  let start = 0;
  pieceEnds(text, re, (end) => {
    out.push(text.slice(start, end));
    start = end;
  });
}

/** Splits text the way unicode_regex_split does: each step refines the pieces of the previous one,
 *  and text between matches is kept as its own piece. */
export function preTokenize(text: string, steps: readonly SplitStep[]): string[] {
  const seen = asLlamaCppSees(text);
  const pieces = splitSteps(seen, steps);
  if (seen === text) return pieces;
  let at = 0;
  return pieces.map((p) => text.slice(at, (at += p.length)));
}

function splitSteps(text: string, steps: readonly SplitStep[]): string[] {
  if (steps.every((st) => st.view === 'unicode')) {
    let pieces = [text];
    for (const st of steps) {
      const next: string[] = [];
      for (const p of pieces) splitAt(p, st.re, next);
      pieces = next;
    }
    return pieces;
  }
  // Other views: the pieces are kept as cut positions (UTF-16 offsets into text) and every view is
  // built once for the whole text. The collapsed view has one unit per code point ('collapsed'),
  // the wide one the text's own layout (only BMP whitespace replaced).
  let collapsed = '';
  let cpStart: Int32Array | null = null; // code point index -> UTF-16 offset
  let cpIndex: Int32Array | null = null; // UTF-16 offset -> code point index
  let wide = '';
  const buildCollapsed = () => {
    cpStart = new Int32Array(text.length + 1);
    cpIndex = new Int32Array(text.length + 1);
    let n = 0;
    const units: number[] = [];
    for (let u = 0; u < text.length; ) {
      const cp = text.codePointAt(u)!;
      cpStart[n] = u;
      cpIndex[u] = n;
      units.push(collapsedByte(cp));
      u += cp > 0xffff ? 2 : 1;
      n++;
    }
    cpStart[n] = text.length;
    cpIndex[text.length] = n;
    for (let i = 0; i < units.length; i += 4096) collapsed += String.fromCharCode(...units.slice(i, i + 4096));
  };
  const buildWide = () => {
    let w = '';
    for (const c of text) {
      const cp = c.codePointAt(0)!;
      w += cp >= 0x80 && collapsedByte(cp) === 0x0b ? '\v' : c;
    }
    wide = w;
  };
  let cuts = [0, text.length];
  for (const st of steps) {
    const next = [0];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const s = cuts[i]!;
      const e = cuts[i + 1]!;
      if (st.view === 'collapsed') {
        if (!cpStart) buildCollapsed();
        const cs = cpIndex![s]!;
        pieceEnds(collapsed.slice(cs, cpIndex![e]!), st.re, (end) => next.push(cpStart![cs + end]!));
      } else {
        if (st.view === 'wide' && wide.length !== text.length) buildWide();
        pieceEnds((st.view === 'wide' ? wide : text).slice(s, e), st.re, (end) => next.push(s + end));
      }
    }
    cuts = next;
  }
  const pieces: string[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) pieces.push(text.slice(cuts[i], cuts[i + 1]));
  return pieces;
}

/** Where each piece of text between and at the matches of re ends (offsets into text; zero-length matches are skipped). */
function pieceEnds(text: string, re: RegExp, end: (at: number) => void): void {
  let last = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    if (m.index > last) end(m.index);
    last = m.index + m[0].length;
    end(last);
  }
  if (last < text.length) end(text.length);
}
