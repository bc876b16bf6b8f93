// Tokenizer built from GGUF metadata (tokenizer.ggml.*), matching llama.cpp's llama-vocab.cpp:
// byte-level BPE (`gpt2`) with the pre-tokenizer `tokenizer.ggml.pre` names, SentencePiece-style
// (`llama`), special/added tokens split out first, BOS/EOS from the metadata.
import { byteLevelDecode } from './byte-level.js';
import { BpeModel } from './bpe.js';
import { PRE_TOKENIZERS, preTokenize, resolvePreTokenizer, type SplitStep } from './pre-tokenizers.js';
import { SpmModel } from './spm.js';

/** tokenizer.ggml.token_type values. */
export enum TokenType {
  UNDEFINED = 0,
  NORMAL = 1,
  UNKNOWN = 2,
  CONTROL = 3,
  USER_DEFINED = 4,
  UNUSED = 5,
  BYTE = 6,
}

export interface EncodeOptions {
  /** Add BOS/EOS as the metadata says (add_bos_token / add_eos_token). Default true. */
  addSpecial?: boolean;
  /** Match control tokens written as text (e.g. "<|im_start|>"). Default false.
   *  User-defined tokens are always matched, as in llama.cpp. */
  parseSpecial?: boolean;
}

/** Put inside a control token's text (by Tokenizer.literal) so that it no longer matches; encode
 *  drops it from plain text. A Unicode noncharacter: reserved for internal use, never meaningful
 *  in text a client sends (encode drops it there too). */
export const LITERAL_MARK = '\uFDD0';

export interface DecodeOptions {
  /** Render control tokens' text (e.g. "<|im_end|>"). Default false. */
  special?: boolean;
}
// decode() follows llama_detokenize(remove_special = false): with a SentencePiece vocabulary the
// first token loses one leading space (a leading BOS renders nothing and uses up that strip).

export interface StreamDecoder {
  /** Text completed by this token ('' while a UTF-8 character is still incomplete). */
  push(id: number): string;
  /** Whatever is left (an incomplete character becomes U+FFFD). */
  flush(): string;
}

export interface Tokenizer {
  readonly model: 'gpt2' | 'llama';
  readonly pre: string | null;
  readonly vocabSize: number;
  readonly bos: number | null;
  readonly eos: number | null;
  readonly eot: number | null;
  readonly pad: number | null;
  readonly unk: number | null;
  /** Every id that ends generation (EOS, EOT, EOM and the end-of-text tokens llama.cpp detects). */
  readonly eog: readonly number[];
  readonly addBos: boolean;
  readonly addEos: boolean;
  readonly chatTemplate: string | null;
  encode(text: string, opts?: EncodeOptions): Uint32Array;
  /** Client text to be placed into a prompt that is encoded with parseSpecial: every control
   *  token's text in it gets LITERAL_MARK after its first character, so that it encodes as the
   *  plain text it is (as with parseSpecial off) and cannot open or close a turn. */
  literal(text: string): string;
  decode(ids: ArrayLike<number>, opts?: DecodeOptions): string;
  /** The bytes a token contributes to decoded text (control tokens: their text). */
  tokenBytes(id: number): Uint8Array;
  /** The token's piece as stored in the vocabulary. */
  tokenText(id: number): string;
  tokenType(id: number): TokenType;
  tokenId(piece: string): number | undefined;
  createStreamDecoder(opts?: DecodeOptions): StreamDecoder;
}

/** Limits on untrusted metadata. */
const MAX_VOCAB = 1 << 22;

// Text-based special-token detection of llama.cpp's llama-vocab.cpp (the version node-llama-cpp
// 3.22.1 ships): tokens with these texts become CONTROL even when the file says NORMAL. Where
// llama.cpp takes "the first match" of a list (iterating a hash map), we take list order; files
// that set the ids explicitly (ours do) behave identically in both.
const EOT_TEXTS = ['<|eot_id|>', '<|im_end|>', '<|end|>', '<end_of_turn>', '<|endoftext|>', '<|end_of_text|>', '<EOT>', '_<EOT>', '[EOT]', '<｜end▁of▁sentence｜>', '<end_of_utterance>'];
const FIM_LISTS: Array<[string, string[]]> = [
  ['tokenizer.ggml.fim_pre_token_id', ['<|fim_prefix|>', '<fim-prefix>', '<fim_prefix>', '<｜fim▁begin｜>', '<PRE>', '▁<PRE>', '<|code_prefix|>', '<|prefix|>']],
  ['tokenizer.ggml.fim_suf_token_id', ['<|fim_suffix|>', '<fim-suffix>', '<fim_suffix>', '<｜fim▁hole｜>', '<SUF>', '▁<SUF>', '<|code_suffix|>', '<|suffix|>']],
  ['tokenizer.ggml.fim_mid_token_id', ['<|fim_middle|>', '<fim-middle>', '<fim_middle>', '<｜fim▁end｜>', '<MID>', '▁<MID>', '<|code_middle|>', '<|middle|>']],
  ['tokenizer.ggml.fim_pad_token_id', ['<|fim_pad|>', '<fim-pad>', '<fim_pad>', '<PAD>', '[PAD]']],
  ['tokenizer.ggml.fim_rep_token_id', ['<|fim_repo|>', '<|repo_name|>', '<fim-repo>', '<REPO>', '<reponame>']],
  ['tokenizer.ggml.fim_sep_token_id', ['<|file_sep|>']],
];
const EOG_TEXTS = [
  '<|eot_id|>', '<|im_end|>', '<|end|>', '<|return|>', '<|call|>', '<|flush|>', '<|calls|>', '<end_of_turn>', '<|endoftext|>', '</s>',
  '<|eom_id|>', '<EOT>', '_<EOT>', '[EOT]', '[EOS]', '<|end_of_text|>', '<end_of_utterance>', '<eos>', '<turn|>', '<|tool_response>',
  '<｜end▁of▁sentence｜>', '[e~[',
];
/** gpt-oss: always rendered. */
const FORCED_USER_DEFINED = ['<|channel|>', '<|message|>', '<|start|>', '<|constrain|>'];

function arr<T>(v: unknown, what: string): ArrayLike<T> {
  if (v === undefined || v === null) throw new Error(`tokenizer: metadata ${what} is missing`);
  if (typeof v !== 'object' || typeof (v as ArrayLike<T>).length !== 'number') throw new Error(`tokenizer: metadata ${what} is not an array`);
  return v as ArrayLike<T>;
}

function optId(md: Record<string, unknown>, key: string, n: number): number | null | undefined {
  const v = md[key];
  if (v === undefined) return undefined;
  const x = Number(v);
  if (!Number.isInteger(x)) throw new Error(`tokenizer: ${key} is not an integer`);
  if (x < 0 || x >= n) return null; // llama.cpp: out-of-range special ids are ignored
  return x;
}

const utf8 = new TextEncoder();
/** Fragment cache bounds (UTF-16 units): all fragments together (cleared past it, ~10 MB with
 *  their ids), and the longest one kept. */
const FRAGMENT_CACHE_CHARS = 4 << 20;
const FRAGMENT_CACHE_MAX_CHARS = 256 << 10;

export function createTokenizer(md: Record<string, unknown>): Tokenizer {
  const modelName = String(md['tokenizer.ggml.model'] ?? '');
  if (modelName !== 'gpt2' && modelName !== 'llama') {
    throw new Error(`tokenizer: unsupported tokenizer.ggml.model '${modelName}' (supported: gpt2, llama)`);
  }
  const tokens = arr<string>(md['tokenizer.ggml.tokens'], 'tokenizer.ggml.tokens');
  const n = tokens.length;
  if (n === 0 || n > MAX_VOCAB) throw new Error(`tokenizer: vocabulary size ${n} out of range`);
  const rawTypes = md['tokenizer.ggml.token_type'] === undefined ? null : arr<number>(md['tokenizer.ggml.token_type'], 'tokenizer.ggml.token_type');
  if (rawTypes && rawTypes.length !== n) throw new Error('tokenizer: token_type length differs from tokens');
  const types = new Uint8Array(n);
  const tokenToId = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const t = tokens[i];
    if (typeof t !== 'string') throw new Error(`tokenizer: token ${i} is not a string`);
    types[i] = rawTypes ? Number(rawTypes[i]) : TokenType.NORMAL;
    tokenToId.set(t, i); // later duplicates win, as llama.cpp's token_to_id assignment
  }

  const isSpm = modelName === 'llama';
  const getId = (key: string, dflt: number | null): number | null => {
    const v = optId(md, key, n);
    return v === undefined ? dflt : v;
  };
  const bos = getId('tokenizer.ggml.bos_token_id', isSpm ? 1 : 11);
  const eos = getId('tokenizer.ggml.eos_token_id', isSpm ? 2 : 11);
  const unk = getId('tokenizer.ggml.unknown_token_id', isSpm ? 0 : null);
  const pad = getId('tokenizer.ggml.padding_token_id', null);
  const forceControl = (id: number) => {
    if (types[id] !== TokenType.CONTROL && types[id] !== TokenType.UNKNOWN) types[id] = TokenType.CONTROL;
  };
  const firstOf = (texts: string[]): number | null => {
    for (const t of texts) {
      const id = tokenToId.get(t);
      if (id !== undefined) return id;
    }
    return null;
  };
  let eot = getId('tokenizer.ggml.eot_token_id', null);
  if (eot === null) {
    eot = firstOf(EOT_TEXTS);
    if (eot !== null) forceControl(eot);
  }
  let eom = getId('tokenizer.ggml.eom_token_id', null);
  if (eom === null) {
    eom = firstOf(['<|eom_id|>']);
    if (eom !== null) forceControl(eom);
  }
  const fim: Array<number | null> = FIM_LISTS.map(([key, texts]) => {
    let id = getId(key, null);
    if (id === null) {
      id = firstOf(texts);
      if (id !== null) forceControl(id);
    }
    return id;
  });
  const eog = new Set<number>();
  for (const id of fim.slice(3)) if (id !== null) eog.add(id); // pad, repo, file_sep
  for (const t of EOG_TEXTS) {
    const id = tokenToId.get(t);
    if (id !== undefined) {
      eog.add(id);
      forceControl(id);
    }
  }
  for (const t of FORCED_USER_DEFINED) {
    const id = tokenToId.get(t);
    if (id !== undefined) types[id] = TokenType.USER_DEFINED;
  }
  for (const id of [eos, eot, eom]) if (id !== null) eog.add(id);
  {
    const has = (t: string) => [...eog].some((id) => tokens[id] === t);
    const endId = tokenToId.get('<|end|>');
    if (endId !== undefined && eog.has(endId) && ((has('<|return|>') && (has('<|call|>') || has('<|calls|>'))) || ((has('<|call|>') || has('<|calls|>')) && has('<|flush|>')))) {
      eog.delete(endId);
      types[endId] = TokenType.USER_DEFINED;
    }
    const sId = tokenToId.get('</s>');
    if (sId !== undefined && eog.has(sId) && has('<|tool_response>')) {
      eog.delete(sId);
      types[sId] = TokenType.NORMAL;
    }
  }

  let pre: string | null = null;
  let preSteps: SplitStep[] = [];
  let addBos = isSpm;
  let cleanSpaces = false;
  let bpe: BpeModel | null = null;
  let spm: SpmModel | null = null;
  if (!isSpm) {
    pre = resolvePreTokenizer(md['tokenizer.ggml.pre'] === undefined ? 'default' : String(md['tokenizer.ggml.pre']));
    const info = PRE_TOKENIZERS[pre]!;
    preSteps = info.steps;
    addBos = info.addBos;
    // llama.cpp's clean_up_tokenization_spaces: on for byte-level BPE unless the pre-tokenizer turns it off.
    cleanSpaces = info.cleanSpaces;
    const merges = arr<string>(md['tokenizer.ggml.merges'], 'tokenizer.ggml.merges');
    bpe = new BpeModel({ tokenToId, merges }, info.ignoreMerges);
  } else {
    const scores = md['tokenizer.ggml.scores'] === undefined ? new Float32Array(n) : arr<number>(md['tokenizer.ggml.scores'], 'tokenizer.ggml.scores');
    const byteIds = new Int32Array(256).fill(-1);
    for (let b = 0; b < 256; b++) {
      const id = tokenToId.get(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
      if (id !== undefined) byteIds[b] = id;
    }
    spm = new SpmModel({ tokenToId, scores, byteIds });
  }
  if (md['tokenizer.ggml.add_bos_token'] !== undefined) addBos = Boolean(md['tokenizer.ggml.add_bos_token']);
  const addEos = md['tokenizer.ggml.add_eos_token'] !== undefined ? Boolean(md['tokenizer.ggml.add_eos_token']) : false;
  const addSpacePrefix = isSpm ? (md['tokenizer.ggml.add_space_prefix'] !== undefined ? Boolean(md['tokenizer.ggml.add_space_prefix']) : true) : false;

  // Tokens split out of raw text before the model runs: longest first (llama.cpp cache_special_tokens).
  const specials: Array<{ id: number; text: string; control: boolean }> = [];
  for (let i = 0; i < n; i++) {
    const t = types[i];
    if (t === TokenType.CONTROL || t === TokenType.USER_DEFINED || t === TokenType.UNKNOWN) {
      const text = tokens[i]!;
      if (text.length > 0) specials.push({ id: i, text, control: t !== TokenType.USER_DEFINED });
    }
  }
  specials.sort((a, b) => utf8.encode(b.text).length - utf8.encode(a.text).length || a.id - b.id);

  // Control texts for literal(), longest first like the partition, in one alternation.
  const controlTexts = specials.filter((sp) => sp.control).map((sp) => sp.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const controlRe = controlTexts.length ? new RegExp(controlTexts.join('|'), 'g') : null;
  const literal = (text: string): string => (controlRe ? text.replace(controlRe, (m) => m.slice(0, 1) + LITERAL_MARK + m.slice(1)) : text);

  type Fragment = string | number;
  const partition = (text: string, parseSpecial: boolean): Fragment[] => {
    let frags: Fragment[] = [text];
    for (const sp of specials) {
      if (sp.control && !parseSpecial) continue;
      let changed = false;
      const next: Fragment[] = [];
      for (const f of frags) {
        if (typeof f !== 'string' || f.indexOf(sp.text) < 0) {
          next.push(f);
          continue;
        }
        changed = true;
        let pos = 0;
        for (let at = f.indexOf(sp.text); at >= 0; at = f.indexOf(sp.text, pos)) {
          if (at > pos) next.push(f.slice(pos, at));
          next.push(sp.id);
          pos = at + sp.text.length;
        }
        if (pos < f.length) next.push(f.slice(pos));
      }
      if (changed) frags = next;
    }
    return frags;
  };

  // Byte-level BPE splits text at special tokens first, so a fragment between two of them always
  // gives the same ids: cache them. Chat requests resend their system prompt and history with every
  // turn; those fragments come back as a lookup instead of a pre-tokenization and a walk of words.
  const fragmentCache = new Map<string, readonly number[]>();
  let fragmentCacheChars = 0;
  const encodeFragment = (f: string, out: number[]): void => {
    const hit = fragmentCache.get(f);
    if (hit) {
      for (let i = 0; i < hit.length; i++) out.push(hit[i]!);
      return;
    }
    const start = out.length;
    for (const w of preTokenize(f, preSteps)) bpe!.encodeWord(w, out);
    if (f.length > FRAGMENT_CACHE_MAX_CHARS) return;
    if (fragmentCacheChars + f.length > FRAGMENT_CACHE_CHARS) {
      fragmentCache.clear();
      fragmentCacheChars = 0;
    }
    fragmentCache.set(f, out.slice(start));
    fragmentCacheChars += f.length;
  };

  const encode = (text: string, opts: EncodeOptions = {}): Uint32Array => {
    const addSpecial = opts.addSpecial ?? true;
    const out: number[] = [];
    if (addSpecial && addBos && bos !== null) out.push(bos);
    const frags = text.length === 0 ? [] : partition(text, opts.parseSpecial ?? false);
    let prevSpecial = true;
    for (let f of frags) {
      if (typeof f === 'number') {
        out.push(f);
        prevSpecial = true;
        continue;
      }
      if (f.includes(LITERAL_MARK)) f = f.replaceAll(LITERAL_MARK, '');
      if (f.length === 0) continue;
      if (spm) {
        const t = (addSpacePrefix && prevSpecial ? ' ' : '') + f;
        spm.encode(t.replaceAll(' ', '\u2581'), out);
        prevSpecial = false;
      } else {
        encodeFragment(f, out);
      }
    }
    if (addSpecial && addEos && eos !== null) out.push(eos);
    return Uint32Array.from(out);
  };

  const bytesCache: Array<Uint8Array | undefined> = new Array(n);
  const EMPTY = new Uint8Array(0);
  const tokenBytes = (id: number): Uint8Array => {
    if (!Number.isInteger(id) || id < 0 || id >= n) throw new RangeError(`tokenizer: token id ${id} out of range [0, ${n})`);
    let b = bytesCache[id];
    if (b) return b;
    const text = tokens[id]!;
    switch (types[id]) {
      case TokenType.NORMAL:
      case TokenType.UNDEFINED:
        b = isSpm ? utf8.encode(text.replaceAll('\u2581', ' ')) : byteLevelDecode(text);
        break;
      case TokenType.BYTE: {
        const m = /^<0x([0-9A-Fa-f]{2})>$/.exec(text);
        b = m ? Uint8Array.of(parseInt(m[1]!, 16)) : utf8.encode(text);
        break;
      }
      case TokenType.UNUSED:
        b = EMPTY;
        break;
      default: // CONTROL, USER_DEFINED, UNKNOWN: raw text
        b = utf8.encode(text);
    }
    bytesCache[id] = b;
    return b;
  };
  const renders = (id: number, special: boolean): boolean => {
    const t = types[id];
    return special || (t !== TokenType.CONTROL && t !== TokenType.UNKNOWN);
  };

  const decode = (ids: ArrayLike<number>, opts: DecodeOptions = {}): string => {
    const parts: Uint8Array[] = [];
    let total = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      let b = tokenBytes(id); // validates the id even when the token does not render
      if (!renders(id, opts.special ?? false)) b = EMPTY;
      // SentencePiece added a space in front of the text: the first token gives it back.
      if (i === 0 && addSpacePrefix && b.length > 0 && b[0] === 0x20) b = b.subarray(1);
      parts.push(b);
      total += b.length;
    }
    const all = new Uint8Array(total);
    let o = 0;
    for (const p of parts) {
      all.set(p, o);
      o += p.length;
    }
    const s = new TextDecoder('utf-8', { ignoreBOM: true }).decode(all);
    return cleanSpaces ? cleanUpSpaces(s) : s;
  };

  // Streaming keeps every piece as is (llama.cpp's server streams token_to_piece without lstrip),
  // so a generated SentencePiece "▁The" starts with its space.
  const createStreamDecoder = (opts: DecodeOptions = {}): StreamDecoder => {
    const td = new TextDecoder('utf-8', { ignoreBOM: true });
    return {
      push(id: number): string {
        const b = tokenBytes(id);
        return renders(id, opts.special ?? false) ? td.decode(b, { stream: true }) : '';
      },
      flush(): string {
        return td.decode();
      },
    };
  };

  const chatTemplate = typeof md['tokenizer.chat_template'] === 'string' ? (md['tokenizer.chat_template'] as string) : null;
  return {
    model: modelName,
    pre,
    vocabSize: n,
    bos,
    eos,
    eot,
    pad,
    unk,
    eog: [...eog],
    addBos,
    addEos,
    chatTemplate,
    encode,
    literal,
    decode,
    tokenBytes,
    tokenText: (id) => {
      if (!Number.isInteger(id) || id < 0 || id >= n) throw new RangeError(`tokenizer: token id ${id} out of range [0, ${n})`);
      return tokens[id]!;
    },
    tokenType: (id) => types[id] as TokenType,
    tokenId: (piece) => tokenToId.get(piece),
    createStreamDecoder,
  };
}

/** llama.cpp's detokenize clean-up (clean_up_tokenization_spaces), byte for byte on ASCII. */
function cleanUpSpaces(s: string): string {
  // " ?", " !", " .", " ,"  -> drop the space
  let t = s.replace(/ (?=[?!.,])/g, '');
  // " ' " -> "'" (ported literally: a match blanks the next character in place)
  const c = Array.from(t);
  let out = '';
  for (let i = 0; i < c.length; i++) {
    const x = c[i]!;
    if (i > 0 && x === "'" && i + 1 < c.length && c[i - 1] === ' ' && c[i + 1] === ' ') {
      out = out.slice(0, -1);
      c[++i] = '\0';
    }
    out += x;
  }
  t = out;
  // " 's", " 'm", " 're", " 've" -> drop the space
  return t.replace(/ (?='(?:[sm]|re|ve))/g, '');
}
